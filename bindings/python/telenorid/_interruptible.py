"""Blocking library calls that Ctrl-C can stop. Python delivers KeyboardInterrupt only between C calls, so a
long call (a grant's wait, a slow provider) runs on a worker thread while the caller's thread joins it in
slices; on Ctrl-C the client is cancelled (telenorid_client_cancel: its calls in flight end with
CancelledError) until the worker has left C, and then the interrupt goes on. A refresh or code exchange whose
request was already sent is finished first (its answer kept), which may take up to the client's timeout."""
from __future__ import annotations

import threading
from typing import Any, Callable, List, Optional, Protocol, TypeVar

T = TypeVar("T")


class Cancellable(Protocol):
    """What a call is stopped through: a Client (telenorid_client_cancel), named by its one method so that this
    module needs none of the modules that use it."""

    def cancel(self) -> None: ...


# How often the caller's thread looks up from the worker: Ctrl-C is seen within this.
_SLICE_S = 0.25
# After a cancel, how long to give the worker to leave C before cancelling again (a cancel ends only what
# is in flight when it is made, so a call that had not reached C yet needs another).
_CANCEL_RETRY_S = 0.05
# A call still in C this long after the first cancel is finishing a request already sent (a cancel ends
# everything else within 100 ms).
_FINISHING_AFTER_S = 0.3


def interruptible(client: Cancellable, call: Callable[[], T], finishing: Optional[Callable[[], None]] = None) -> T:
    """``call()`` (a blocking call of ``client`` or of an auth state it made), stopped by Ctrl-C. ``finishing``
    is called once when, after Ctrl-C, the call goes on finishing a request it had already sent."""
    outcome: List[Any] = []
    # Set when the call has returned. Not Thread.is_alive(): a join() that KeyboardInterrupt interrupts can leave
    # the thread marked as stopped while it still runs (CPython before 3.13), and the caller would go on while
    # the call is still in C.
    done = threading.Event()

    def work() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as error:  # noqa: B902 - handed to the caller's thread
            outcome.append((False, error))
        finally:
            done.set()

    worker = threading.Thread(target=work, name="telenorid-call", daemon=True)
    worker.start()
    try:
        while not done.wait(_SLICE_S):
            pass
    except KeyboardInterrupt:
        waited = 0.0
        while not done.is_set():
            client.cancel()
            done.wait(_CANCEL_RETRY_S)
            waited += _CANCEL_RETRY_S
            if finishing is not None and waited >= _FINISHING_AFTER_S and not done.is_set():
                finishing()
                finishing = None
        raise
    succeeded, value = outcome[0]
    if succeeded:
        result: T = value
        return result
    raise value
