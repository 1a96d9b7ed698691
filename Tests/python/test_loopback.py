"""The loopback redirect listener (RFC 8252 §7.3) over real sockets: what it accepts, what it refuses and
answers, and a whole sign-in at django-oauth-toolkit whose redirect comes back through it."""
import socket
import threading
import time

import pytest
import requests
import telenorid

from browser import complete_login  # noqa: E402
from oidc_provider import start_provider  # noqa: E402


def in_background(function):
    results = {}

    def run():
        try:
            results["value"] = function()
        except BaseException as error:  # handed to the test thread
            results["error"] = error
    thread = threading.Thread(target=run)
    thread.start()
    return thread, results


def test_only_the_redirect_ends_the_wait_and_everything_else_is_answered():
    with telenorid.LoopbackListener(path="/cb") as listener:
        uri = listener.redirect_uri
        assert uri.startswith("http://127.0.0.1:") and uri.endswith("/cb")
        base = uri[: -len("/cb")]
        waiting, result = in_background(lambda: listener.wait(timeout=20))
        # A connection that never says anything holds nothing up.
        silent = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])))
        answers = [requests.get(base + "/favicon.ico", timeout=10).status_code,
                   requests.get(base + "/cb-not", timeout=10).status_code,
                   requests.post(uri + "?code=c&state=s", timeout=10).status_code,
                   requests.get(base + "/other?code=c", timeout=10).status_code]
        raw = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])))
        raw.sendall(b"NONSENSE\r\n\r\n")
        assert raw.recv(100).startswith(b"HTTP/1.1 400")
        raw.close()
        page = requests.get(uri + "?code=the-code&state=the-state", timeout=10)
        waiting.join(20)
        silent.close()
        assert answers == [404, 404, 404, 404]
        assert page.status_code == 200 and "close this window" in page.text
        assert page.headers["Cache-Control"] == "no-store"
        assert result == {"value": uri + "?code=the-code&state=the-state"}


def port_of(listener):
    return int(listener.redirect_uri.split(":")[2].split("/")[0])


def raw_status(port, head):
    """Sends a request head as given and returns the status code of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(head.encode())
        return int(connection.recv(100).split(b" ")[1])


def test_a_flood_of_idle_and_slow_connections_does_not_keep_the_redirect_out():
    with telenorid.LoopbackListener(path="/cb") as listener:
        port = port_of(listener)
        queued = [socket.create_connection(("127.0.0.1", port)) for _ in range(100)]  # before the wait too
        waiting, result = in_background(lambda: listener.wait(timeout=30))
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(200)]
        slow = idle[:50]
        stop = threading.Event()

        def dribble():
            # One byte a second on each of 50 connections, never reaching the end of a request head.
            while not stop.wait(1):
                for connection in slow:
                    try:
                        connection.send(b"G")
                    except OSError:  # dropped by the listener: that is the point
                        pass
        dribbler = threading.Thread(target=dribble)
        dribbler.start()
        try:
            time.sleep(1.5)  # let the listener take in the flood and the dribbling begin
            assert waiting.is_alive()
            started = time.monotonic()
            page = requests.get(listener.redirect_uri + "?code=c&state=s", timeout=10)
            waiting.join(10)
            elapsed = time.monotonic() - started
        finally:
            stop.set()
            dribbler.join()
            for connection in queued + idle:
                connection.close()
        assert page.status_code == 200
        assert result == {"value": listener.redirect_uri + "?code=c&state=s"}
        assert elapsed < 2, elapsed


def test_a_flood_of_one_byte_connections_around_the_browsers_does_not_push_it_out():
    """Connections that each send one byte and stall, more than the 64 the listener keeps open, queued before
    the wait and still coming during it. The browser's connection arrives in the listen queue between them
    (even rounds) or during the flood (odd rounds): either way it gets its page and ends the wait."""
    for round in range(6):
        with telenorid.LoopbackListener(path="/cb") as listener:
            port = port_of(listener)
            dribblers = []

            def dribble():
                connection = socket.create_connection(("127.0.0.1", port), timeout=10)
                try:
                    connection.send(b"G")
                except OSError:  # already pushed out by the listener
                    pass
                dribblers.append(connection)
                if len(dribblers) > 300:  # this process's descriptors: the oldest go, the flood goes on
                    dribblers.pop(0).close()

            def browse():
                browser = socket.create_connection(("127.0.0.1", port), timeout=10)
                browser.sendall(f"GET /cb?code=c{round}&state=s HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                return browser
            for _ in range(80):
                dribble()
            queued = round % 2 == 0
            if queued:
                browser = browse()
                for _ in range(40):
                    dribble()
            waiting, result = in_background(lambda: listener.wait(timeout=5))
            stop = threading.Event()

            def flood():
                while not stop.is_set():
                    dribble()
            flooder = threading.Thread(target=flood)
            flooder.start()
            try:
                if not queued:
                    time.sleep(0.3)
                    browser = browse()
                page = b""
                try:
                    while chunk := browser.recv(4096):
                        page += chunk
                except ConnectionResetError:  # closed unanswered, its request unread
                    pass
                browser.close()
                waiting.join(10)
            finally:
                stop.set()
                flooder.join()
                for connection in dribblers:
                    connection.close()
            assert page.startswith(b"HTTP/1.1 200 OK") and b"close this window" in page, (round, page[:100])
            assert result == {"value": f"{listener.redirect_uri}?code=c{round}&state=s"}, round


def test_a_request_for_another_host_gets_400_and_the_wait_goes_on():
    """DNS rebinding: a page on another origin whose name now resolves to 127.0.0.1 sends its own Host."""
    with telenorid.LoopbackListener(path="/cb") as listener:
        port = port_of(listener)
        waiting, result = in_background(lambda: listener.wait(timeout=20))
        callback = "GET /cb?code=c&state=s HTTP/1.1\r\n"
        assert [raw_status(port, callback + host + "\r\n") for host in (
            f"Host: evil.example:{port}\r\n", "Host: evil.example\r\n", "", f"Host: 127.0.0.1:{port + 1}\r\n",
            f"Host: 127.0.0.1:{port}\r\nHost: 127.0.0.1:{port}\r\n", f"Host : 127.0.0.1:{port}\r\n",
            f"X: y\r\n Host: evil.example\r\nHost: 127.0.0.1:{port}\r\n")] == [400] * 7
        # The listener's own names, in any case, are accepted: a wrong path is then just not found.
        assert raw_status(port, f"GET /other HTTP/1.1\r\nHost: LocalHost:{port}\r\n\r\n") == 404
        assert waiting.is_alive()
        assert raw_status(port, callback + f"host:  localhost:{port} \r\n\r\n") == 200
        waiting.join(10)
        assert result == {"value": listener.redirect_uri + "?code=c&state=s"}


def test_with_an_expected_state_only_that_state_ends_the_wait():
    with telenorid.LoopbackListener(path="/cb") as listener:
        with pytest.raises(telenorid.InvalidArgumentError):
            listener.expect_state("")
        listener.expect_state("the-state")
        waiting, result = in_background(lambda: listener.wait(timeout=20))
        answers = [requests.get(listener.redirect_uri + query, timeout=10).status_code for query in (
            "?code=c", "?code=c&state=other", "?code=c&state=the-stat", "?code=c&state=the-state-",
            "?code=c&state=the-state&state=the-state", "?code=c&state=other&state=the-state", "")]
        assert answers == [400] * 7 and waiting.is_alive()
        # Percent-encoding is decoded before the comparison, as the host's own check of the callback does.
        port = port_of(listener)
        assert raw_status(port, f"GET /cb?code=c&state=the%2Dstate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n") == 200
        waiting.join(10)
        assert result == {"value": listener.redirect_uri + "?code=c&state=the%2Dstate"}
    with telenorid.LoopbackListener() as listener:
        # Changed during the wait, from another thread; None takes the check away again.
        waiting, result = in_background(lambda: listener.wait(timeout=20))
        listener.expect_state("first")
        assert requests.get(listener.redirect_uri + "?state=second", timeout=10).status_code == 400
        listener.expect_state(None)
        assert requests.get(listener.redirect_uri + "?state=second", timeout=10).status_code == 200
        waiting.join(10)
        assert result == {"value": listener.redirect_uri + "?state=second"}


def test_timeout_then_wait_again_then_consumed_and_bad_arguments():
    with telenorid.LoopbackListener() as listener:
        assert listener.redirect_uri.endswith("/callback")
        started = time.monotonic()
        with pytest.raises(telenorid.NetworkTimeoutError):
            listener.wait(timeout=0.3)
        assert time.monotonic() - started < 5
        # A timeout hands nothing out: the host waits again (in slices, to stay cancellable).
        browser = threading.Thread(target=requests.get, args=(listener.redirect_uri + "?code=c&state=s",),
                                   kwargs={"timeout": 10})
        browser.start()
        assert listener.wait(timeout=10) == listener.redirect_uri + "?code=c&state=s"
        browser.join()
        with pytest.raises(telenorid.ConsumedError):
            listener.wait(timeout=0.3)
    for path in ("no-slash", "/with?query", "/with#fragment", "/sp ace"):
        with pytest.raises(telenorid.InvalidArgumentError):
            telenorid.LoopbackListener(path=path)
    with pytest.raises(TypeError):
        telenorid.LoopbackListener(port=70000)
    with telenorid.LoopbackListener() as taken:
        port = int(taken.redirect_uri.split(":")[2].split("/")[0])
        with pytest.raises(telenorid.NetworkError):
            telenorid.LoopbackListener(port=port)


def test_sign_in_through_the_loopback_listener():
    """The redirect URI django-oauth-toolkit has registered for the public client is on port 53682."""
    with start_provider() as provider, telenorid.LoopbackListener(port=53682) as listener:
        config = telenorid.Config.from_settings(issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"],
                                                redirect_uri=listener.redirect_uri, scope="openid profile")
        with telenorid.Client(config) as client:
            pending = telenorid.AuthorizationRequest(client.config()).build()
            listener.expect_state(pending.state)
            waiting, result = in_background(lambda: listener.wait(timeout=60))
            # The user's part: sign in and consent, then the browser follows the redirect to the listener.
            redirect = complete_login(pending.url, provider["user"]["username"], provider["user"]["password"])
            assert requests.get(redirect, timeout=10).status_code == 200
            waiting.join(60)
            assert result["value"] == redirect
            state = client.exchange_code(pending.handle_callback(result["value"]))
            assert state.id_token_claims["nonce"] == pending.nonce
