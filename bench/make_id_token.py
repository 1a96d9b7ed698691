"""Writes what bench_id_token.c needs into a folder: an RS256 ID token for bench-client from <issuer>
(token), the key set that verifies it (jwks.json, served by bench/token_server.sh at /jwks), the public key
as PEM (public.pem) for the OpenSSL reference, and prints the token's nonce.

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


folder, issuer = Path(sys.argv[1]), sys.argv[2]
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
numbers = key.public_key().public_numbers()
jwk = {"kty": "RSA", "kid": "bench-1", "alg": "RS256", "use": "sig",
       "n": b64(numbers.n.to_bytes(256, "big")), "e": b64(numbers.e.to_bytes(3, "big"))}
now = int(time.time())
nonce = "n-0S6_WzA2Mj"
claims = {"iss": issuer, "sub": "248289761001", "aud": "bench-client", "exp": now + 24 * 3600, "iat": now,
          "nonce": nonce, "auth_time": now, "name": "Jane Doe", "email": "janedoe@example.com"}
# json.dumps' default ", " and ": " separators, which the reference's strstr looks for.
signing_input = b64(json.dumps({"alg": "RS256", "kid": "bench-1", "typ": "JWT"}).encode()) + "." + b64(json.dumps(claims).encode())
signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
(folder / "token").write_text(signing_input + "." + b64(signature))
(folder / "jwks.json").write_text(json.dumps({"keys": [jwk]}))
(folder / "public.pem").write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                                  serialization.PublicFormat.SubjectPublicKeyInfo))
print(nonce)
