"""asyncio wrappers for the blocking calls: each runs the C call on a worker thread (:func:`asyncio.to_thread`),
so the event loop goes on meanwhile, and cancelling the awaiting task cancels the C call too.

    state = await telenorid.aio.exchange_code(client, callback)
    token = await telenorid.aio.fresh_access_token(state)

A cancelled task cancels the library call (:meth:`Client.cancel`, :meth:`LoopbackListener.cancel`), waits
for the worker thread to leave it, then raises :class:`asyncio.CancelledError`: nothing keeps running on
behalf of a cancelled task. Cancellation is per handle, as in C: cancelling a client's call also ends the
client's (and its auth states') other calls in flight, on other tasks and threads, with
:class:`telenorid.CancelledError` (not asyncio's).
A result that arrived while the task was being cancelled is dropped, as cancellation asks.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, Optional, TypeVar

from .auth_state import AuthState
from .authorization import AuthorizationCallback, AuthorizationRequest, PendingAuthorization
from .client import Client
from .device import DeviceAuthorization
from .loopback import LoopbackListener

__all__ = ["discover", "build_authorization", "exchange_code", "fresh_access_token", "refresh", "userinfo",
           "revoke", "wait", "start_device_authorization", "wait_device_authorization"]

T = TypeVar("T")

# How long to let the worker leave the C call after each cancel. A cancel ends only a call in flight
# when it is made, so one made before the worker reached C is repeated.
_CANCEL_RETRY_S = 0.05


async def _run(call: Callable[[], T], cancel: Callable[[], None]) -> T:
    worker = asyncio.ensure_future(asyncio.to_thread(call))
    try:
        # Shielded: the task's cancellation must not cancel to_thread's future, which would leave the
        # thread running with nobody waiting for it.
        return await asyncio.shield(worker)
    except asyncio.CancelledError:
        while not worker.done():
            cancel()
            try:
                await asyncio.wait({worker}, timeout=_CANCEL_RETRY_S)
            except asyncio.CancelledError:
                pass  # cancelled again: the thread is still to be waited for
        if not worker.cancelled():
            worker.exception()  # retrieved, so asyncio does not report it as never retrieved
        raise


def _client_of(state: AuthState) -> Client:
    client = state._parents[0] if state._parents else None
    if not isinstance(client, Client):
        raise TypeError("an AuthState made by a Client")
    return client


async def discover(client: Client) -> None:
    """:meth:`Client.discover`, cancellable."""
    await _run(client.discover, client.cancel)


async def build_authorization(client: Client, request: AuthorizationRequest) -> PendingAuthorization:
    """:meth:`Client.build_authorization` (which may push the request: network), cancellable."""
    return await _run(lambda: client.build_authorization(request), client.cancel)


async def exchange_code(client: Client, callback: AuthorizationCallback) -> AuthState:
    """:meth:`Client.exchange_code`, cancellable. A cancelled exchange leaves the callback consumed (whether
    the code reached the provider is unknown): start a new authorization."""
    return await _run(lambda: client.exchange_code(callback), client.cancel)


async def fresh_access_token(state: AuthState) -> str:
    """:meth:`AuthState.fresh_access_token`, cancellable through the client that made ``state``; a cancelled
    refresh keeps the tokens the state had."""
    return await _run(state.fresh_access_token, _client_of(state).cancel)


async def refresh(state: AuthState) -> None:
    """:meth:`AuthState.refresh`, cancellable; a cancelled refresh keeps the tokens the state had."""
    await _run(state.refresh, _client_of(state).cancel)


async def userinfo(state: AuthState) -> Dict[str, Any]:
    """:meth:`AuthState.userinfo`, cancellable."""
    return await _run(state.userinfo, _client_of(state).cancel)


async def revoke(state: AuthState) -> None:
    """:meth:`AuthState.revoke`, cancellable. The state is signed out before the provider is called, so a
    cancelled revocation still signs out; only whether the provider heard of it is unknown."""
    await _run(state.revoke, _client_of(state).cancel)


async def wait(listener: LoopbackListener, timeout: float = 300.0) -> str:
    """:meth:`LoopbackListener.wait`, cancellable: the redirect's full URL, or :class:`NetworkTimeoutError`."""
    return await _run(lambda: listener.wait(timeout), listener.cancel)


async def start_device_authorization(client: Client,
                                     request: Optional[AuthorizationRequest] = None) -> DeviceAuthorization:
    """:meth:`Client.start_device_authorization`, cancellable."""
    return await _run(lambda: client.start_device_authorization(request), client.cancel)


async def wait_device_authorization(device: DeviceAuthorization) -> AuthState:
    """:meth:`DeviceAuthorization.wait`, cancellable through its client: the wait between polls ends at once
    too, and the device authorization can be waited for again."""
    client: Client = device._parents[0]
    return await _run(device._wait, client.cancel)
