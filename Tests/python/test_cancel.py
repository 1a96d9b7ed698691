"""Cancellation from another thread: Client.cancel ends a blocked call, LoopbackListener.cancel a wait, each
within 100 ms with telenorid.Cancelled, and the object works afterwards.

Run with Tests/python/run.sh (PYTHONPATH=bindings/python); also works with plain pytest from anywhere.
"""
import socket
import time

import pytest

import telenorid

from background_call import run_in_thread


def test_client_cancel_ends_a_blocked_call_and_the_next_runs():
    # Takes connections (the kernel completes them) and never answers.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    issuer = f"http://127.0.0.1:{silent.getsockname()[1]}"
    try:
        config = telenorid.Config.from_settings(issuer=issuer, client_id="tnn-example",
                                                redirect_uri="telenorid-example://cb/", timeout_ms="20000")
        with telenorid.Client(config) as client:
            client.cancel()  # nothing in flight: cancels nothing to come
            join = run_in_thread(client.discover)
            time.sleep(0.3)
            cancelled = time.monotonic()
            client.cancel()
            error, ended = join()
            assert isinstance(error, telenorid.Cancelled), error
            assert error.status == 28 and not error.transient
            assert not isinstance(error, (telenorid.UsageError, telenorid.TransportError))
            assert ended - cancelled < 0.1
            # A call after the cancel is not cancelled: it waits until its own timeout, ended here by a
            # second cancel.
            join = run_in_thread(client.discover)
            time.sleep(0.3)
            assert join.running()
            client.cancel()
            error, _ = join()
            assert isinstance(error, telenorid.Cancelled)
    finally:
        silent.close()


def test_loopback_cancel_ends_a_wait_and_the_listener_waits_again():
    with telenorid.LoopbackListener() as listener:
        join = run_in_thread(lambda: listener.wait(20))
        time.sleep(0.2)
        cancelled = time.monotonic()
        listener.cancel()
        error, ended = join()
        assert isinstance(error, telenorid.Cancelled), error
        assert ended - cancelled < 0.1
        start = time.monotonic()
        with pytest.raises(telenorid.Timeout):
            listener.wait(0.3)
        assert time.monotonic() - start >= 0.29
