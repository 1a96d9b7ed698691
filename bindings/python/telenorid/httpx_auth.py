"""HttpxAuth: a signed-in user's tokens (or a machine's own) on every request an ``httpx`` client makes, sync
or async (``pip install 'telenorid[httpx]'``).

    with httpx.Client(auth=telenorid.HttpxAuth(state)) as http:
        response = http.get("https://api.example.com/me")
    async with httpx.AsyncClient(auth=telenorid.HttpxAuth(machine)) as http:
        response = await http.get("https://api.example.com/jobs")
"""
from __future__ import annotations

from typing import AsyncGenerator, Generator, Optional, Tuple, Union

try:
    import httpx
except ImportError as error:  # the optional extra is missing
    raise ImportError("telenorid.HttpxAuth needs httpx: pip install 'telenorid[httpx]'") from error

from . import aio
from .auth_state import AuthState
from .client import Client
from .resource_server import ClientCredentials

__all__ = ["HttpxAuth"]


def _sign(request: httpx.Request, headers: Tuple[str, Optional[str]]) -> httpx.Request:
    authorization, dpop = headers
    request.headers["Authorization"] = authorization
    if dpop is None:
        request.headers.pop("DPoP", None)
    else:
        request.headers["DPoP"] = dpop
    return request


def _retry(state: Union[AuthState, ClientCredentials], response: httpx.Response) -> bool:
    """Whether the library says the request is worth its one retry (no network call)."""
    authorization = response.request.headers.get("Authorization")
    challenges = ", ".join(response.headers.get_list("WWW-Authenticate")) or None
    return authorization is not None and state.resource_answered(
        str(response.request.url), response.status_code, challenges, response.headers.get("DPoP-Nonce"), authorization)


class HttpxAuth(httpx.Auth):
    """An ``httpx.Auth`` for :class:`httpx.Client` and :class:`httpx.AsyncClient` calls to a resource server
    with the tokens of ``state``: a signed-in user's :class:`AuthState` or a machine's own
    :class:`ClientCredentials`. Sets ``Authorization`` (and ``DPoP``, with a proof for the request's method
    and URL, RFC 9449 §7) from the holder's ``request_headers``, which renews a token about to expire. A 401
    that refuses the token (``error="invalid_token"``, or no error: revoked, expired early) is sent once more
    with a new token (an auth state's refreshed, a machine's asked for again), and one with
    ``error="use_dpop_nonce"`` once more with the resource's ``DPoP-Nonce``, as the holder's
    ``resource_answered`` says; never more than one retry, whose answer is returned whatever it is (the 401 is
    in its ``history``). A refresh the provider refuses raises :class:`AuthorizationLostError` (the state is
    signed out); a machine's token request it refuses raises that request's error. The async flow runs the
    library's blocking calls on a worker thread, as :mod:`telenorid.aio` does: a cancelled task cancels them
    through the client that made ``state``. Safe to share between threads and clients."""

    def __init__(self, state: Union[AuthState, ClientCredentials]) -> None:
        """Authenticates with the tokens of ``state``, an :class:`AuthState` or a :class:`ClientCredentials`,
        which it keeps referenced."""
        if not isinstance(state, (AuthState, ClientCredentials)):
            raise TypeError("state must be a telenorid.AuthState or a telenorid.ClientCredentials")
        self._state = state

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """The flow of :class:`httpx.Client`: the request with its headers, then at most one retry."""
        request.read()  # before the first send, so that a streamed body can be sent again
        state, method, url = self._state, request.method, str(request.url)
        response = yield _sign(request, state.request_headers(method, url))
        if _retry(state, response):
            yield _sign(request, state.request_headers(method, url))

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        """The flow of :class:`httpx.AsyncClient`, the event loop free while the library works (it may refresh)."""
        await request.aread()
        state, method, url = self._state, request.method, str(request.url)
        client: Client = state._parents[0]  # both holders are made by a Client, their first parent
        cancel = client.cancel
        response = yield _sign(request, await aio._run(lambda: state.request_headers(method, url), cancel))
        if _retry(state, response):
            yield _sign(request, await aio._run(lambda: state.request_headers(method, url), cancel))
