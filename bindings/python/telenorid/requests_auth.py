"""RequestsAuth: a signed-in user's tokens (or a machine's own) on every request a ``requests`` call makes
(``pip install 'telenorid[requests]'``).

    response = requests.get("https://api.example.com/me", auth=telenorid.RequestsAuth(state))
    response = requests.get("https://api.example.com/jobs", auth=telenorid.RequestsAuth(machine))
"""
from __future__ import annotations

from typing import Any, Optional, Tuple, Union

try:
    import requests
    from requests.auth import AuthBase
    from requests.cookies import extract_cookies_to_jar
except ImportError as error:  # the optional extra is missing
    raise ImportError("telenorid.RequestsAuth needs requests: pip install 'telenorid[requests]'") from error

from .auth_state import AuthState
from .resource_server import ClientCredentials

__all__ = ["RequestsAuth"]

# Bodies that can be sent twice; a file or a generator has been read by the first send.
_REPLAYABLE = (bytes, str, type(None))


def _sign(request: requests.PreparedRequest, headers: Tuple[str, Optional[str]]) -> None:
    authorization, dpop = headers
    request.headers["Authorization"] = authorization
    if dpop is None:
        request.headers.pop("DPoP", None)
    else:
        request.headers["DPoP"] = dpop


def _header(request: requests.PreparedRequest, name: str) -> Optional[str]:
    value = request.headers.get(name)
    return value.decode("latin-1") if isinstance(value, bytes) else value


class RequestsAuth(AuthBase):
    """A ``requests`` auth (``auth=``) for calls to a resource server with the tokens of ``state``: a signed-in
    user's :class:`AuthState` or a machine's own :class:`ClientCredentials`. Sets ``Authorization`` (and
    ``DPoP``, with a proof for the request's method and URL, RFC 9449 §7) from the holder's
    ``request_headers``, which renews a token about to expire. A 401 that refuses the token
    (``error="invalid_token"``, or no error: revoked, expired early) is sent once more with a new token (an
    auth state's refreshed, a machine's asked for again), and one with ``error="use_dpop_nonce"`` once more
    with the resource's ``DPoP-Nonce``, as the holder's ``resource_answered`` says; never more than one retry,
    whose answer is returned whatever it is (the 401 is in its ``history``). A refresh the provider refuses
    raises :class:`AuthorizationLostError` (the state is signed out); a machine's token request it refuses
    raises that request's error. A body that cannot be sent twice (a file, a generator) is not retried. Safe
    to share between threads and sessions."""

    def __init__(self, state: Union[AuthState, ClientCredentials]) -> None:
        """Authenticates with the tokens of ``state``, an :class:`AuthState` or a :class:`ClientCredentials`,
        which it keeps referenced."""
        if not isinstance(state, (AuthState, ClientCredentials)):
            raise TypeError("state must be a telenorid.AuthState or a telenorid.ClientCredentials")
        self._state = state

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        """Sets the headers on ``request`` and registers the hook that answers its 401 (requests calls this)."""
        _sign(request, self._state.request_headers(request.method or "GET", request.url or ""))
        request.register_hook("response", self._retry)
        return request

    def _retry(self, response: requests.Response, **send: Any) -> requests.Response:
        sent, authorization = response.request, _header(response.request, "Authorization")
        # requests joins repeated WWW-Authenticate headers with ", ", as the library takes them.
        if authorization is None or not self._state.resource_answered(
                sent.url or "", response.status_code, response.headers.get("WWW-Authenticate"),
                response.headers.get("DPoP-Nonce"), authorization) or not isinstance(sent.body, _REPLAYABLE):
            return response
        # The pattern of requests' own HTTPDigestAuth: free the connection, copy the request with the
        # cookies the 401 set, sign it anew, send it through the same adapter (which runs no hooks, so
        # there is no second retry) and keep the 401 in the history.
        response.content  # read to the end, so that the connection goes back to the pool
        response.close()
        again = sent.copy()
        if again._cookies is not None:
            extract_cookies_to_jar(again._cookies, sent, response.raw)
            again.prepare_cookies(again._cookies)
        _sign(again, self._state.request_headers(again.method or "GET", again.url or ""))
        answer: requests.Response = response.connection.send(again, **send)
        answer.history.append(response)
        answer.request = again
        return answer
