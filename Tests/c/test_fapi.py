"""Runs bindings/c/examples/fapi_login (private_key_jwt, signed and pushed request, DPoP ES256) against glewlwyd
2.7.5 (Tests/support/glewlwyd_provider.py), whose fapi-app client takes it; the browser's part is played by the
provider helper's login(). Twice: once plain, once with glewlwyd demanding DPoP nonces (RFC 9449 §8, §9). Runs
under valgrind when it is installed (definite leaks and memory errors fail), else plain. Builds into
out/tests/. Exits non-zero on any failure; skips (exit 0) when glewlwyd is not installed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

root = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(root / "Tests" / "support"))
from glewlwyd_provider import BINARY, start_glewlwyd  # noqa: E402

lib = root / "out" / "lib"
out = root / "out" / "tests"
cc = os.environ.get("CC", "gcc")
flags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g", f"-I{root / 'include'}"]


def build() -> Path:
    out.mkdir(parents=True, exist_ok=True)
    program = out / "fapi_login"
    program.unlink(missing_ok=True)  # no stale binary may stand in for one that failed to build
    subprocess.run([cc, *flags, str(root / "bindings" / "c" / "examples" / "fapi_login.c"), f"-L{lib}",
                    "-ltelenorid", f"-Wl,-rpath,{lib}", "-o", str(program)], check=True)
    return program


class NoURL(AssertionError):
    """The example stopped before printing the authorization URL; the message is its stderr."""


def run(name: str, program: Path, provider) -> None:
    command = [str(program)]
    if shutil.which("valgrind"):
        command = ["valgrind", "--quiet", "--leak-check=full", "--errors-for-leak-kinds=definite",
                   "--show-leak-kinds=definite", "--error-exitcode=99",
                   f"--suppressions={root / 'Tests' / 'c' / 'valgrind.supp'}", *command]
    with tempfile.NamedTemporaryFile("w", suffix=".pem") as key:
        key.write(provider.fapi_private_key_pem)
        key.flush()
        args = [provider.issuer, provider.fapi_client_id, provider.redirect_uri, key.name]
        process = subprocess.Popen([*command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        try:
            first = process.stdout.readline()
            if not first.startswith("open: "):
                process.kill()
                _, errors = process.communicate()
                raise NoURL(f"{name}: expected the URL, got {first!r}\n{errors}")
            url = first[len("open: "):].strip()
            # Pushed (RFC 9126 §4): the front channel carries only the client and the provider's reference.
            assert url.startswith(provider.issuer + "/auth?"), url
            front = parse_qs(urlsplit(url).query)
            assert sorted(front) == ["client_id", "request_uri"], url
            assert front["client_id"] == [provider.fapi_client_id], url
            assert front["request_uri"][0].startswith("urn:ietf:params:oauth:request_uri:"), url
            redirect = provider.login(url)
            rest, errors = process.communicate(redirect + "\n", timeout=300)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
    assert process.returncode == 0, f"{name}: exit {process.returncode}\n{rest}\n{errors}"
    lines = dict(line.split(": ", 1) if ": " in line else (line, "") for line in rest.splitlines())
    assert lines.get("token_type") == "DPoP", rest
    thumbprint = lines.get("dpop_jkt", "")
    assert len(thumbprint) == 43 and "=" not in thumbprint, rest  # RFC 7638 SHA-256, base64url (RFC 9449 §6.1)
    userinfo = json.loads(lines["userinfo"])
    assert userinfo.get("sub"), userinfo
    assert "refreshed" in lines, rest
    assert lines.get("headers") == "Authorization DPoP ..., DPoP present", rest
    assert "revoked" in lines, rest
    print(f"ok: {name}: pushed signed request, DPoP token (jkt {thumbprint}), userinfo for {userinfo['sub']}, "
          "refresh, request headers, revoke")


def main() -> int:
    if not os.access(BINARY, os.X_OK):
        print("test_fapi: skipped (glewlwyd is not installed; scripts/setup.sh installs it)")
        return 0
    program = build()
    with start_glewlwyd() as provider:
        run("fapi_login", program, provider)
    # A provider that demands nonces in proofs (RFC 9449 §8): the code exchange, userinfo and refresh are
    # each answered use_dpop_nonce first and retried once. (The push carries dpop_jkt, not a proof.)
    with start_glewlwyd(dpop_nonce_required=True) as provider:
        run("fapi_login with DPoP nonces", program, provider)
    return 0


if __name__ == "__main__":
    sys.exit(main())
