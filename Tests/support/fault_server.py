#!/usr/bin/env python3
"""A programmable local HTTP(S) server for testing the HTTP layer against faults a real server rarely
shows on request: hangs, resets, truncated and oversized bodies, header floods, redirects.

    python3 fault_server.py            # plain HTTP
    python3 fault_server.py --https    # HTTPS with a throw-away test CA

Binds 127.0.0.1 on a free port and prints ONE line on stdout, then serves until killed:

    <port>                  (HTTP mode)
    <port> <ca.pem path>    (HTTPS mode; the certificate is valid for localhost, 127.0.0.1 and ::1)

Safety: exits by itself after --lifetime seconds (default 600) and as soon as its parent process goes
away, so a crashed test run leaves nothing behind.

Behaviour is chosen by path, through the ROUTES table. To add endpoints (token endpoints and the like)
from another script:

    import fault_server
    @fault_server.route("/token", methods=("POST",))
    def token(request):
        return fault_server.Response.json({"access_token": "..."})
    fault_server.main()

A handler gets a Request and returns a Response, or None when it has dealt with the socket itself (the
connection is then closed). Python standard library only, plus `cryptography` for --https.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import socketserver
import struct
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Callable, Optional
from urllib.parse import parse_qs, unquote, urlsplit


# --------------------------------------------------------------------------------------------------
# Requests, responses, routes


@dataclass
class Request:
    method: str
    path: str                       # without the query
    query: dict[str, str]           # first value of each parameter
    headers: list[tuple[str, str]]  # as received
    body: bytes
    handler: "Handler"              # for routes that work on the raw socket

    def header(self, name: str) -> Optional[str]:
        wanted = name.lower()
        return next((value for key, value in self.headers if key.lower() == wanted), None)


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    headers: list[tuple[str, str]] = field(default_factory=list)
    content_type: Optional[str] = "application/json"

    @staticmethod
    def json(value, status: int = 200, headers: Optional[list[tuple[str, str]]] = None) -> "Response":
        return Response(status, json.dumps(value).encode(), headers or [], "application/json; charset=utf-8")


Route = Callable[[Request], Optional[Response]]

# Exact paths, and prefixes (keys ending in "/*") tried longest first.
ROUTES: dict[str, tuple[Route, tuple[str, ...]]] = {}
ANY_METHOD = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def route(path: str, methods: tuple[str, ...] = ANY_METHOD):
    """Registers a handler for `path`; a path ending in "/*" matches every path under it."""
    def register(function: Route) -> Route:
        ROUTES[path] = (function, tuple(methods))
        return function
    return register


def find_route(path: str) -> Optional[tuple[Route, tuple[str, ...]]]:
    if path in ROUTES:
        return ROUTES[path]
    prefixes = sorted((key for key in ROUTES if key.endswith("/*")), key=len, reverse=True)
    for key in prefixes:
        if path.startswith(key[:-1]):
            return ROUTES[key]
    return None


# --------------------------------------------------------------------------------------------------
# The built-in routes


@route("/json")
def json_route(request: Request) -> Response:
    return Response.json({"ok": True, "name": "fault_server", "numbers": [1, 2, 3]},
                         headers=[("X-Fault-Server", "json"), ("Cache-Control", "no-store")])


@route("/status/*")
def status_route(request: Request) -> Response:
    """/status/<code>?body=<urlencoded body>&type=<content-type>"""
    try:
        code = int(request.path.rsplit("/", 1)[-1])
    except ValueError:
        return Response(400, b"status code is not a number", content_type="text/plain")
    return Response(code, request.query.get("body", "").encode(), content_type=request.query.get("type", "text/plain"))


@route("/hang")
def hang_route(request: Request) -> Response:
    """Answers only after ?seconds= (default 30): longer than any sane client timeout."""
    time.sleep(float(request.query.get("seconds", "30")))
    return Response.json({"late": True})


@route("/reset")
def reset_route(request: Request) -> None:
    """Closes with SO_LINGER 0, so the kernel sends RST instead of FIN: 'connection reset by peer'."""
    sock = request.handler.connection
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
    return None


@route("/truncated")
def truncated_route(request: Request) -> None:
    """Promises 100 bytes, sends 10, closes."""
    request.handler.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                             + b'{"a":"0123')
    return None


def _filler(count: int) -> bytes:
    """count bytes shaped like JSON: a long string member."""
    if count < 10:
        return b"0" * count
    return b'{"x":"' + b"a" * (count - 8) + b'"}'


@route("/big")
def big_route(request: Request) -> Response:
    """?bytes=N of JSON-ish data with a Content-Length."""
    return Response(200, _filler(int(request.query.get("bytes", "0"))))


@route("/big-chunked")
def big_chunked_route(request: Request) -> None:
    """?bytes=N of JSON-ish data with Transfer-Encoding: chunked, so no Content-Length."""
    data = _filler(int(request.query.get("bytes", "0")))
    handler = request.handler
    handler.send_raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = 16 * 1024
    for start in range(0, len(data), chunk):
        piece = data[start:start + chunk]
        handler.send_raw(b"%x\r\n%s\r\n" % (len(piece), piece))
    handler.send_raw(b"0\r\n\r\n")
    return None


@route("/redirect")
def redirect_route(request: Request) -> Response:
    return Response(302, b'{"moved":true}', [("Location", "/json")])


@route("/headers-flood")
def headers_flood_route(request: Request) -> Response:
    """?count= headers (default 200) of ?size= bytes each (default 1000): 200 kB of headers."""
    count = int(request.query.get("count", "200"))
    size = int(request.query.get("size", "1000"))
    return Response(200, b"{}", [(f"X-Flood-{index}", "f" * size) for index in range(count)])


@route("/echo")
def echo_route(request: Request) -> Response:
    """The request as JSON: method, path, query, headers ([name, value] pairs as received) and body."""
    return Response.json({
        "method": request.method,
        "path": request.path,
        "query": request.query,
        "headers": [[name, value] for name, value in request.headers],
        "body": request.body.decode("utf-8", "replace"),
    })


@route("/count")
def count_route(request: Request) -> Response:
    """How many TCP connections the server has accepted so far: proves keep-alive reuse."""
    return Response.json({"connections": request.handler.server.connections_accepted()})


# --------------------------------------------------------------------------------------------------
# Server plumbing


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive by default; every response carries its length
    # Headers and body go out in separate writes; with Nagle on, the body would wait for the client's
    # delayed ACK (40 ms per request on Linux).
    disable_nagle_algorithm = True
    server_version = "fault_server"

    def version_string(self) -> str:
        return self.server_version

    def log_message(self, format: str, *args) -> None:
        if self.server.verbose:
            sys.stderr.write("fault_server: " + (format % args) + "\n")

    def setup(self) -> None:
        # TLS is set up here, in the connection's own thread, so one slow or failing handshake never
        # blocks the accept loop.
        if self.server.tls is not None:
            self.request = self.server.tls.wrap_socket(self.request, server_side=True)
        super().setup()

    def send_raw(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (ConnectionError, BrokenPipeError, TimeoutError, OSError):
            # The client gave up (timeout, cap exceeded): expected in these tests.
            self.close_connection = True

    def finish(self) -> None:
        try:
            super().finish()
        except OSError:
            pass

    def _dispatch(self) -> None:
        split = urlsplit(self.path)
        query = {key: values[0] for key, values in parse_qs(split.query, keep_blank_values=True).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        request = Request(self.command, unquote(split.path), query, list(self.headers.items()), body, self)
        found = find_route(request.path)
        if found is None:
            response: Optional[Response] = Response.json({"error": "no such route", "path": request.path}, 404)
        elif request.method not in found[1]:
            response = Response.json({"error": "method not allowed"}, 405, [("Allow", ", ".join(found[1]))])
        else:
            try:
                response = found[0](request)
            except (ConnectionError, OSError):
                raise
            except Exception as error:  # a bug in a route: answer 500 rather than hang the client
                response = Response.json({"error": "route failed", "detail": repr(error)}, 500)
        if response is None:
            self.close_connection = True   # the route wrote to (or closed) the socket itself
            return
        self.send_response(response.status)
        if response.content_type is not None:
            self.send_header("Content-Type", response.content_type)
        for name, value in response.headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(response.body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(response.body)

    do_GET = do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _dispatch


class Server(socketserver.ThreadingMixIn, HTTPServer):
    daemon_threads = True          # a /hang in progress never keeps the process alive
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, tls, verbose: bool) -> None:
        self.tls = tls
        self.verbose = verbose
        self._lock = threading.Lock()
        self._accepted = 0
        super().__init__(("127.0.0.1", 0), Handler)

    def process_request(self, request, client_address) -> None:
        with self._lock:
            self._accepted += 1
        super().process_request(request, client_address)

    def connections_accepted(self) -> int:
        with self._lock:
            return self._accepted

    def handle_error(self, request, client_address) -> None:
        # Clients that abort, reset or reject our certificate are the point of this server.
        if self.verbose:
            super().handle_error(request, client_address)


# --------------------------------------------------------------------------------------------------
# HTTPS: a throw-away CA and a server certificate signed by it


def make_tls(directory: str):
    import ssl
    from pathlib import Path

    from throwaway_ca import write_throwaway_ca

    ca_path, cert_path, key_path = write_throwaway_ca(Path(directory), "fault_server")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    return context, ca_path


# --------------------------------------------------------------------------------------------------


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--https", action="store_true", help="serve HTTPS with a generated test CA")
    parser.add_argument("--lifetime", type=float, default=600, help="seconds until the server exits by itself")
    parser.add_argument("--verbose", action="store_true", help="log requests and handler errors to stderr")
    options = parser.parse_args(argv)

    directory = tempfile.mkdtemp(prefix="fault_server-")
    try:
        tls, ca_path = make_tls(directory) if options.https else (None, None)
        server = Server(tls, options.verbose)
        # SIGTERM (Process.terminate) ends serve_forever through SystemExit, so `finally` cleans up.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        parent = os.getppid()

        def watchdog() -> None:
            deadline = time.monotonic() + options.lifetime
            while time.monotonic() < deadline and os.getppid() == parent:
                time.sleep(0.5)
            shutil.rmtree(directory, ignore_errors=True)
            os._exit(0)

        threading.Thread(target=watchdog, daemon=True).start()
        port = server.server_address[1]
        print(f"{port} {ca_path}" if ca_path else f"{port}", flush=True)
        server.serve_forever(poll_interval=0.2)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
