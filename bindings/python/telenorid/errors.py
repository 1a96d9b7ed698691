"""Status codes as exceptions: one base class, one subclass per status, the OAuth fields as attributes."""
from __future__ import annotations

from typing import Optional

from . import _ffi


class TelenoridError(Exception):
    """A failed libtelenorid call: `status` is the C status code, the rest is the provider's say."""

    status = -1

    def __init__(self, message: str, status: int, oauth_error: Optional[str] = None,
                 oauth_error_description: Optional[str] = None, oauth_error_uri: Optional[str] = None,
                 http_status: Optional[int] = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.oauth_error = oauth_error
        self.oauth_error_description = oauth_error_description
        self.oauth_error_uri = oauth_error_uri
        self.http_status = http_status


class InvalidArgument(TelenoridError, ValueError): pass
class Malformed(TelenoridError, ValueError): pass
class ConfigurationError(TelenoridError): pass
class Insecure(TelenoridError): pass
class Unsupported(TelenoridError): pass
class ParameterConflict(TelenoridError): pass
class RandomFailure(TelenoridError): pass
class StateMismatch(TelenoridError): pass
class RedirectMismatch(TelenoridError): pass
class IssuerMismatch(TelenoridError): pass
class AuthorizationError(TelenoridError): pass
class Consumed(TelenoridError): pass
class VersionError(TelenoridError): pass
class Timeout(TelenoridError): pass
class NetworkError(TelenoridError): pass
class TLSError(TelenoridError): pass
class HTTPStatusError(TelenoridError): pass
class ResponseTooLarge(TelenoridError): pass
class InvalidResponse(TelenoridError): pass
class TokenInvalid(TelenoridError): pass
class AuthorizationLost(TelenoridError): pass
class NotSignedIn(TelenoridError): pass

_BY_STATUS = {
    1: InvalidArgument, 2: Malformed, 3: ConfigurationError, 4: Insecure, 5: Unsupported, 6: ParameterConflict,
    7: RandomFailure, 8: StateMismatch, 9: RedirectMismatch, 10: IssuerMismatch, 11: AuthorizationError,
    12: Consumed, 13: VersionError, 14: Timeout, 15: NetworkError, 16: TLSError, 17: HTTPStatusError,
    18: ResponseTooLarge, 19: InvalidResponse, 20: TokenInvalid, 21: AuthorizationLost, 22: NotSignedIn,
}


def _text(value: Optional[bytes]) -> Optional[str]:
    return value.decode("utf-8", "replace") if value is not None else None


def check(status: int) -> None:
    """Raises the exception for a non-zero status, with the detail of this thread's last error."""
    if status == 0:
        return
    error = _ffi.lib.telenorid_error_last()
    try:
        if error:
            message = _text(_ffi.lib.telenorid_error_message(error)) or ""
            http = _ffi.lib.telenorid_error_http_status(error)
            details = dict(oauth_error=_text(_ffi.lib.telenorid_error_oauth_error(error)),
                           oauth_error_description=_text(_ffi.lib.telenorid_error_oauth_description(error)),
                           oauth_error_uri=_text(_ffi.lib.telenorid_error_oauth_uri(error)),
                           http_status=http or None)
        else:
            message, details = _text(_ffi.lib.telenorid_status_str(status)) or "error", {}
    finally:
        _ffi.lib.telenorid_error_free(error)
    raise _BY_STATUS.get(status, TelenoridError)(message, status, **details)
