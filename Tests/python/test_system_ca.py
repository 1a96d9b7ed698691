"""The system's CA certificates, for a configuration without ca_file or ca_path (include/telenorid.h, after
TELENORID_CONFIG_CA_PATH), on a machine laid out like another distribution. Each case runs this file again as
root in a private mount namespace (`unshare -m`): an overlay of /etc whose changes stay in a tmpfs, an empty
directory over /etc/ssl/certs (Debian's bundle and hashed directory gone, as on Fedora, openSUSE or Alpine),
and, where the case says so, a test CA's bundle bind-mounted onto Fedora's /etc/pki/tls/certs/ca-bundle.crt.
There it runs discovery against a provider on https://127.0.0.1 whose certificate that CA signed. The
library decides once per process, hence one process per case. The choice itself, file by file: Swift's
SystemTrustTests."""
import os
import shutil
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

if __name__ == "__main__":  # run again in the namespace, where conftest.py has not set the path
    _REPO = Path(__file__).resolve().parent.parent.parent
    sys.path[:0] = [str(_REPO / "bindings" / "python"), str(_REPO / "Tests" / "support")]

from fault_provider import FaultProvider  # noqa: E402
from throwaway_ca import write_throwaway_ca  # noqa: E402

FEDORA_BUNDLE = "/etc/pki/tls/certs/ca-bundle.crt"

# case: (what is at Fedora's path, SSL_CERT_FILE, SSL_CERT_DIR, what discovery gives)
CASES = {
    "another distribution's bundle": ("test CA", None, None, "ok"),
    "no bundle at all": (None, None, None, "TLSError"),
    "SSL_CERT_FILE over the bundle": ("test CA", "other CA", None, "TLSError"),
    "SSL_CERT_FILE alone": (None, "test CA", None, "ok"),
    "SSL_CERT_DIR alone": (None, None, "test CA directory", "ok"),
}


@pytest.fixture(scope="module")
def https_provider(tmp_path_factory):
    directory = tmp_path_factory.mktemp("system-ca")
    ca, cert, key = write_throwaway_ca(directory, "provider")
    other_ca = write_throwaway_ca(directory, "other")[0]
    files = {"test CA": str(ca), "other CA": str(other_ca)}
    if shutil.which("openssl"):
        # A hashed directory (c_rehash layout): <subject hash>.0 is the CA.
        subject_hash = subprocess.run(["openssl", "x509", "-hash", "-noout", "-in", str(ca)], check=True,
                                      capture_output=True, text=True).stdout.strip()
        (directory / "hashed").mkdir()
        shutil.copy(ca, directory / "hashed" / f"{subject_hash}.0")
        files["test CA directory"] = str(directory / "hashed")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    provider = FaultProvider()
    provider.server.socket = context.wrap_socket(provider.server.socket, server_side=True)
    provider.issuer = provider.issuer.replace("http://", "https://")
    with provider:
        yield provider.issuer, files, directory


@pytest.mark.parametrize("case", CASES)
def test_system_ca_certificates_in_a_mount_namespace(https_provider, case, tmp_path):
    if os.geteuid() != 0 or shutil.which("unshare") is None or \
            subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("needs root and unshare(1) for a private mount namespace")
    issuer, files, _ = https_provider
    bundle, cert_file, cert_dir, expected = CASES[case]
    if any(name is not None and name not in files for name in (bundle, cert_file, cert_dir)):
        pytest.skip("needs openssl(1) for a hashed CA directory")
    env = {name: value for name, value in os.environ.items() if name not in ("SSL_CERT_FILE", "SSL_CERT_DIR")}
    if cert_file:
        env["SSL_CERT_FILE"] = files[cert_file]
    if cert_dir:
        env["SSL_CERT_DIR"] = files[cert_dir]
    result = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, __file__, issuer,
                             files[bundle] if bundle else "", str(tmp_path)],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected, result.stderr


def _mount(*arguments: str) -> None:
    subprocess.run(["mount", *arguments], check=True)


def _in_namespace(issuer: str, bundle: str, scratch: Path) -> None:
    """Lays out /etc for the case (the mounts end with this process's namespace) and prints what discovery gives."""
    _mount("-t", "tmpfs", "tmpfs", str(scratch))
    for name in ("upper", "work", "empty"):
        (scratch / name).mkdir()
    _mount("-t", "overlay", "overlay", "-o", f"lowerdir=/etc,upperdir={scratch}/upper,workdir={scratch}/work", "/etc")
    _mount("--bind", str(scratch / "empty"), "/etc/ssl/certs")
    if bundle:
        os.makedirs(os.path.dirname(FEDORA_BUNDLE), exist_ok=True)
        Path(FEDORA_BUNDLE).touch()
        _mount("--bind", bundle, FEDORA_BUNDLE)
    assert not os.path.exists("/etc/ssl/certs/ca-certificates.crt")

    import telenorid

    config = telenorid.Config.from_settings(issuer=issuer, client_id="system-ca",
                                            redirect_uri="http://127.0.0.1:53682/callback")
    with telenorid.Client(config) as client:
        try:
            client.discover()
            print("ok")
        except telenorid.TLSError as error:
            print(error, file=sys.stderr)
            print("TLSError")


if __name__ == "__main__":
    _in_namespace(sys.argv[1], sys.argv[2], Path(sys.argv[3]))
