"""The exception classes: one per status code, each in exactly one family (or, RandomError, in none), and a
family caught as a group — with errors raised by the real library where that is cheap.

Run with Tests/python/run.sh (PYTHONPATH=bindings/python); also works with plain pytest from anywhere.
"""
import pytest

import telenorid  # noqa: E402
from telenorid import _constants, errors  # noqa: E402

ISSUER = "https://id.example.com"
ENDPOINT = "https://api.vipps.no/oauth2/auth"
REDIRECT = "telenorid-example://authcallback/"

FAMILIES = (telenorid.UsageError, telenorid.TransportError, telenorid.ProviderError, telenorid.ValidationError)

# The family of every class, by the header's status name (_constants.STATUS); None: directly under TelenoridError.
EXPECTED_FAMILY = {
    "INVALID_ARGUMENT": telenorid.UsageError, "PARAMETER_CONFLICT": telenorid.UsageError,
    "CONSUMED": telenorid.UsageError, "VERSION": telenorid.UsageError, "NOT_SIGNED_IN": telenorid.UsageError,
    "CONFIGURATION": telenorid.UsageError, "INSECURE": telenorid.UsageError, "UNSUPPORTED": telenorid.UsageError,
    "TIMEOUT": telenorid.TransportError, "NETWORK": telenorid.TransportError, "TLS": telenorid.TransportError,
    "RESPONSE_TOO_LARGE": telenorid.TransportError, "HTTP_STATUS": telenorid.TransportError,
    "TEMPORARILY_UNAVAILABLE": telenorid.TransportError, "LINE_AUTH_UNAVAILABLE": telenorid.TransportError,
    "AUTHORIZATION_ERROR": telenorid.ProviderError, "CLIENT_REJECTED": telenorid.ProviderError,
    "AUTHORIZATION_LOST": telenorid.ProviderError, "INVALID_RESPONSE": telenorid.ProviderError,
    "PUSH_REFUSED": telenorid.ProviderError, "PROVIDER_UNSUPPORTED": telenorid.ProviderError,
    "EXPIRED": telenorid.ProviderError,
    "STATE_MISMATCH": telenorid.ValidationError, "REDIRECT_MISMATCH": telenorid.ValidationError,
    "ISSUER_MISMATCH": telenorid.ValidationError, "TOKEN_INVALID": telenorid.ValidationError,
    "MALFORMED": telenorid.ValidationError,
    "ROTATION_POSSIBLY_LOST": telenorid.ProviderError,
    "RANDOM": None, "CANCELLED": None, "STORE_FAILED": None,
}


def error_statuses():
    """The header's failure codes (every status but OK)."""
    return {name: status for name, status in _constants.STATUS.items() if status != 0}


def test_every_status_maps_to_exactly_one_class():
    statuses = error_statuses()
    assert sorted(errors._BY_STATUS) == sorted(statuses.values())
    classes = list(errors._BY_STATUS.values())
    assert len(set(classes)) == len(classes), "two statuses share a class"
    for name, status in statuses.items():
        cls = errors._BY_STATUS[status]
        assert cls.code == status, (name, cls)
        # The class is public, under its own name, and the one _error_for raises for that status.
        assert getattr(telenorid, cls.__name__) is cls and cls.__name__ in telenorid.__all__
        assert type(errors._error_for(status)) is cls
    # Exactly one class claims each code, counting every subclass of TelenoridError the package defines.
    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)
    coded = [cls for cls in set(subclasses(telenorid.TelenoridError)) if cls.__module__ == errors.__name__
             and cls.code != -1]
    assert sorted(cls.code for cls in coded) == sorted(statuses.values())


def test_each_class_is_in_its_family():
    assert sorted(EXPECTED_FAMILY) == sorted(error_statuses())
    for family in FAMILIES:
        assert family.__bases__ == (telenorid.TelenoridError,) and family.__name__ in telenorid.__all__
    for name, family in EXPECTED_FAMILY.items():
        cls = errors._BY_STATUS[_constants.STATUS[name]]
        assert issubclass(cls, telenorid.TelenoridError)
        members = [f for f in FAMILIES if issubclass(cls, f)]
        assert members == ([] if family is None else [family]), (cls, members)


def test_existing_bases_are_kept():
    assert issubclass(telenorid.InvalidArgumentError, ValueError)
    assert issubclass(telenorid.MalformedError, ValueError)
    assert issubclass(telenorid.ClientRejectedError, telenorid.AuthorizationError)
    assert issubclass(telenorid.TemporarilyUnavailableError, telenorid.HTTPStatusError)
    assert telenorid.RandomError.__bases__ == (telenorid.TelenoridError,)


def test_a_rotation_journal_sign_out_is_an_authorization_lost():
    """ROTATION_POSSIBLY_LOST signs out as AUTHORIZATION_LOST does ("sign in again"): one handler catches both
    (the CLI's exit 3), and it stays in their family. Java's RotationPossiblyLostException likewise."""
    assert issubclass(telenorid.RotationPossiblyLostError, telenorid.AuthorizationLostError)
    with pytest.raises(telenorid.AuthorizationLostError) as caught:
        errors._raise(telenorid.RotationPossiblyLostError.code)
    assert type(caught.value) is telenorid.RotationPossiblyLostError
    assert caught.value.status == _constants.STATUS["ROTATION_POSSIBLY_LOST"] and not caught.value.transient
    assert isinstance(caught.value, telenorid.ProviderError)


def test_fields_survive_the_families():
    error = telenorid.TemporarilyUnavailableError("busy", http_status=503, retry_after=7,
                                             oauth_error="temporarily_unavailable")
    assert isinstance(error, telenorid.TransportError)
    assert (error.status, error.http_status, error.retry_after, error.oauth_error) == (
        telenorid.TemporarilyUnavailableError.code, 503, 7, "temporarily_unavailable")
    assert error.transient
    assert not telenorid.InvalidArgumentError("bad").transient


@pytest.fixture
def pending():
    with telenorid.Config.from_settings(issuer=ISSUER, client_id="tnn-example", redirect_uri=REDIRECT,
                                        authorization_endpoint=ENDPOINT) as config:
        with telenorid.AuthorizationRequest(config).build() as pending:
            yield pending


def test_usage_errors_caught_as_a_family(pending):
    with pytest.raises(telenorid.UsageError) as caught:
        telenorid.Pkce.from_verifier("too short")  # checked in C
    assert type(caught.value) is telenorid.InvalidArgumentError and caught.value.status == 1
    with pytest.raises(telenorid.UsageError) as caught:
        telenorid.Config.from_settings(issuer=ISSUER, client_id="a", redirect_uri=REDIRECT,
                                       aloha_url="http://aloha.example")
    assert type(caught.value) is telenorid.InsecureError
    pending.handle_callback(f"{REDIRECT}?code=c&state={pending.state}")
    with pytest.raises(telenorid.UsageError) as caught:
        pending.handle_callback(f"{REDIRECT}?code=again&state={pending.state}")
    assert type(caught.value) is telenorid.ConsumedError
    closed = telenorid.Pkce()
    closed.close()
    with pytest.raises(telenorid.UsageError):  # refused by the binding, before C
        closed.verifier


def test_transport_errors_caught_as_a_family():
    with telenorid.LoopbackListener() as taken:
        port = int(taken.redirect_uri.split(":")[2].split("/")[0])
        with pytest.raises(telenorid.TransportError) as caught:
            telenorid.LoopbackListener(port=port)  # the port is in use: the library's bind fails
    assert type(caught.value) is telenorid.NetworkError
    with pytest.raises(telenorid.TransportError) as caught:
        telenorid.LineAuthenticator(telenorid.Config.from_settings(issuer=ISSUER, client_id="a",
                                                                   redirect_uri=REDIRECT))  # no aloha_url
    assert type(caught.value) is telenorid.LineAuthUnavailableError


def test_provider_errors_caught_as_a_family(pending):
    with pytest.raises(telenorid.ProviderError) as caught:
        pending.handle_callback(f"{REDIRECT}?error=access_denied&state={pending.state}")
    assert type(caught.value) is telenorid.AuthorizationError and caught.value.oauth_error == "access_denied"
    with pytest.raises(telenorid.ProviderError):
        raise telenorid.ClientRejectedError("rejected")


def test_validation_errors_caught_as_a_family(pending):
    for url, cls in ((f"{REDIRECT}?code=c&state=forged", telenorid.StateMismatchError),
                     (f"telenorid-example://elsewhere/?code=c&state={pending.state}", telenorid.RedirectMismatchError),
                     (f"{REDIRECT}?code=c&state={pending.state}&iss=https%3A%2F%2Fevil.example",
                      telenorid.IssuerMismatchError),
                     (f"{REDIRECT}?code=a&code=b&state={pending.state}", telenorid.MalformedError)):
        with pytest.raises(telenorid.ValidationError) as caught:
            pending.handle_callback(url)
        assert type(caught.value) is cls
    with pytest.raises(telenorid.ValidationError):
        raise telenorid.TokenInvalidError("bad signature")


def test_callback_mismatches_caught_as_a_group(pending):
    # A callback that is not the pending request's answer, as Java's CallbackMismatchException groups them.
    group = telenorid.CallbackMismatchError
    assert group.__bases__ == (telenorid.ValidationError,) and "CallbackMismatchError" in telenorid.__all__
    for url, cls in ((f"{REDIRECT}?code=c&state=forged", telenorid.StateMismatchError),
                     (f"telenorid-example://elsewhere/?code=c&state={pending.state}", telenorid.RedirectMismatchError),
                     (f"{REDIRECT}?code=c&state={pending.state}&iss=https%3A%2F%2Fevil.example",
                      telenorid.IssuerMismatchError)):
        with pytest.raises(group) as caught:
            pending.handle_callback(url)
        assert type(caught.value) is cls
    assert not issubclass(telenorid.MalformedError, group) and not issubclass(telenorid.TokenInvalidError, group)


def test_every_exception_name_ends_in_error():
    names = [cls.__name__ for cls in errors._BY_STATUS.values()] + [f.__name__ for f in FAMILIES]
    assert [name for name in names if not name.endswith("Error")] == []


# The names of 0.4 and before: deprecated aliases of the classes that took their stem's name, until 1.0.
OLD_NAMES = {
    "InvalidArgument": "InvalidArgumentError",
    "Malformed": "MalformedError",
    "Insecure": "InsecureError",
    "Unsupported": "UnsupportedError",
    "ParameterConflict": "ParameterConflictError",
    "RandomFailure": "RandomError",
    "StateMismatch": "StateMismatchError",
    "RedirectMismatch": "RedirectMismatchError",
    "IssuerMismatch": "IssuerMismatchError",
    "Consumed": "ConsumedError",
    "Timeout": "NetworkTimeoutError",
    "ResponseTooLarge": "ResponseTooLargeError",
    "InvalidResponse": "InvalidResponseError",
    "TokenInvalid": "TokenInvalidError",
    "AuthorizationLost": "AuthorizationLostError",
    "NotSignedIn": "NotSignedInError",
    "LineAuthUnavailable": "LineAuthUnavailableError",
    "ClientRejected": "ClientRejectedError",
    "TemporarilyUnavailable": "TemporarilyUnavailableError",
    "PushRefused": "PushRefusedError",
    "ProviderUnsupported": "ProviderUnsupportedError",
    "Cancelled": "CancelledError",
}


def test_old_names_are_the_new_classes():
    for old, new in OLD_NAMES.items():
        assert getattr(telenorid, old) is getattr(telenorid, new) is getattr(errors, old), old
        assert old not in telenorid.__all__ and new in telenorid.__all__
    # A handler written for an old name still catches what the library raises.
    with pytest.raises(telenorid.Timeout) as caught:
        errors._raise(_constants.STATUS["TIMEOUT"])
    assert type(caught.value) is telenorid.NetworkTimeoutError


def test_a_family_does_not_catch_the_others(pending):
    with pytest.raises(telenorid.ValidationError):
        try:
            pending.handle_callback(f"{REDIRECT}?code=c&state=forged")
        except (telenorid.UsageError, telenorid.TransportError, telenorid.ProviderError):
            pytest.fail("a StateMismatchError was caught by another family")
    with pytest.raises(telenorid.RandomError):
        try:
            raise telenorid.RandomError("no entropy")
        except FAMILIES:
            pytest.fail("RandomError is in no family")


def test_str_leads_with_what_the_provider_said(pending):
    """What users log is str(error): it carries the provider's error and error_description, which say what
    to fix, then the library's message."""
    with pytest.raises(telenorid.AuthorizationError) as caught:
        pending.handle_callback(f"{REDIRECT}?error=access_denied&error_description=User+said+no&state={pending.state}")
    error = caught.value
    assert error.oauth_error_description == "User said no"
    assert str(error) == f"access_denied: User said no — {error.message}"
    assert str(telenorid.AuthorizationError("refused", oauth_error="invalid_scope")) == "invalid_scope — refused"
    assert str(telenorid.NetworkTimeoutError("no answer")) == "no answer"


def test_str_does_not_pass_on_the_providers_control_characters():
    error = telenorid.AuthorizationError("refused", oauth_error="invalid_request",
                                         oauth_error_description="bad\nFAKE LOG LINE\x1b[31m")
    assert "\n" not in str(error) and "\x1b" not in str(error)
    assert str(error).startswith("invalid_request: bad\N{REPLACEMENT CHARACTER}FAKE LOG LINE")
