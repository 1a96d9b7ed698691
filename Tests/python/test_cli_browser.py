"""`telenorid login` and the browser, against django-oauth-toolkit: where no browser can be opened (no display,
none that Python's webbrowser finds) and no --browser-command is given, login stops at once naming --no-browser
and --device (as `gcloud auth login` and `az login` do) instead of waiting for a redirect that cannot come; a
browser that webbrowser finds without a display ($BROWSER) is used; a --browser-command that cannot start or
fails is reported at once."""
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

from conftest import BROWSER


ROOT = Path(__file__).resolve().parents[2]


def headless(**extra):
    """The environment of a server reached over SSH: no display, no TERM (webbrowser's console browsers), no
    $BROWSER, no TELENORID_BROWSER."""
    environment = {name: value for name, value in os.environ.items()
                   if name not in ("DISPLAY", "WAYLAND_DISPLAY", "TERM", "BROWSER", "TELENORID_BROWSER")}
    return dict(environment, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file", **extra)


def telenorid(*args, env):
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=env)


def test_without_a_display_or_a_browser_login_says_so_at_once_and_names_the_other_ways(tmp_path):
    """Refused before anything starts: the issuer (nothing listens there) is never asked, no listener waits."""
    state_file = tmp_path / "state.json"
    started = time.monotonic()
    run = telenorid("login", "--issuer", "http://127.0.0.1:9/o", "--client-id", "x", "--timeout", "300",
                    "--state-file", str(state_file), env=headless())
    assert time.monotonic() - started < 10
    assert run.returncode == 2, run.stderr
    message = run.stderr.splitlines()[-1]
    assert message.startswith("telenorid: cannot open a browser here: no display"), run.stderr
    assert "--no-browser" in message and "--device" in message and "--browser-command" in message
    assert "discovering" not in run.stderr and "waiting for the browser" not in run.stderr
    assert list(tmp_path.iterdir()) == []


def test_without_a_display_the_other_ways_still_sign_in(provider, tmp_path):
    """--no-browser is not refused on such a machine: it needs no browser here (the pasted address is refused
    for its state, which shows the login ran)."""
    run = subprocess.run([sys.executable, "-m", "telenorid", "login", "--no-browser", "--issuer", provider["issuer"],
                          "--client-id", provider["clients"]["public"]["client_id"],
                          "--state-file", str(tmp_path / "s.json")],
                         input="http://127.0.0.1:53682/callback?code=c&state=not-this-request\n", capture_output=True,
                         text=True, timeout=60, env=headless())
    assert run.returncode == 1 and "open this URL in a browser" in run.stderr, run.stderr
    assert "state" in run.stderr.splitlines()[-1] and "cannot open a browser" not in run.stderr


FOLLOW = """#!{python}
import subprocess, sys
# A browser returns at once; this one signs in and follows the redirect to the listener meanwhile.
subprocess.Popen([{python!r}, {browser!r}, "--follow", {user!r}, {password!r}, sys.argv[1]], start_new_session=True)
"""


def test_without_a_display_a_browser_webbrowser_finds_is_used(provider, tmp_path):
    """$BROWSER names a browser webbrowser runs without a display (as a console browser in a terminal would be):
    not refused, and the sign-in completes through it."""
    user = provider["user"]
    launcher = tmp_path / "browser"
    launcher.write_text(FOLLOW.format(python=sys.executable, browser=str(BROWSER), user=user["username"],
                                      password=user["password"]))
    launcher.chmod(launcher.stat().st_mode | stat.S_IXUSR)
    state_file = tmp_path / "state" / "state.json"
    run = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                    "--timeout", "60", "--state-file", str(state_file), env=headless(BROWSER=str(launcher)))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["iss"] == provider["issuer"]
    assert "cannot open a browser" not in run.stderr and "no browser could be opened" not in run.stderr


def test_a_browser_command_that_cannot_start_is_reported(provider, tmp_path):
    missing = tmp_path / "no-such-browser"
    started = time.monotonic()
    run = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                    "--timeout", "300", "--state-file", str(tmp_path / "s.json"),
                    "--browser-command", f"{missing} --new-window", env=headless())
    assert time.monotonic() - started < 30
    assert run.returncode == 1, run.stderr
    message = run.stderr.splitlines()[-1]
    assert f"--browser-command '{missing} --new-window' could not be started" in message, run.stderr
    assert "No such file or directory" in message and "Traceback" not in run.stderr
    assert not (tmp_path / "s.json").exists()


def test_a_browser_command_that_fails_ends_the_wait_and_is_reported(provider, tmp_path):
    """A command that exits non-zero opened no browser: said within a second of it, not after the timeout."""
    failing = tmp_path / "failing-browser"
    failing.write_text("#!/bin/sh\necho 'failing-browser: cannot open display' >&2\nexit 3\n")
    failing.chmod(0o755)
    started = time.monotonic()
    run = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                    "--timeout", "300", "--state-file", str(tmp_path / "s.json"), "--browser-command", str(failing),
                    env=headless())
    assert time.monotonic() - started < 30
    assert run.returncode == 1, run.stderr
    assert "failing-browser: cannot open display" in run.stderr, "the command's own complaint is shown"
    message = run.stderr.splitlines()[-1]
    assert f"the browser command '{failing}' exited with status 3" in message, run.stderr
    assert "--no-browser" in message and "--device" in message
    assert not (tmp_path / "s.json").exists()


def test_a_browser_that_does_not_open_leaves_the_url_to_open_by_hand(provider, tmp_path):
    """webbrowser finds a browser ($BROWSER) that then fails to open: the URL is printed, naming the other ways,
    and the wait goes on; a browser on this machine that opens it ends the sign-in."""
    process = subprocess.Popen([sys.executable, "-m", "telenorid", "login", "--issuer", provider["issuer"],
                                "--client-id", provider["clients"]["public"]["client_id"], "--timeout", "60",
                                "--state-file", str(tmp_path / "state.json")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=headless(BROWSER="false"))
    try:
        shown = []
        for line in process.stderr:
            shown.append(line)
            if line.startswith("telenorid: no browser could be opened"):
                assert "--no-browser" in line and "--device" in line
                break
        url = process.stderr.readline().strip()
        assert url.startswith(provider["issuer"]), "".join(shown) + url
        user = provider["user"]
        followed = subprocess.run([sys.executable, str(BROWSER), "--follow", user["username"], user["password"], url],
                                  capture_output=True, text=True, timeout=60)
        assert followed.returncode == 0, followed.stderr
        output, errors = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 0, errors
    assert json.loads(output)["iss"] == provider["issuer"]
