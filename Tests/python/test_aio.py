"""telenorid.aio under plain asyncio: the event loop runs while a call blocks, and cancelling the task ends
the C call (its connection closed, its worker thread free) within 0.5 s, after which calls work again.

Run with Tests/python/run.sh (PYTHONPATH=bindings/python); also works with plain pytest from anywhere.
"""
import asyncio
import http.server
import json
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

import telenorid
import telenorid.aio


class Provider(http.server.ThreadingHTTPServer):
    """Serves discovery, or while `stalled` is set takes each request and never answers it (until the client
    hangs up, which it records)."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.issuer = f"http://127.0.0.1:{self.server_address[1]}"
        self.stalled = threading.Event()
        self.hung_up = threading.Event()
        self.requests = 0
        threading.Thread(target=self.serve_forever, daemon=True).start()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.requests += 1
        if self.server.stalled.is_set():
            self.connection.settimeout(10)
            if self.connection.recv(1) == b"":  # the client closed the connection
                self.server.hung_up.set()
            return
        issuer = self.server.issuer
        body = json.dumps({"issuer": issuer, "authorization_endpoint": f"{issuer}/authorize",
                           "token_endpoint": f"{issuer}/token", "jwks_uri": f"{issuer}/jwks",
                           "response_types_supported": ["code"], "subject_types_supported": ["public"],
                           "id_token_signing_alg_values_supported": ["RS256"],
                           "code_challenge_methods_supported": ["S256"]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def provider():
    server = Provider()
    yield server
    server.shutdown()
    server.server_close()


def client_for(provider):
    return telenorid.Client(telenorid.Config.from_settings(issuer=provider.issuer, client_id="tnn-example",
                                                           redirect_uri="telenorid-example://cb/", timeout_ms="20000"))


def run(main):
    """asyncio.run with a one-thread default executor: a job submitted to it after a cancellation runs
    at once only if the cancelled call's thread has really left the library."""
    async def with_one_worker():
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(1))
        return await main()
    return asyncio.run(with_one_worker())


async def assert_worker_free():
    await asyncio.wait_for(asyncio.to_thread(lambda: None), 0.2)


def test_cancelling_a_stalled_discovery_ends_the_c_call_and_a_later_call_works(provider):
    provider.stalled.set()

    async def main():
        with client_for(provider) as client:
            task = asyncio.create_task(telenorid.aio.discover(client))
            ticks = 0
            while provider.requests == 0 or ticks < 3:  # the loop runs while the call blocks
                await asyncio.sleep(0.1)
                ticks += 1
            cancelled = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert time.monotonic() - cancelled < 0.5
            await assert_worker_free()
            assert await asyncio.to_thread(provider.hung_up.wait, 2), "the library closed the connection"

            provider.stalled.clear()
            await telenorid.aio.discover(client)
            request = telenorid.AuthorizationRequest(client.config())
            pending = await telenorid.aio.build_authorization(client, request)
            assert pending.url.startswith(f"{provider.issuer}/authorize?")
    run(main)


def test_a_timeout_around_a_stalled_call_cancels_it(provider):
    provider.stalled.set()

    async def main():
        with client_for(provider) as client:
            started = time.monotonic()
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(telenorid.aio.discover(client), 0.3)
            assert time.monotonic() - started < 0.8
            await assert_worker_free()
    run(main)


def test_cancelling_a_listener_wait_and_waiting_again():
    async def main():
        with telenorid.LoopbackListener() as listener:
            task = asyncio.create_task(telenorid.aio.wait(listener, 30))
            await asyncio.sleep(0.3)
            cancelled = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert time.monotonic() - cancelled < 0.5
            await assert_worker_free()

            waiting = asyncio.create_task(telenorid.aio.wait(listener, 30))
            await asyncio.sleep(0.2)
            redirect = listener.redirect_uri + "?code=c&state=s"
            await asyncio.to_thread(lambda: urllib.request.urlopen(redirect, timeout=10).read())
            assert await asyncio.wait_for(waiting, 5) == redirect
    asyncio.run(main())

