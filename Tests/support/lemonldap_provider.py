"""LemonLDAP::NG 2.16 (the Debian package, an OpenID provider someone else wrote) on 127.0.0.1 for the tests.

`start_lemonldap()` builds a throwaway instance in a temporary directory: lemonldap-ng.ini and the one
configuration file (lmConf-1.json, the "File" configuration backend) pointing every store (sessions, caches,
persistent sessions, the configuration's lock) into that directory, an RSA signing key made at start, the
portal under llng-fastcgi-server (the package's FastCGI server) on a private Unix socket, and nginx in front of
it on a free loopback port with its own pid file, logs and temporary paths. The portal reads its ini from
LLNG_DEFAULTCONFFILE (Lemonldap::NG::Common::Conf::getLocalConf), so nothing under /etc/lemonldap-ng or
/var/lib/lemonldap-ng is read for the configuration or written.

Users are those of the "Demo" authentication backend, whose password is the login (UserDB/Demo.pm): the tests
sign in as dwho. The OpenID provider has two relying parties, public clients that must use PKCE, allowed exactly
one redirect URI (LemonLDAP::NG compares redirect URIs as whole strings) on a fixed loopback port, refresh
tokens on; the second one's userinfo answers are signed.

llng-fastcgi-server refuses to run as root ("Refuse to run as root. Aborting"); as root (the CI), the portal
and nginx's workers run as `nobody`, and the directory is handed to that user.

`Lemonldap.login(url)` / `.refuse(url)` play the user over HTTP, as Tests/support/provider/browser.py does for
django-oauth-toolkit: the portal's login form, then its consent form (confirm=1 or confirm=-1), returning the
redirect sent to the client (not followed); `.answer(url)` returns whatever the portal answers instead, and
`.end_session(url, session)` confirms an RP-initiated logout in a browser session.
"""
from __future__ import annotations

import contextlib
import json
import os
import pwd
import grp
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Callable, Iterator
from urllib.parse import urljoin

import requests

FASTCGI_SERVER = "/usr/sbin/llng-fastcgi-server"
NGINX = "/usr/sbin/nginx"
PORTAL_HTDOCS = "/usr/share/lemonldap-ng/portal/htdocs"
PORTAL_TEMPLATES = "/usr/share/lemonldap-ng/portal/templates"
# The Demo backend's users; each one's password is its login.
USER = {"username": "dwho", "password": "dwho", "name": "Doctor Who", "email": "dwho@badwolf.org"}
CLIENT_ID = "native-app"
RP = "nativeapp"  # the relying party's configuration key (a name without '-')
# A confidential relying party of the client credentials grant (RFC 6749 §4.4), authenticating with its secret,
# whose access tokens are JWTs (LemonLDAP::NG 2.16 writes them with typ "JWT", not RFC 9068's at+jwt) and which
# may introspect tokens (RFC 7662; public clients may not).
MACHINE_RP, MACHINE_CLIENT_ID, MACHINE_CLIENT_SECRET = "machine", "machine-app", "machine-secret"
# The same public client again, whose userinfo answers are signed JWTs (application/jwt, OIDC Core §5.3.2).
SIGNED_USERINFO_CLIENT_ID, SIGNED_USERINFO_RP = "signed-userinfo-app", "signeduserinfoapp"
# A loopback redirect URI on a port no other test uses (the others register 53682); LemonLDAP::NG allows only the
# exact URIs registered, so a client that picks any free port (RFC 8252 §7.3) is refused.
REDIRECT_URI = "http://127.0.0.1:53692/callback"
POST_LOGOUT_REDIRECT_URI = "http://127.0.0.1:53692/signed-out"
SCOPE = "openid profile email"


@dataclass
class Lemonldap:
    issuer: str
    client_id: str
    redirect_uri: str
    post_logout_redirect_uri: str
    workdir: Path
    logs: Callable[[], str] = field(repr=False)

    def login(self, authorization_url: str, session: requests.Session | None = None) -> str:
        """Signs in as USER (in `session`, a browser's cookies, when given) and consents; returns the redirect."""
        return _redirect(self.answer(authorization_url, session=session), self.logs)

    def refuse(self, authorization_url: str) -> str:
        """Signs in as USER and refuses consent; returns the redirect."""
        return _redirect(self.answer(authorization_url, confirm="-1"), self.logs)

    def answer(self, authorization_url: str, confirm: str = "1",
               session: requests.Session | None = None) -> requests.Response:
        """What the portal answers once the user has signed in (and consented, or refused with confirm="-1")."""
        return _walk(session or requests.Session(), authorization_url, USER["username"], USER["password"], confirm)

    def end_session(self, end_session_url: str, session: requests.Session) -> requests.Response:
        """Opens the end-session URL in the browser whose cookies are `session`, confirming the logout."""
        return _end_session(session, end_session_url)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _rsa_key_pair() -> tuple[str, str]:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


def _write_ini(workdir: Path) -> Path:
    ini = workdir / "lemonldap-ng.ini"
    # The sections of the package's /etc/lemonldap-ng/lemonldap-ng.ini; the logger writes to standard error
    # (the FastCGI server's log file, or nginx's error log during a request) instead of syslog.
    ini.write_text(f"""[all]
logLevel = info
logger = Lemonldap::NG::Common::Logger::Std
userLogger = Lemonldap::NG::Common::Logger::Std
checkTime = 1

[configuration]
type = File
dirName = {workdir / 'conf'}
prettyPrint = 1

[portal]
staticPrefix = /static
templateDir = {PORTAL_TEMPLATES}
languages = en

[handler]
status = 0
useRedirectOnError = 1
""")
    return ini


# Each relying party: a public client (no secret) that must send a PKCE challenge, with one redirect URI and one
# post-logout redirect URI, refresh tokens (tied to the user's portal session: no offline_access), consent asked.
_RP_OPTIONS = {
    "oidcRPMetaDataOptionsDisplayName": "Native app",
    "oidcRPMetaDataOptionsPublic": 1,
    "oidcRPMetaDataOptionsRequirePKCE": 1,
    "oidcRPMetaDataOptionsRedirectUris": REDIRECT_URI,
    "oidcRPMetaDataOptionsPostLogoutRedirectUris": POST_LOGOUT_REDIRECT_URI,
    "oidcRPMetaDataOptionsRefreshToken": 1,
    "oidcRPMetaDataOptionsIDTokenSignAlg": "RS256",
    "oidcRPMetaDataOptionsBypassConsent": 0,
    "oidcRPMetaDataOptionsIDTokenExpiration": 3600,
    "oidcRPMetaDataOptionsAccessTokenExpiration": 3600,
}


def _write_conf(workdir: Path, portal: str, private_key: str, public_key: str) -> None:
    stores = workdir / "stores"
    for name in ("sessions", "sessions/lock", "psessions", "psessions/lock", "cache", "notifications"):
        (stores / name).mkdir(parents=True, exist_ok=True)
    conf = {
        "cfgNum": 1, "cfgVersion": "2.16.1", "cfgAuthor": "telenorid tests", "cfgDate": str(int(time.time())),
        "portal": portal, "domain": "127.0.0.1", "cookieName": "lemonldap", "securedCookie": 0, "httpOnly": 1,
        "authentication": "Demo", "userDB": "Same", "passwordDB": "Demo", "registerDB": "Null",
        "demoExportedVars": {"cn": "cn", "mail": "mail", "uid": "uid"}, "exportedVars": {},
        "whatToTrace": "uid", "timeout": 72000, "notification": 0, "loginHistoryEnabled": 0,
        "portalSkin": "bootstrap",
        "globalStorage": "Apache::Session::File",
        "globalStorageOptions": {"Directory": str(stores / "sessions"), "LockDirectory": str(stores / "sessions/lock"),
                                 "generateModule": "Lemonldap::NG::Common::Apache::Session::Generate::SHA256"},
        "persistentStorage": "Apache::Session::File",
        "persistentStorageOptions": {"Directory": str(stores / "psessions"),
                                     "LockDirectory": str(stores / "psessions/lock")},
        "localSessionStorage": "Cache::FileCache",
        "localSessionStorageOptions": {"cache_root": str(stores / "cache"), "cache_depth": 3,
                                       "default_expires_in": 600, "directory_umask": "007",
                                       "namespace": "lemonldap-ng-sessions"},
        "notificationStorage": "File", "notificationStorageOptions": {"dirName": str(stores / "notifications")},
        "locationRules": {"127.0.0.1": {"default": "accept"}},
        "exportedHeaders": {},
        "macros": {}, "groups": {},
        # The OpenID provider (the portal's issuer module), RS256 with the key made for this run.
        "issuerDBOpenIDConnectActivation": 1,
        "oidcServicePrivateKeySig": private_key, "oidcServicePublicKeySig": public_key,
        "oidcServiceKeyIdSig": "test-key-1",
        "oidcServiceAllowAuthorizationCodeFlow": 1, "oidcServiceAllowImplicitFlow": 0,
        "oidcServiceAllowHybridFlow": 0,
        "oidcRPMetaDataOptions": {
            RP: dict(_RP_OPTIONS, oidcRPMetaDataOptionsClientID=CLIENT_ID),
            SIGNED_USERINFO_RP: dict(_RP_OPTIONS, oidcRPMetaDataOptionsClientID=SIGNED_USERINFO_CLIENT_ID,
                                     oidcRPMetaDataOptionsUserInfoSignAlg="RS256"),
            MACHINE_RP: {"oidcRPMetaDataOptionsDisplayName": "Machine", "oidcRPMetaDataOptionsClientID": MACHINE_CLIENT_ID,
                         "oidcRPMetaDataOptionsClientSecret": MACHINE_CLIENT_SECRET, "oidcRPMetaDataOptionsPublic": 0,
                         "oidcRPMetaDataOptionsAllowClientCredentialsGrant": 1, "oidcRPMetaDataOptionsAccessTokenJWT": 1,
                         "oidcRPMetaDataOptionsAccessTokenSignAlg": "RS256",
                         "oidcRPMetaDataOptionsAccessTokenExpiration": 3600}},
        "oidcRPMetaDataExportedVars": {name: {"email": "mail", "name": "cn", "preferred_username": "uid"}
                                       for name in (RP, SIGNED_USERINFO_RP, MACHINE_RP)},
        "oidcRPMetaDataOptionsExtraClaims": {},
    }
    (workdir / "conf").mkdir(exist_ok=True)
    (workdir / "conf" / "lmConf-1.json").write_text(json.dumps(conf, indent=1))


def _write_nginx_conf(workdir: Path, port: int, socket_path: Path, run_as: str | None) -> Path:
    config = workdir / "nginx.conf"
    temp = workdir / "nginx-temp"
    temp.mkdir(exist_ok=True)
    # The server block of the package's /etc/lemonldap-ng/portal-nginx.conf, on 127.0.0.1, with every path nginx
    # writes (pid, logs, request bodies) in the work directory.
    config.write_text(f"""daemon off;
worker_processes 1;
pid {workdir / 'nginx.pid'};
error_log {workdir / 'nginx-error.log'} info;
{f'user {run_as};' if run_as else ''}
events {{ worker_connections 64; }}
http {{
  access_log {workdir / 'nginx-access.log'};
  client_body_temp_path {temp / 'body'};
  fastcgi_temp_path {temp / 'fastcgi'};
  proxy_temp_path {temp / 'proxy'};
  uwsgi_temp_path {temp / 'uwsgi'};
  scgi_temp_path {temp / 'scgi'};
  upstream llng_portal_upstream {{ server unix:{socket_path}; }}
  server {{
    listen 127.0.0.1:{port};
    server_name 127.0.0.1;
    root {PORTAL_HTDOCS}/;
    if ($uri !~ ^/((static|javascript|favicon).*|.*\\.psgi)) {{
      rewrite ^/(.*)$ /index.psgi/$1 break;
    }}
    location ~ ^(?<sc>/.*\\.psgi)(?:$|/) {{
      include /etc/nginx/fastcgi_params;
      fastcgi_pass llng_portal_upstream;
      fastcgi_param HTTP_HOST $host:$server_port;
      fastcgi_param LLTYPE psgi;
      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
      fastcgi_split_path_info ^(.*\\.psgi)(/.*)$;
      fastcgi_param PATH_INFO $fastcgi_path_info;
    }}
    index index.psgi;
    location / {{ try_files $uri $uri/ =404; }}
    location /static/ {{ alias {PORTAL_HTDOCS}/static/; }}
    location /javascript/ {{ alias /usr/share/javascript/; }}
  }}
}}
""")
    return config


class _Forms(HTMLParser):
    """The portal's forms: each one's action and its named inputs (hidden ones included)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append((attributes.get("action") or "", {}))
        elif tag == "input" and self.forms and attributes.get("name") and attributes.get("type") != "submit":
            if attributes.get("type") in ("checkbox", "radio") and "checked" not in attributes:
                return
            self.forms[-1][1][attributes["name"]] = attributes.get("value") or ""


def _forms(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def _form_with(page: requests.Response, field_name: str) -> tuple[str, dict[str, str]]:
    for action, fields in _forms(page.text):
        if field_name in fields:
            return urljoin(page.url, action or page.url), fields
    raise AssertionError(f"no form with {field_name!r} at {page.url} (HTTP {page.status_code})")


def _walk(session: requests.Session, authorization_url: str, username: str, password: str,
          confirm: str) -> requests.Response:
    """The browser: the authorization URL shows the login form (the request's parameters ride along in hidden
    fields) unless `session` is signed in already; posting it signs in and shows the consent form, whose
    `confirm` is 1 (accept) or -1 (refuse). Returns the first answer that is not one of those two forms: the
    redirect to the client, or the page the portal shows instead (not followed)."""
    response = session.get(authorization_url, allow_redirects=False, timeout=30)
    for _ in range(2):
        if response.status_code != 200:
            return response
        forms = [fields for _, fields in _forms(response.text)]
        if any("password" in fields for fields in forms):
            action, fields = _form_with(response, "password")
            fields.update(user=username, password=password)
        elif any("confirm" in fields for fields in forms):
            action, fields = _form_with(response, "confirm")
            fields["confirm"] = confirm
        else:
            return response
        response = session.post(action, data=fields, allow_redirects=False, timeout=30)
    return response


def _redirect(response: requests.Response, logs: Callable[[], str]) -> str:
    location = urljoin(response.url, response.headers.get("Location", ""))
    if not (response.is_redirect and location.startswith(REDIRECT_URI)):
        raise AssertionError(f"no redirect to {REDIRECT_URI}: HTTP {response.status_code} {location} "
                             f"{response.text[:500]}\n{logs()}")
    return location


def _end_session(session: requests.Session, end_session_url: str) -> requests.Response:
    """The browser at the end-session endpoint: the portal asks a signed-in user to confirm, and its Accept button
    sends the form as it is (the hidden `confirm` holds the portal's key; Refuse sends "-" and the key).
    Returns the answer to that (the redirect to the post_logout_redirect_uri), not followed."""
    response = session.get(end_session_url, allow_redirects=False, timeout=30)
    if response.status_code == 200 and any("confirm" in fields for _, fields in _forms(response.text)):
        action, fields = _form_with(response, "confirm")
        response = session.post(action, data=fields, allow_redirects=False, timeout=30)
    return response


def _tail(path: Path, lines: int = 60) -> str:
    if not path.exists():
        return f"(no {path.name})"
    return f"--- {path.name} ---\n" + "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _wait_ready(processes: list[subprocess.Popen], discovery: str, deadline: float, logs: Callable[[], str]) -> None:
    last = ""
    while time.monotonic() < deadline:
        for process in processes:
            if process.poll() is not None:
                raise RuntimeError(f"{process.args[0]} exited with status {process.returncode}\n{logs()}")
        try:
            response = requests.get(discovery, timeout=2)
            if response.status_code == 200 and response.headers.get("Content-Type", "").startswith("application/json"):
                return
            last = f"HTTP {response.status_code}"
        except requests.ConnectionError as error:
            last = str(error)
        time.sleep(0.1)
    raise RuntimeError(f"LemonLDAP::NG's discovery document did not answer within 30 seconds ({last})\n{logs()}")


@contextlib.contextmanager
def start_lemonldap() -> Iterator[Lemonldap]:
    workdir = Path(tempfile.mkdtemp(prefix="lemonldap-"))
    # The portal refuses root: as root it runs as nobody, which must own the directory it writes in.
    run_as = None
    if os.geteuid() == 0:
        run_as = "nobody " + grp.getgrgid(pwd.getpwnam("nobody").pw_gid).gr_name
    fastcgi = nginx = None

    def logs() -> str:
        return "\n".join(_tail(workdir / name) for name in ("llng.log", "nginx-error.log", "nginx.log"))

    try:
        port = _free_port()
        portal = f"http://127.0.0.1:{port}/"
        socket_path = workdir / "llng.sock"
        private_key, public_key = _rsa_key_pair()
        ini = _write_ini(workdir)
        _write_conf(workdir, portal, private_key, public_key)
        nginx_conf = _write_nginx_conf(workdir, port, socket_path, run_as)
        if run_as:
            user = pwd.getpwnam("nobody")
            for path in [workdir, *workdir.rglob("*")]:
                os.chown(path, user.pw_uid, user.pw_gid)
        environment = dict(os.environ, LLNG_DEFAULTCONFFILE=str(ini),
                           LLNG_DEFAULTLOGGER="Lemonldap::NG::Common::Logger::Std")
        command = [FASTCGI_SERVER, "--foreground", "--proc", "2", "--socket", str(socket_path),
                   "--pid", str(workdir / "llng.pid")]
        if run_as:
            command += ["--user", run_as.split()[0], "--group", run_as.split()[1]]
        with open(workdir / "llng.log", "wb") as output:
            fastcgi = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, cwd=workdir,
                                       env=environment, start_new_session=True)
        with open(workdir / "nginx.log", "wb") as output:
            nginx = subprocess.Popen([NGINX, "-p", str(workdir), "-e", str(workdir / "nginx-error.log"),
                                      "-c", str(nginx_conf)], stdout=output, stderr=subprocess.STDOUT, cwd=workdir,
                                     start_new_session=True)
        issuer = portal
        _wait_ready([fastcgi, nginx], f"http://127.0.0.1:{port}/.well-known/openid-configuration",
                    time.monotonic() + 30, logs)
        yield Lemonldap(
            issuer=issuer, client_id=CLIENT_ID, redirect_uri=REDIRECT_URI,
            post_logout_redirect_uri=POST_LOGOUT_REDIRECT_URI, workdir=workdir, logs=logs)
    except Exception:
        # A failure shows the portal's and nginx's logs; a stop (KeyboardInterrupt, SIGTERM of `serve`) does not.
        print(logs(), file=sys.stderr)
        raise
    finally:
        _stop(nginx)
        _stop(fastcgi)
        shutil.rmtree(workdir, ignore_errors=True)


def follow(authorization_url: str) -> int:
    """The browser of `telenorid login --browser-command` and of the C test: a fresh browser (no cookies) signs
    in as USER, consents when asked, then follows the portal's redirect to the client's loopback listener.
    Returns the listener's HTTP status."""
    redirect = _redirect(_walk(requests.Session(), authorization_url, USER["username"], USER["password"], "1"),
                         lambda: "(the portal's logs are with the process that started it)")
    return requests.get(redirect, timeout=30).status_code


if __name__ == "__main__" and sys.argv[1:2] == ["follow"]:
    # `lemonldap_provider.py follow AUTHORIZATION_URL` (the URL last, as `--browser-command` passes it): plays
    # the browser (see follow()) and prints the listener's HTTP status; exits 0 when it answered 200.
    status = follow(sys.argv[-1])
    print(status, flush=True)
    sys.exit(0 if status == 200 else 1)

if __name__ == "__main__":
    # `lemonldap_provider.py serve`: prints the issuer and serves until killed (SIGTERM) or for 30 minutes.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    with start_lemonldap() as provider:
        print(json.dumps({"issuer": provider.issuer, "client_id": provider.client_id,
                          "redirect_uri": provider.redirect_uri, "workdir": str(provider.workdir),
                          "user": USER}), flush=True)
        time.sleep(1800)
