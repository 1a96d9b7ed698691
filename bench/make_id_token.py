"""Writes the ID token fixture every ID token and memory benchmark shares into a folder: two RSA 2048 keys
published as a key set (jwks.json, served by bench/token_server.sh at /jwks), an RS256 ID token for
bench-client from <issuer> signed with the second key (token; its kid names that key, so every validator
has to pick the key by kid, OIDC Core §10.1.1), that key's public half as PEM (public.pem) for the OpenSSL
reference, and the token's claims (claims.json). Prints the token's nonce.

Usage: python3 bench/make_id_token.py <folder> <issuer>"""
import base64
import json
import sys
import time
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def public_jwk(key: rsa.RSAPrivateKey, kid: str) -> dict:
    numbers = key.public_key().public_numbers()
    return {"kty": "RSA", "kid": kid, "alg": "RS256", "use": "sig",
            "n": b64(numbers.n.to_bytes(256, "big")), "e": b64(numbers.e.to_bytes(3, "big"))}


folder, issuer = Path(sys.argv[1]), sys.argv[2]
keys = [rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(2)]
signer = keys[1]
now = int(time.time())
nonce = "n-0S6_WzA2Mj"
# A day-long validity, so a slow run never sees it expire; the claims a sign-in with a claims request returns.
claims = {"iss": issuer, "sub": "248289761001", "aud": "bench-client", "exp": now + 24 * 3600, "iat": now,
          "nonce": nonce, "auth_time": now, "acr": "urn:telenor:loa:substantial", "amr": ["pwd", "otp"],
          "given_name": "Jane", "family_name": "Doe", "name": "Jane Doe", "email": "janedoe@example.com",
          "email_verified": True, "locale": "nb-NO"}
header = {"alg": "RS256", "kid": "bench-2", "typ": "JWT"}
signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
signature = signer.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
(folder / "token").write_text(signing_input + "." + b64(signature))
(folder / "claims.json").write_text(json.dumps(claims))
(folder / "jwks.json").write_text(json.dumps({"keys": [public_jwk(keys[0], "bench-1"), public_jwk(signer, "bench-2")]}))
(folder / "public.pem").write_bytes(signer.public_key().public_bytes(serialization.Encoding.PEM,
                                                                     serialization.PublicFormat.SubjectPublicKeyInfo))
print(nonce)
