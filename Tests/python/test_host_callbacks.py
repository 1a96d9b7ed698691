"""The host's callbacks through the Python binding: what a signer or socket hook raises fails the call it ran
in with the documented status, raised from the exception (never a proof signed with whatever C found in the
buffer); calls back into the library from inside a signer are refused instead of deadlocking; a removed
signer's auth states fail with a clear error."""
import json

import pytest

import telenorid

from aloha_server import start_aloha  # noqa: E402

ISSUER = "https://id.example.com"
JWK = ('{"crv":"P-256","kty":"EC","x":"Dmble-ZfhDWuX_3FyTN2v16yNRgArth7ooJcUet3K4s",'
       '"y":"xCJMXPl-MZxAK5afhOk4AxqYkQDiTZWvc6-rOhJZCHo"}')
JKT = "8vC4Uwf1ahPJSoD6Yl0sYzAuiWl_7mfSK2oYPqD7zhE"  # RFC 7638 thumbprint of JWK
STATE = json.dumps({"version": 1, "issuer": ISSUER, "client_id": "app", "access_token": "at",
                    "token_type": "DPoP", "dpop_jkt": JKT})
API = "https://api.example.com/items"


@pytest.fixture
def client():
    with telenorid.Config.from_settings(issuer=ISSUER, client_id="app", redirect_uri="app://cb") as config:
        with telenorid.Client(config) as made:
            yield made


def bound_state(client, sign):
    client.set_dpop_signer("ES256", JWK, sign)
    return client.restore(STATE)


def test_a_signer_that_raises_fails_the_request_from_its_exception(client):
    def sign(data):
        raise RuntimeError("keystore locked")

    state = bound_state(client, sign)
    with pytest.raises(telenorid.InvalidArgument) as caught:
        state.request_headers("GET", API)
    assert isinstance(caught.value.__cause__, RuntimeError)
    assert "keystore locked" in caught.value.message and "signer failed" in caught.value.message
    # The exception went with that call: the next failure is the library's alone.
    client.set_dpop_signer("ES256", JWK, lambda data: b"\x01" * 64)
    state = client.restore(STATE)
    assert state.request_headers("GET", API)[0] == "DPoP at"


def test_a_signer_that_returns_no_bytes_fails_the_request(client):
    state = bound_state(client, lambda data: 1024)  # bytes(1024) would have been a signature of zeros
    with pytest.raises(telenorid.InvalidArgument) as caught:
        state.request_headers("GET", API)
    assert isinstance(caught.value.__cause__, TypeError) and "returned int" in caught.value.message


def test_a_signature_longer_than_the_buffer_fails_the_request(client):
    state = bound_state(client, lambda data: b"\x01" * 4096)
    with pytest.raises(telenorid.InvalidArgument) as caught:
        state.request_headers("GET", API)
    assert isinstance(caught.value.__cause__, ValueError)


def test_keyboard_interrupt_in_a_signer_reaches_the_caller_as_itself(client):
    def sign(data):
        raise KeyboardInterrupt

    state = bound_state(client, sign)
    with pytest.raises(KeyboardInterrupt):
        state.request_headers("GET", API)


def test_calls_from_inside_a_signer_are_refused_not_deadlocked(client):
    seen = []
    state = None

    def sign(data):
        for call in (lambda: state.fresh_access_token(), lambda: state.revoke(),
                     lambda: state.request_headers("GET", API)):
            try:
                call()
                seen.append("answered")
            except telenorid.InvalidArgument as error:
                seen.append(error.message)
        return b"\x01" * 64

    state = bound_state(client, sign)
    assert state.request_headers("GET", API)[0] == "DPoP at"
    assert len(seen) == 3 and all("called from inside a host callback" in m for m in seen), seen
    assert state.fresh_access_token() == "at"  # outside the callback it answers


def test_a_removed_signer_leaves_its_states_with_a_clear_error(client):
    calls = []
    state = bound_state(client, lambda data: calls.append(data) or b"\x01" * 64)
    state.request_headers("GET", API)
    client.set_dpop_signer("ES256", JWK, None)
    with pytest.raises(telenorid.ConfigurationError) as caught:
        state.request_headers("GET", API)
    assert "the DPoP signer was removed" in caught.value.message
    assert len(calls) == 1


def test_a_socket_hook_that_raises_fails_the_exchange_from_its_exception():
    with start_aloha() as aloha:
        with telenorid.Config.from_settings(issuer="https://id.example", client_id="app", redirect_uri="app://cb",
                                            authorization_endpoint="https://id.example/authorize",
                                            aloha_url=f"{aloha['base']}/raising", ca_file=aloha["ca_file"]) as config:
            line_auth = telenorid.LineAuthenticator(config)

            def hook(fd):
                raise OSError("no cellular network interface")

            line_auth.set_socket_hook(hook)
            with pytest.raises(telenorid.NetworkError) as caught:
                line_auth.run()
            assert isinstance(caught.value.__cause__, OSError)
            assert "no cellular network interface" in caught.value.message
            line_auth.close()
