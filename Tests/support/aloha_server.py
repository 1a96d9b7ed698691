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

Run as a script it prints one JSON line (ports, CA file, base URL) and serves until stdin closes; GET
/_stats on the https port gives, per mode, the prepare calls, inject calls, sessions issued and the log
uuids seen.
"""
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

    def count(self, mode, what, value=None):
        with self.lock:
            entry = self.stats.setdefault(mode, {"prepare": 0, "inject": 0, "session": 0, "log_ids": []})
            entry[what] += 1
            if value is not None:
                entry["log_ids"].append(value)

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
            secure_base = f"https://127.0.0.1:{aloha.https_port}/{mode}"
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
                return self.json({"injectPath": f"http://127.0.0.1:{aloha.http_port}/{mode}/inject/{uuid.uuid4()}"})
            if not secure and parts[2] == "inject":
                aloha.count(mode, "inject")
                token = parts[3] if len(parts) > 3 else ""
                if mode == "no_redirect":
                    return self.json({"uuid": "x", "exp": 300})
                if mode == "redirect_http":
                    return self.send(302, headers=[("Location", f"http://127.0.0.1:{aloha.http_port}/{mode}/session/{token}")])
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


@contextmanager
def start_aloha():
    """Yields {"base": https base URL without a mode, "ca_file", "https_port", "http_port", "stats"()}."""
    aloha = Aloha()
    with tempfile.TemporaryDirectory() as directory:
        ca, cert, key = write_throwaway_ca(Path(directory), "aloha")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        https = _Server(("127.0.0.1", 0), _handler(aloha, True))
        https.socket = context.wrap_socket(https.socket, server_side=True)
        http = _Server(("127.0.0.1", 0), _handler(aloha, False))
        aloha.https_port, aloha.http_port = https.server_address[1], http.server_address[1]
        threads = [threading.Thread(target=server.serve_forever, daemon=True) for server in (https, http)]
        for thread in threads:
            thread.start()
        try:
            yield {"base": f"https://127.0.0.1:{aloha.https_port}", "ca_file": str(ca),
                   "https_port": aloha.https_port, "http_port": aloha.http_port, "stats": aloha.snapshot}
        finally:
            aloha.stopping.set()
            for server in (https, http):
                server.shutdown()
                server.server_close()


if __name__ == "__main__":
    with start_aloha() as info:
        print(json.dumps({key: value for key, value in info.items() if key != "stats"}), flush=True)
        sys.stdin.read()
