"""Runs bindings/c/examples/login (linked) and login_dlopen against the real provider (django-oauth-toolkit
on 127.0.0.1), with the user's part played by Tests/support/provider/browser.py: the example prints the
authorization URL, the browser driver signs in and consents, and the redirect it ends on goes to the
example's stdin. Each example runs under valgrind when it is installed (definite leaks and memory errors
fail), else plain. Builds into out/tests/. Exits non-zero on any failure."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(root / "Tests" / "support" / "provider"))
from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"
lib = root / "out" / "lib"
out = root / "out" / "tests"
cc = os.environ.get("CC", "gcc")
flags = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-g", f"-I{root / 'include'}"]


def build() -> dict[str, list[str]]:
    out.mkdir(parents=True, exist_ok=True)
    examples = root / "bindings" / "c" / "examples"
    subprocess.run([cc, *flags, str(examples / "login.c"), f"-L{lib}", "-ltelenorid", f"-Wl,-rpath,{lib}",
                    "-o", str(out / "login")], check=True)
    subprocess.run([cc, *flags, str(examples / "login_dlopen.c"), "-ldl", "-o", str(out / "login_dlopen")], check=True)
    return {"login": [str(out / "login")], "login_dlopen": [str(out / "login_dlopen")]}


def run(name: str, command: list[str], provider: dict) -> None:
    if shutil.which("valgrind"):
        command = ["valgrind", "--quiet", "--leak-check=full", "--errors-for-leak-kinds=definite",
                   "--show-leak-kinds=definite", "--error-exitcode=99",
                   f"--suppressions={root / 'Tests' / 'c' / 'valgrind.supp'}", *command]
    env = dict(os.environ, TELENORID_LIBRARY=str(lib / "libtelenorid.so.0"))
    args = [provider["issuer"], provider["clients"]["public"]["client_id"], REDIRECT,
            provider["issuer"] + "/revoke_token/"]
    process = subprocess.Popen([*command, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    first = process.stdout.readline()
    assert first.startswith("open: "), f"{name}: expected the URL, got {first!r}"
    url = first[len("open: "):].strip()
    assert url.startswith(provider["issuer"] + "/authorize/?"), url
    user = provider["user"]
    # The CLI of browser.py is what a shell-driven test would use; here the function is at hand.
    redirect = complete_login(url, user["username"], user["password"])
    rest, _ = process.communicate(redirect + "\n", timeout=300)
    assert process.returncode == 0, f"{name}: exit {process.returncode}\n{rest}"
    lines = dict(line.split(": ", 1) if ": " in line else (line, "") for line in rest.splitlines())
    claims, userinfo = json.loads(lines["claims"]), json.loads(lines["userinfo"])
    assert claims["iss"] == provider["issuer"] and claims["aud"] == "native-app" and claims["sub"], claims
    assert userinfo["sub"] == claims["sub"] and userinfo["given_name"] == "Alice", userinfo
    assert "refreshed" in lines and "revoked" in lines, rest
    print(f"ok: {name}: signed in as {claims['sub']}, userinfo, refresh, revoke")


def main() -> int:
    programs = build()
    with start_provider() as provider:
        for name, command in programs.items():
            run(name, command, provider)
    return 0


if __name__ == "__main__":
    sys.exit(main())
