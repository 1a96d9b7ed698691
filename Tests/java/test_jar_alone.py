"""The two jars a desktop program takes, on their own: bindings/jni/examples/Login.java is compiled in a new
directory outside the repository against the API jar alone (telenorid-<version>.jar of the Maven release in
out/jar, `make jar`) and run with only that jar and the natives jar telenorid-<version>-linux-x86_64.jar on its
class path — no java.library.path, no LD_LIBRARY_PATH, no installed library — and signs a user in at the real
provider (django-oauth-toolkit on 127.0.0.1), the user's part played by Tests/support/provider/browser.py.
The natives must be extracted into a private directory and leave nothing behind in java.io.tmpdir; a natives
jar whose bridge does not match its recorded SHA-256 is refused. Exits non-zero on any failure."""
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from maven_release import artifact, java_home, root

sys.path.insert(0, str(root / "Tests" / "support" / "provider"))
from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402

REDIRECT = "http://127.0.0.1:53682/callback"
API, NATIVES = "telenorid.jar", "telenorid-linux-x86_64.jar"


def tampered_copy(jar: Path, into: Path) -> Path:
    """The jar with one byte of the bridge changed: its recorded digest no longer matches."""
    copy = into / "tampered.jar"
    with zipfile.ZipFile(jar) as source, zipfile.ZipFile(copy, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename.endswith("/libtelenorid_jni.so"):
                data = data[:-1] + bytes([data[-1] ^ 1])
            target.writestr(item, data)
    return copy


def refuses_tampered_natives(work_dir: Path, env: dict[str, str]) -> None:
    tampered = tampered_copy(work_dir / NATIVES, work_dir)
    tmp = work_dir / "tmp-tampered"
    tmp.mkdir()
    result = subprocess.run([str(java_home / "bin" / "java"), f"-Djava.io.tmpdir={tmp}", "-cp", f"{API}:{tampered.name}:.",
                             "Login", "https://id.example.com", "app", REDIRECT],
                            cwd=work_dir, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0, result.stdout
    assert "UnsatisfiedLinkError" in result.stderr and "SHA-256" in result.stderr, result.stderr
    assert not list(tmp.iterdir()), f"a refused extraction left {list(tmp.iterdir())}"
    print("ok: a jar whose bridge does not match its recorded SHA-256 is refused, nothing left behind")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="telenorid-jar-alone-") as work:
        work_dir = Path(work)
        shutil.copy(artifact(), work_dir / API)
        shutil.copy(artifact("linux-x86_64"), work_dir / NATIVES)
        shutil.copy(root / "bindings" / "jni" / "examples" / "Login.java", work_dir / "Login.java")
        tmp = work_dir / "tmp"
        tmp.mkdir()
        # Nothing of the checkout or of the test run reaches the JVM: a bare environment, a cwd outside
        # the repository, a java.io.tmpdir of its own to see what extraction leaves behind.
        env = {"PATH": "/usr/bin:/bin", "HOME": str(work_dir), "LANG": "C.UTF-8"}
        subprocess.run([str(java_home / "bin" / "javac"), "-cp", API, "Login.java"],
                       cwd=work_dir, env=env, check=True)
        with start_provider() as provider:
            args = [provider["issuer"], provider["clients"]["public"]["client_id"], REDIRECT,
                    provider["issuer"] + "/revoke_token/"]
            process = subprocess.Popen(
                [str(java_home / "bin" / "java"), f"-Djava.io.tmpdir={tmp}", "-cp", f"{API}:{NATIVES}:.", "Login", *args],
                cwd=work_dir, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True)
            assert process.stdout is not None
            lines = []
            while True:
                line = process.stdout.readline()
                assert line, f"the program ended before printing the URL: {''.join(lines)}"
                lines.append(line)
                if line.startswith("open: "):
                    break
            url = line[len("open: "):].strip()
            assert url.startswith(provider["issuer"] + "/authorize/?"), url
            user = provider["user"]
            redirect = complete_login(url, user["username"], user["password"])
            rest, _ = process.communicate(redirect + "\n", timeout=120)
            output = "".join(lines) + rest
            assert process.returncode == 0, f"exit {process.returncode}\n{output}"
        fields = dict(line.split(": ", 1) if ": " in line else (line, "") for line in output.splitlines())
        claims, userinfo = json.loads(fields["claims"]), json.loads(fields["userinfo"])
        assert claims["iss"] == provider["issuer"] and claims["sub"], claims
        assert userinfo["sub"] == claims["sub"], userinfo
        assert "refreshed" in fields and "revoked" in fields, output
        left = list(tmp.iterdir())
        assert not left, f"extraction left {left} in java.io.tmpdir"
        refuses_tampered_natives(work_dir, env)
        print(f"ok: the API jar and the natives jar alone ({artifact().name}, {artifact('linux-x86_64').name}) "
              f"signed in as {claims['sub']}, library {fields['library']}; nothing left in java.io.tmpdir")
    return 0


if __name__ == "__main__":
    sys.exit(main())
