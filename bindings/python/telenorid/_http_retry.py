"""What :class:`RequestsAuth` and :class:`HttpxAuth` share, without importing either HTTP client: reading a
resource's 401 and deciding the one retry it is worth.

Two 401s are answered, each by one more request and never a loop: a refused token, ``error="invalid_token"``
(RFC 6750 §3.1, RFC 9449 §7.1) or a challenge without an error (as glewlwyd answers a revoked token; the
request did carry one, so the error RFC 6750 §3 leaves out is not "no token"), after which the state is told
and the retry's headers carry a refreshed token, as the library's own userinfo call does; and
``error="use_dpop_nonce"`` with a ``DPoP-Nonce`` header (RFC 9449 §9), after which the retry's proof carries
that nonce. Everything else (another error such as a step-up's ``insufficient_user_authentication``, a
second 401) goes back to the caller as it is.
"""
from __future__ import annotations

import re
from typing import Iterable, Optional, Tuple

from .auth_state import AuthState

# One auth-param of a WWW-Authenticate challenge (RFC 9110 §11.2): a token, "=", and a token or a
# quoted-string. Matching whole params keeps a quoted value's text ("... error=x ...") from being read as
# a param of its own.
_AUTH_PARAM = re.compile(r'([!#$%&\'*+.^_`|~0-9A-Za-z-]+)[ \t]*=[ \t]*("(?:[^"\\]|\\.)*"|[^\s,"]*)')


def _challenge_errors(www_authenticate: Iterable[str]) -> Tuple[str, ...]:
    """The ``error`` values of every challenge in the response's WWW-Authenticate headers."""
    errors = []
    for header in www_authenticate:
        for name, value in _AUTH_PARAM.findall(header):
            if name.lower() == "error":
                errors.append(re.sub(r"\\(.)", r"\1", value[1:-1]) if value.startswith('"') else value)
    return tuple(errors)


def plan_retry(state: AuthState, status: int, www_authenticate: Iterable[str], dpop_nonce: Optional[str],
                sent_authorization: Optional[str], sent_dpop: Optional[str]) -> Tuple[bool, Optional[str]]:
    """Whether the response to a request sent with ``sent_authorization`` (and ``sent_dpop``) is worth its one
    retry, and the ``resource_nonce`` for :meth:`AuthState.request_headers` of the retry. A refused token is
    reported to ``state`` here (no network), so the retry's headers come with a refreshed one."""
    if status != 401 or sent_authorization is None:
        return False, None
    errors = _challenge_errors(www_authenticate)
    if "use_dpop_nonce" in errors and dpop_nonce and sent_dpop is not None:
        return True, dpop_nonce
    if "invalid_token" in errors or not errors:
        # The token this request carried: one another request has already had refreshed changes nothing.
        state.access_token_rejected(sent_authorization.partition(" ")[2])
        return True, None
    return False, None
