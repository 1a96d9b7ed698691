"""A local stand-in for Aloha, the TelenorID+ line authentication service, following the exchange the
TelenorID+ SDK guide lists: GET <base>/hr/v1/prepare/<log uuid> over https answers {"injectPath": ...};
GET on the inject path over plain http answers a redirect to https; GET there answers {"uuid", "exp"}.

Aloha is not public, hence this double. TLS uses a test CA and a server certificate for 127.0.0.1 made
at start with pyca/cryptography; the CA file's path is in the info the server hands out.

The first path segment of the base URL picks a behaviour, so one server serves every test and each
configuration chooses its own: https://127.0.0.1:<port>/<mode>. Modes: ok, short (exp 1), exp_string
(exp as a string), malformed_prepare, missing_inject, malformed_session, missing_uuid, missing_exp,
expired (exp 0), no_redirect, redirect_http, redirect_other_host, two_redirects, hang (answers the
prepare call only when the server stops), status_500.

Under a host name (`host`, e.g. "aloha.test", with `addresses` to listen on, each on the same two ports):
the URLs it hands out name that host, its certificate covers it, and the stats count, per mode, the
requests reached on each local address ("addresses"), so a test can tell which address a client connected
to. The host name must resolve (a private /etc/hosts: `unshare -m` and a bind mount). libcurl never proxies
loopback addresses, so only under a name can a test see whether a proxy is used: `proxy=True` also starts
a capturing proxy on 127.0.0.1 that records each request line (CONNECT host:port, or an absolute-form GET)
under "_proxy" in the stats and answers 403.

Run as a script (`--host NAME --address A [--address B] --proxy`, all optional) it prints one JSON line
(ports, CA file, base URL, proxy URL) and serves until stdin closes, answering each "stats" line on stdin
with the stats as one JSON line; GET /_stats on the https port gives them too: per mode, the prepare calls,
inject calls, sessions issued, the log uuids seen and the local addresses reached.
"""
import argparse
import json
import re
import ssl
import sys
import tempfile
import threading
import uuid
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from throwaway_ca import write_throwaway_ca

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


class Aloha:
    def __init__(self):
        self.lock = threading.Lock()
        self.stats = {}
        self.stopping = threading.Event()
        self.https_port = 0
        self.http_port = 0
        self.host = "127.0.0.1"

    def _entry(self, mode):
        return self.stats.setdefault(mode, {"prepare": 0, "inject": 0, "session": 0, "log_ids": [], "addresses": {}})

    def count(self, mode, what, value=None):
        with self.lock:
            entry = self._entry(mode)
            entry[what] += 1
            if value is not None:
                entry["log_ids"].append(value)

    def reached(self, mode, address):
        with self.lock:
            addresses = self._entry(mode)["addresses"]
            addresses[address] = addresses.get(address, 0) + 1

    def proxied(self, line):
        with self.lock:
            self.stats.setdefault("_proxy", []).append(line)

    def snapshot(self):
        with self.lock:
            return json.loads(json.dumps(self.stats))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # a client refusing the test certificate resets the connection: expected, not worth a traceback


def _handler(aloha: Aloha, secure: bool):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def json(self, value):
            self.send(200, json.dumps(value).encode(), [("Content-Type", "application/json")])

        def do_GET(self):
            parts = self.path.split("/")
            if secure and self.path == "/_stats":
                return self.json(aloha.snapshot())
            if len(parts) < 3:
                return self.send(404)
            mode = parts[1]
            host = f"[{aloha.host}]" if ":" in aloha.host else aloha.host
            secure_base = f"https://{host}:{aloha.https_port}/{mode}"
            aloha.reached(mode, self.connection.getsockname()[0])
            if secure and parts[2:5] == ["hr", "v1", "prepare"] and len(parts) == 6:
                log_id = parts[5]
                aloha.count(mode, "prepare", log_id)
                if not UUID4.match(log_id):
                    return self.send(400, b"log id is not a version 4 UUID")
                if mode == "hang":
                    aloha.stopping.wait(60)
                    return self.send(503)
                if mode == "status_500":
                    return self.send(500, b"down")
                if mode == "malformed_prepare":
                    return self.send(200, b'{"injectPath": ', [("Content-Type", "application/json")])
                if mode == "missing_inject":
                    return self.json({"inject": "/x"})
                return self.json({"injectPath": f"http://{host}:{aloha.http_port}/{mode}/inject/{uuid.uuid4()}"})
            if not secure and parts[2] == "inject":
                aloha.count(mode, "inject")
                token = parts[3] if len(parts) > 3 else ""
                if mode == "no_redirect":
                    return self.json({"uuid": "x", "exp": 300})
                if mode == "redirect_http":
                    return self.send(302, headers=[("Location", f"http://{host}:{aloha.http_port}/{mode}/session/{token}")])
                if mode == "redirect_other_host":
                    return self.send(302, headers=[("Location", f"https://localhost:{aloha.https_port}/{mode}/session/{token}")])
                return self.send(302, headers=[("Location", f"{secure_base}/session/{token}")])
            if secure and parts[2] in ("session", "session2"):
                if mode == "two_redirects" and parts[2] == "session":
                    return self.send(302, headers=[("Location", f"{secure_base}/session2/{parts[3]}")])
                if mode == "malformed_session":
                    return self.send(200, b'[1,', [("Content-Type", "application/json")])
                session = str(uuid.uuid4())
                body = {"uuid": session, "exp": 300}
                if mode == "short":
                    body["exp"] = 1
                elif mode == "exp_string":
                    body["exp"] = "300"
                elif mode == "missing_uuid":
                    del body["uuid"]
                elif mode == "missing_exp":
                    del body["exp"]
                elif mode == "expired":
                    body["exp"] = 0
                aloha.count(mode, "session")
                return self.json(body)
            return self.send(404)
    return Handler


def _proxy_handler(aloha: Aloha):
    class Proxy(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def refuse(self):
            aloha.proxied(f"{self.command} {self.path}")
            self.send_response(403)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True

        do_CONNECT = do_GET = do_POST = do_HEAD = refuse
    return Proxy


@contextmanager
def start_aloha(host="127.0.0.1", addresses=("127.0.0.1",), proxy=False):
    """Yields {"base": https base URL without a mode, "ca_file", "https_port", "http_port", "stats"(), and with
    `proxy` "proxy": the capturing proxy's URL}."""
    aloha = Aloha()
    aloha.host = host
    with tempfile.TemporaryDirectory() as directory:
        ca, cert, key = write_throwaway_ca(Path(directory), "aloha", [host] if not host[0].isdigit() else [])
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        servers = []
        for address in addresses:
            https = _Server((address, aloha.https_port), _handler(aloha, True))
            https.socket = context.wrap_socket(https.socket, server_side=True)
            http = _Server((address, aloha.http_port), _handler(aloha, False))
            aloha.https_port, aloha.http_port = https.server_address[1], http.server_address[1]
            servers += [https, http]
        info = {}
        if proxy:
            capture = _Server(("127.0.0.1", 0), _proxy_handler(aloha))
            servers.append(capture)
            info["proxy"] = f"http://127.0.0.1:{capture.server_address[1]}"
        threads = [threading.Thread(target=server.serve_forever, daemon=True) for server in servers]
        for thread in threads:
            thread.start()
        named = f"[{host}]" if ":" in host else host
        try:
            yield {"base": f"https://{named}:{aloha.https_port}", "ca_file": str(ca),
                   "https_port": aloha.https_port, "http_port": aloha.http_port, "stats": aloha.snapshot, **info}
        finally:
            aloha.stopping.set()
            for server in servers:
                server.shutdown()
                server.server_close()


if __name__ == "__main__":
    options = argparse.ArgumentParser(description="The Aloha stand-in (see the module's doc).")
    options.add_argument("--host", default="127.0.0.1")
    options.add_argument("--address", action="append")
    options.add_argument("--proxy", action="store_true")
    arguments = options.parse_args()
    with start_aloha(arguments.host, arguments.address or ["127.0.0.1"], arguments.proxy) as info:
        print(json.dumps({key: value for key, value in info.items() if key != "stats"}), flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                print(json.dumps(info["stats"]()), flush=True)
