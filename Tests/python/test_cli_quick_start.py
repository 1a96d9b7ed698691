"""The Python quick starts a newcomer runs first, against django-oauth-toolkit, with port 53682 (the one the
provider has registered) held by another socket the whole time: the package README's quick start and
bindings/python/examples/login.py listen on any free port (RFC 8252 §7.3 has the provider accept the
registered loopback redirect on any port), and print the URL when no browser opens. (Test_native.py runs the
README's quick start with a browser; here it runs without one.)"""
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from conftest import BROWSER


ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "bindings" / "python" / "examples" / "login.py"


@pytest.fixture()
def registered_port_taken():
    """Port 53682 in use by something else: a quick start that still listened there would fail."""
    with socket.socket() as taken:
        # The suites before this one sign in through 53682, and their closed connections wait out TIME_WAIT
        # there: SO_REUSEADDR binds through those, and listen() still keeps every other socket off the port.
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 53682))
        taken.listen(1)
        yield


def quick_start():
    text = (ROOT / "bindings" / "python" / "README.md").read_text()
    return re.search(r"```python\n(.*?)```", text.split("## Quick start", 1)[1], re.S).group(1)


def no_browser(**extra):
    """No display, and a $BROWSER that fails, so webbrowser.open() returns False."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("DISPLAY", "WAYLAND_DISPLAY", "TERM")}
    return dict(environment, PYTHONPATH=str(ROOT / "bindings" / "python"), BROWSER="false", **extra)


def follow(url, user):
    """The user's browser elsewhere on this machine: signs in at `url` and follows the redirect."""
    subprocess.run([sys.executable, str(BROWSER), "--follow", user["username"], user["password"], url],
                   check=True, timeout=60)


def redirect_port(url):
    redirect_uri = parse_qs(urlsplit(url).query)["redirect_uri"][0]
    assert redirect_uri.startswith("http://127.0.0.1:") and redirect_uri.endswith("/callback"), redirect_uri
    return urlsplit(redirect_uri).port


def test_the_readme_quick_start_prints_the_url_when_no_browser_opens(provider, registered_port_taken, tmp_path):
    assert "port=0" in quick_start() and "53682" not in quick_start()
    environment = no_browser(HOME=str(tmp_path), OIDC_ISSUER=provider["issuer"],
                             OIDC_CLIENT_ID=provider["clients"]["public"]["client_id"])
    process = subprocess.Popen([sys.executable, "-c", quick_start()], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=environment)
    try:
        shown = process.stdout.readline()
        prefix = "open this URL in a browser on this machine to sign in: "
        assert shown.startswith(prefix), shown + process.stderr.read()
        url = shown[len(prefix):].strip()
        assert url.startswith(provider["issuer"]) and redirect_port(url) != 53682
        follow(url, provider["user"])
        rest, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, errors
    assert rest.startswith("signed in as ") and "access token valid until" in rest
    assert json.loads((tmp_path / ".example-app-signin.json").read_text())["refresh_token"]


def test_the_example_listens_on_any_free_port(registered_port_taken):
    """Headless: browser.py plays the user and follows the redirect to the example's listener."""
    run = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=180,
                         env=dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python")))
    assert run.returncode == 0, run.stderr
    url = re.search(r"^authorization URL: (\S+)$", run.stdout, re.M).group(1)
    assert redirect_port(url) != 53682
    assert '"email": "alice@example.com"' in run.stdout
    assert "refresh token rotated: True" in run.stdout


def test_the_example_with_a_browser_prints_the_url_when_none_opens(registered_port_taken):
    process = subprocess.Popen([sys.executable, str(EXAMPLE), "--browser"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=no_browser())
    try:
        lines = [process.stdout.readline() for _ in range(3)]
        assert lines[0].startswith("provider: ") and lines[1].startswith("authorization URL: "), lines
        assert lines[2].startswith("no browser could be opened: open the URL above"), lines
        user = re.search(r"sign in as (\S+) / (\S+)$", lines[2].strip())
        follow(lines[1].split(": ", 1)[1].strip(), {"username": user.group(1), "password": user.group(2)})
        rest, errors = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 0, errors
    assert "refresh token rotated: True" in rest
