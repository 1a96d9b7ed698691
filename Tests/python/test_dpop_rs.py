"""DPoP at a resource server through the ctypes binding (RFC 9449 §4.3, §7.1): ResourceServer.verify_dpop on
proofs the library itself makes (AuthState.request_headers of a state restored with a DPoP key the library
holds), the WWW-Authenticate error and rule each refusal carries, nonces, and a DPoPReplayCache shared by
two resource servers. No network."""
import json

import pytest

import telenorid

ISSUER = "https://id.example.com"
# A P-256 key made for these tests with `openssl ecparam -name prime256v1 -genkey`, saved as the library saves
# a DPoP key it holds, and its RFC 7638 thumbprint (the cnf.jkt of tokens bound to it).
DPOP_KEY = {"v": 1, "alg": "ES256", "jwk": {
    "kty": "EC", "crv": "P-256", "x": "D6zG_4O2xShEbB8qmerqiGOilHaogD3-q7aBTL_aNiI",
    "y": "gfMCri2rWh0H9hghyUmSCXL-BKjqktwVU9XsCDpfgQo", "d": "8nDSQVJcTGgARFxDGvt-k1JvYl9ZToNw3t0p-MjWA8E"}}
JKT = "VThPefez7erv3aUAfyD0vQgr2Zma-YQ4a4YRmWOnuk0"
TOKEN = "Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU"
API = "https://api.example.com/items"


@pytest.fixture()
def client():
    config = telenorid.Config.from_settings(issuer=ISSUER, client_id="tnn-example", redirect_uri="app://cb")
    with telenorid.Client(config) as client:
        yield client


@pytest.fixture()
def state(client):
    return client.restore(json.dumps({"version": 1, "issuer": ISSUER, "client_id": "tnn-example",
                                      "access_token": TOKEN, "token_type": "DPoP", "dpop_key": DPOP_KEY}))


def proof(state, method="GET", url=API, nonce=None):
    authorization, dpop = state.request_headers(method, url, nonce)
    assert authorization == "DPoP " + TOKEN
    return dpop


def refused(call, code, rule):
    with pytest.raises(telenorid.TokenInvalidError) as caught:
        call()
    assert caught.value.oauth_error == code
    assert rule in caught.value.oauth_error_description
    assert TOKEN not in str(caught.value)


def test_a_proof_the_library_made_verifies_once(client, state):
    server = telenorid.ResourceServer(client, "https://api.example.com/")
    dpop = proof(state)
    server.verify_dpop(dpop, "GET", API + "?q=1", TOKEN, jkt=JKT)
    refused(lambda: server.verify_dpop(dpop, "GET", API, TOKEN, jkt=JKT), "invalid_dpop_proof", "replayed")


def test_each_refusal_names_its_rule(client, state):
    server = telenorid.ResourceServer(client, "https://api.example.com/", dpop_signing_algs="ES256")
    dpop = proof(state)
    refused(lambda: server.verify_dpop(dpop, "PUT", API, TOKEN, jkt=JKT), "invalid_dpop_proof", "check 8")
    refused(lambda: server.verify_dpop(dpop, "GET", "https://api.example.com/", TOKEN, jkt=JKT),
            "invalid_dpop_proof", "check 9")
    refused(lambda: server.verify_dpop(dpop, "GET", API, "other", jkt=JKT), "invalid_dpop_proof", "ath")
    refused(lambda: server.verify_dpop(dpop, "GET", API, TOKEN, jkt="0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"),
            "invalid_dpop_proof", "cnf.jkt")
    refused(lambda: server.verify_dpop("a.b.c", "GET", API, TOKEN, jkt=JKT), "invalid_dpop_proof", "check 2")
    server.set("dpop_signing_algs", "EdDSA")
    refused(lambda: server.verify_dpop(dpop, "GET", API, TOKEN, jkt=JKT), "invalid_dpop_proof", "check 5")
    with pytest.raises(telenorid.InvalidArgumentError, match="neither jkt nor info"):
        server.verify_dpop(dpop, "GET", API, TOKEN)
    with pytest.raises(TypeError):
        server.verify_dpop(dpop, "GET", API, TOKEN, info=server)


def test_nonces_are_asked_for_and_taken(client, state):
    server = telenorid.ResourceServer(client, "https://api.example.com/", dpop_require_nonce=True)
    refused(lambda: server.verify_dpop(proof(state), "GET", API, TOKEN, jkt=JKT), "use_dpop_nonce", "nonce")
    nonce = server.dpop_nonce()
    assert len(nonce) == 43
    server.verify_dpop(proof(state, nonce=nonce), "GET", API, TOKEN, jkt=JKT)


def test_a_shared_cache_refuses_a_replay_at_every_server(client, state):
    cache = telenorid.DPoPReplayCache(window_s=30, capacity=16)
    first = telenorid.ResourceServer(client, "https://api.example.com/")
    second = telenorid.ResourceServer(client, "https://api.example.com/")
    first.set_dpop_replay_cache(cache)
    second.set_dpop_replay_cache(cache)
    cache.close()  # the servers keep it
    assert first.dpop_nonce() == second.dpop_nonce()
    dpop = proof(state)
    first.verify_dpop(dpop, "GET", API, TOKEN, jkt=JKT)
    refused(lambda: second.verify_dpop(dpop, "GET", API, TOKEN, jkt=JKT), "invalid_dpop_proof", "replayed")
    with pytest.raises(telenorid.InvalidArgumentError):
        telenorid.DPoPReplayCache(window_s=0)
    with pytest.raises(telenorid.InvalidArgumentError):
        telenorid.DPoPReplayCache(capacity=2**40)
