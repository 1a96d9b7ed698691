"""The exceptions libtelenorid's status codes raise: one class per TELENORID_E_* code, all under
:class:`TelenoridError`, with the C status and the provider's OAuth fields as attributes.

Every class but :class:`RandomError`, :class:`CancelledError` and :class:`StoreFailedError` belongs to one of four families, so a caller can
catch a group:

- :class:`UsageError` — the call was wrong and retrying won't help: :class:`InvalidArgumentError`,
  :class:`ParameterConflictError`, :class:`ConsumedError`, :class:`VersionError`, :class:`NotSignedInError`,
  :class:`ConfigurationError`, :class:`InsecureError`, :class:`UnsupportedError`.
- :class:`TransportError` — the provider could not be reached or its HTTP answer was unusable:
  :class:`NetworkTimeoutError`, :class:`NetworkError`, :class:`TLSError`, :class:`ResponseTooLargeError`,
  :class:`HTTPStatusError` (and so :class:`TemporarilyUnavailableError`), :class:`LineAuthUnavailableError`.
- :class:`ProviderError` — the provider answered, and said no or said nonsense:
  :class:`AuthorizationError` (and so :class:`ClientRejectedError` and :class:`PushRefusedError`),
  :class:`AuthorizationLostError` (and so :class:`RotationPossiblyLostError`), :class:`InvalidResponseError`,
  :class:`ProviderUnsupportedError`, :class:`ExpiredError`.
- :class:`ValidationError` — a response failed the library's checks: :class:`CallbackMismatchError` (a
  callback that is not the pending request's answer: :class:`StateMismatchError`, :class:`RedirectMismatchError`,
  :class:`IssuerMismatchError`), :class:`TokenInvalidError`, :class:`MalformedError`.

:class:`RandomError` (the system's random generator failed) and :class:`CancelledError` (the caller's own
cancel, no failure of the call, the provider or the caller) and :class:`StoreFailedError` (the host's own
store) are directly under :class:`TelenoridError`.
The extra bases stay: :class:`InvalidArgumentError` and :class:`MalformedError` are also ``ValueError``s.
Whether a failure may pass on its own is :attr:`TelenoridError.transient` (the library's rule), not the family.

Each status has one stem in Python and Java (``NetworkTimeoutError`` here, ``NetworkTimeoutException`` there).
The names of 0.4 and before (``InvalidArgument``, ``Timeout``, ``RandomFailure``...; the list is at the end of
this module) still name the same classes; they are deprecated and go at 1.0.
"""
from __future__ import annotations

import threading
from typing import Any, Dict, NoReturn, Optional, Type

from . import _ffi

_c = _ffi.functions


class TelenoridError(Exception):
    """A failed libtelenorid call.

    ``status`` is the C status code; ``message`` the library's readable message; ``oauth_error``,
    ``oauth_error_description`` and ``oauth_error_uri`` the provider's OAuth error fields when it sent
    them (else None); ``http_status`` the HTTP status of the response the error came from (None when
    there was none); ``retry_after`` the seconds a 429 or 503 answer asked to wait (None when it did not
    say).
    """

    code: int = -1  # the TELENORID_E_* value of the subclass

    def __init__(self, message: str, status: Optional[int] = None, oauth_error: Optional[str] = None,
                 oauth_error_description: Optional[str] = None, oauth_error_uri: Optional[str] = None,
                 http_status: Optional[int] = None, retry_after: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status: int = type(self).code if status is None else status
        self.oauth_error = oauth_error
        self.oauth_error_description = oauth_error_description
        self.oauth_error_uri = oauth_error_uri
        self.http_status = http_status
        self.retry_after = retry_after

    @property
    def transient(self) -> bool:
        """True when the same call may succeed later with nothing changed (the library's one rule)."""
        return status_is_transient(self.status)

    def __str__(self) -> str:
        """The provider's ``error`` and ``error_description`` first, which say what to fix and are what gets
        logged, then the library's message: "access_denied: User said no — the provider refused ...".
        The provider's text is shown with control characters replaced, so it cannot forge log lines."""
        said = ": ".join(_printable(field) for field in (self.oauth_error, self.oauth_error_description) if field)
        return f"{said} — {self.message}" if said else self.message


# The four families: catch one to handle every status in it (``except telenorid.TransportError``).


class UsageError(TelenoridError):
    """The call itself was wrong: a bad argument, a closed or used-up object, a configuration that can't work,
    a state with no sign-in. Retrying the same call fails the same way; fix the caller."""


class TransportError(TelenoridError):
    """The provider could not be reached or did not answer usably at the HTTP level: timeout, connection,
    TLS, an oversized or unaccepted HTTP response (5xx and 429 among them), or no cellular network for line
    authentication. Often transient: see :attr:`TelenoridError.transient`."""


class ProviderError(TelenoridError):
    """The provider answered, and said no (an OAuth error, a refused refresh token) or said nonsense (a
    response that is not what the protocol says)."""


class ValidationError(TelenoridError):
    """A response (or a redirect, token or document) failed the library's checks: wrong state, redirect URI
    or issuer, an invalid ID token, input that does not parse. Treat it as an attack or a broken peer."""


class CallbackMismatchError(ValidationError):
    """A callback that is not the answer to the pending request: its state, redirect URI or issuer is not the
    request's (:class:`StateMismatchError`, :class:`RedirectMismatchError`, :class:`IssuerMismatchError`)."""


class InvalidArgumentError(UsageError, ValueError):
    """TELENORID_E_INVALID_ARGUMENT: NULL, invalid UTF-8, out of range, too long — or a closed object."""
    code = 1


class MalformedError(ValidationError, ValueError):
    """TELENORID_E_MALFORMED: input that does not parse (URL, JSON, parameter)."""
    code = 2


class ConfigurationError(UsageError):
    """TELENORID_E_CONFIGURATION: the configuration lacks or misstates something."""
    code = 3


class InsecureError(UsageError):
    """TELENORID_E_INSECURE: a URL that must be HTTPS (or loopback) is not."""
    code = 4


class UnsupportedError(UsageError):
    """TELENORID_E_UNSUPPORTED: refused by policy or not implemented (e.g. plain PKCE)."""
    code = 5


class ParameterConflictError(UsageError):
    """TELENORID_E_PARAMETER_CONFLICT: an extra parameter would override one the library owns."""
    code = 6


class RandomError(TelenoridError):
    """TELENORID_E_RANDOM: the system's random generator failed."""
    code = 7


class StateMismatchError(CallbackMismatchError):
    """TELENORID_E_STATE_MISMATCH: a callback's state is not the pending request's."""
    code = 8


class RedirectMismatchError(CallbackMismatchError):
    """TELENORID_E_REDIRECT_MISMATCH: a callback did not arrive at the configured URI."""
    code = 9


class IssuerMismatchError(CallbackMismatchError):
    """TELENORID_E_ISSUER_MISMATCH: an `iss` (RFC 9207) or discovered issuer is not the configured one."""
    code = 10


class AuthorizationError(ProviderError):
    """TELENORID_E_AUTHORIZATION_ERROR: the provider answered with an OAuth `error`."""
    code = 11


class ConsumedError(UsageError):
    """TELENORID_E_CONSUMED: a single-use object was used a second time."""
    code = 12


class VersionError(UsageError):
    """TELENORID_E_VERSION: serialized data of a version this library can't read."""
    code = 13


class NetworkTimeoutError(TransportError):
    """TELENORID_E_TIMEOUT: the server did not answer in time."""
    code = 14


class NetworkError(TransportError):
    """TELENORID_E_NETWORK: no connection — refused, reset, unreachable, unresolved."""
    code = 15


class TLSError(TransportError):
    """TELENORID_E_TLS: TLS handshake or certificate verification failed."""
    code = 16


class HTTPStatusError(TransportError):
    """TELENORID_E_HTTP_STATUS: an HTTP status the call does not accept."""
    code = 17


class ResponseTooLargeError(TransportError):
    """TELENORID_E_RESPONSE_TOO_LARGE: a response body or its headers over the cap."""
    code = 18


class InvalidResponseError(ProviderError):
    """TELENORID_E_INVALID_RESPONSE: a response that is not what the protocol says."""
    code = 19


class TokenInvalidError(ValidationError):
    """TELENORID_E_TOKEN_INVALID: an ID token or signed response failed validation."""
    code = 20


class AuthorizationLostError(ProviderError):
    """TELENORID_E_AUTHORIZATION_LOST: the provider refused the refresh token; signed out."""
    code = 21


class NotSignedInError(UsageError):
    """TELENORID_E_NOT_SIGNED_IN: the auth state holds no usable authorization."""
    code = 22


class LineAuthUnavailableError(TransportError):
    """TELENORID_E_LINE_AUTH_UNAVAILABLE: line authentication can't run: not on a cellular network (the
    socket hook said so; ask the user to turn Wi-Fi off) or no aloha_url configured."""
    code = 23


class ClientRejectedError(AuthorizationError):
    """TELENORID_E_CLIENT_REJECTED: the provider refused the client itself (``invalid_client``,
    ``unauthorized_client``): a mistyped or rotated secret, a revoked key. The user stays signed in."""
    code = 24


class TemporarilyUnavailableError(HTTPStatusError):
    """TELENORID_E_TEMPORARILY_UNAVAILABLE: HTTP 5xx or 429 (or a redirect where an OAuth answer was
    expected), whatever OAuth error it carried; try again later, after ``retry_after`` seconds when set."""
    code = 25


class PushRefusedError(AuthorizationError):
    """TELENORID_E_PUSH_REFUSED: the pushed authorization request endpoint refused the request with an OAuth
    error (RFC 9126 §2.3); the user's browser was never sent anywhere. An :class:`AuthorizationError`, so
    handlers written before this status existed still catch it."""
    code = 26


class ProviderUnsupportedError(ProviderError):
    """TELENORID_E_PROVIDER_UNSUPPORTED: the provider's metadata lacks what the configuration needs, such as
    a pushed authorization request endpoint where requests must be pushed."""
    code = 27


class CancelledError(TelenoridError):
    """TELENORID_E_CANCELLED: another thread cancelled the call (:meth:`Client.cancel`,
    :meth:`LoopbackListener.cancel`); nothing changed. In no family: nothing went wrong that a handler of
    usage, transport, provider or validation errors should act on."""
    code = 28


class ExpiredError(ProviderError):
    """TELENORID_E_EXPIRED: the device code (RFC 8628 §3.5) or backchannel request (CIBA Core §11) expired
    before the user approved: the provider said ``expired_token``, or the deadline the client keeps from
    ``expires_in`` passed. Start again."""
    code = 29


class StoreFailedError(TelenoridError):
    """TELENORID_E_STORE_FAILED: the host's store failed (a method raised or returned False for a lock), or
    loaded what is not an auth state; the message names the operation and the record key. Nothing changed.
    In no family: the failure is the host's own storage, not the call, the network, or the provider."""
    code = 30


class RotationPossiblyLostError(AuthorizationLostError):
    """TELENORID_E_ROTATION_POSSIBLY_LOST: a refresh was in flight when the process making it stopped, and
    the provider now refuses the stored refresh token: it probably rotated it for that refresh, whose answer
    was never stored. Signed out, as with :class:`AuthorizationLostError`: sign in again. An
    :class:`AuthorizationLostError`, so every handler of a lost sign-in (``except AuthorizationLostError``)
    catches it too."""
    code = 31


_BY_STATUS: Dict[int, Type[TelenoridError]] = {
    cls.code: cls for cls in (
        InvalidArgumentError, MalformedError, ConfigurationError, InsecureError, UnsupportedError,
        ParameterConflictError, RandomError, StateMismatchError, RedirectMismatchError, IssuerMismatchError,
        AuthorizationError, ConsumedError, VersionError, NetworkTimeoutError, NetworkError, TLSError,
        HTTPStatusError, ResponseTooLargeError, InvalidResponseError, TokenInvalidError, AuthorizationLostError,
        NotSignedInError, LineAuthUnavailableError, ClientRejectedError, TemporarilyUnavailableError,
        PushRefusedError, ProviderUnsupportedError, CancelledError, ExpiredError, StoreFailedError,
        RotationPossiblyLostError)
}

# The names of 0.4 and before, one per class above that has since taken its stem's name in both languages
# (Python ``...Error``, Java ``...Exception``). Deprecated: they name the same classes and go at 1.0.
InvalidArgument = InvalidArgumentError
Malformed = MalformedError
Insecure = InsecureError
Unsupported = UnsupportedError
ParameterConflict = ParameterConflictError
RandomFailure = RandomError
StateMismatch = StateMismatchError
RedirectMismatch = RedirectMismatchError
IssuerMismatch = IssuerMismatchError
Consumed = ConsumedError
Timeout = NetworkTimeoutError
ResponseTooLarge = ResponseTooLargeError
InvalidResponse = InvalidResponseError
TokenInvalid = TokenInvalidError
AuthorizationLost = AuthorizationLostError
NotSignedIn = NotSignedInError
LineAuthUnavailable = LineAuthUnavailableError
ClientRejected = ClientRejectedError
TemporarilyUnavailable = TemporarilyUnavailableError
PushRefused = PushRefusedError
ProviderUnsupported = ProviderUnsupportedError
Cancelled = CancelledError


def _printable(text: str) -> str:
    return "".join(character if character.isprintable() else "\N{REPLACEMENT CHARACTER}" for character in text)


def _text(value: Optional[bytes]) -> Optional[str]:
    return None if value is None else value.decode("utf-8", "replace")


def _error_for(status: int) -> TelenoridError:
    """The exception for a non-zero status, with this thread's last error (read right after the call)."""
    cls = _BY_STATUS.get(status, TelenoridError)
    error = _c.telenorid_error_last()
    if not error:  # no error recorded on this thread: the library broke its contract; say what we know
        return cls(_text(_c.telenorid_status_str(status)) or f"status {status}", status)
    try:
        if _c.telenorid_error_status(error) != status:  # a stale record: don't attach its detail
            return cls(_text(_c.telenorid_status_str(status)) or f"status {status}", status)
        return cls(_text(_c.telenorid_error_message(error)) or "",
                   status,
                   _text(_c.telenorid_error_oauth_error(error)),
                   _text(_c.telenorid_error_oauth_description(error)),
                   _text(_c.telenorid_error_oauth_uri(error)),
                   _c.telenorid_error_http_status(error) or None,
                   _retry_after(_c.telenorid_error_retry_after(error)))
    finally:
        _c.telenorid_error_free(error)


def _retry_after(seconds: int) -> Optional[int]:
    return None if seconds < 0 else seconds


# The exception a signer or socket hook raised on this thread (kept by _handle._shielded, since it cannot
# unwind through C), until the library call it ran inside fails, as the library then does.
_callback_errors = threading.local()


def _raise(status: int) -> NoReturn:
    error = _error_for(status)
    cause: Optional[BaseException] = getattr(_callback_errors, "error", None)
    if cause is None:
        raise error
    _callback_errors.error = None
    if not isinstance(cause, Exception):  # KeyboardInterrupt, SystemExit: the caller's own, as they were
        raise cause
    error.message = f"{error.message} (the callback raised {type(cause).__name__}: {cause})"
    error.args = (error.message,)
    raise error from cause


def status_str(status: int) -> str:
    """The library's readable name for a status code, e.g. "state mismatch"."""
    text: bytes = _c.telenorid_status_str(_int(status, "status"))
    return text.decode("utf-8", "replace")


def status_is_transient(status: int) -> bool:
    """True when a failure with this status may pass on its own (network, TLS, a server that could not
    answer now): the library's rule, asked rather than copied."""
    return bool(_c.telenorid_status_is_transient(_int(status, "status")))


def _int(value: Any, name: str) -> int:
    """An int argument (not a bool); anything else is TypeError. Here rather than in _convert with the other
    argument checks because status_str needs it and _convert imports this module."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    return value
