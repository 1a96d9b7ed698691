"""The `telenorid` command against django-oauth-toolkit, run as a user would run it (subprocesses), with
the browser's part played headlessly by Tests/support/provider/browser.py --follow."""
import json
import os
import queue
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

from conftest import BROWSER, follow_command


ROOT = Path(__file__).resolve().parents[2]


def telenorid(*args, env=None):
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file", **(env or {}))
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=environment)


def account_record(state_file):
    """The one account's record beside `state_file` (<stem>.<id>.json): where the sign-in is kept."""
    records = [path for path in state_file.parent.glob(state_file.stem + ".*.json")
               if path.name not in (state_file.stem + ".settings.json", state_file.stem + ".accounts.json")]
    assert len(records) == 1, records
    return records[0]


class Running:
    """`telenorid` started as a real process, its standard error read line by line as it comes."""

    def __init__(self, *args, stdin=None):
        environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file")
        self.process = subprocess.Popen([sys.executable, "-m", "telenorid", *args], stdin=stdin,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stderr:
            self.stderr.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def wait_for(self, text, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            assert line is not None, f"ended before {text!r}: {''.join(self.stderr)}"
            if text in line:
                return line

    def interrupt(self):
        """Sends SIGINT (what Ctrl-C sends) and returns (exit code, seconds it took to exit)."""
        sent = time.monotonic()
        self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(5)
        finally:
            self.process.kill()
        took = time.monotonic() - sent
        self.process.stdout.close()
        return code, took

    def errors(self):
        self.process.wait(5)
        time.sleep(0.1)  # the reader's last lines
        return "".join(self.stderr)


def test_login_token_userinfo_refresh_verify_revoke_logout(provider, tmp_path):
    state_file = tmp_path / "state" / "telenorid.json"
    user = provider["user"]
    common = ["--state-file", str(state_file)]
    login = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                      "--scope", "openid profile email", "--port", "53682", "--timeout", "60", *common,
                      "--browser-command", follow_command(user))
    assert login.returncode == 0, login.stderr
    claims = json.loads(login.stdout)
    assert claims["iss"] == provider["issuer"] and claims["sub"]
    assert "signed in as account" in login.stderr
    record = account_record(state_file)
    assert stat.S_IMODE(record.stat().st_mode) == 0o600 and not state_file.exists()

    token = telenorid("token", *common)
    assert token.returncode == 0 and token.stdout.strip()
    userinfo = telenorid("userinfo", *common)
    assert userinfo.returncode == 0 and json.loads(userinfo.stdout)["sub"] == claims["sub"]

    before = json.loads(record.read_text())["refresh_token"]
    assert telenorid("refresh", *common).returncode == 0
    after = json.loads(record.read_text())["refresh_token"]
    assert after != before, "the rotated refresh token is saved at once"
    assert stat.S_IMODE(record.stat().st_mode) == 0o600

    id_token = json.loads(record.read_text())["id_token"]
    verified = telenorid("verify", id_token, *common)
    assert verified.returncode == 0 and json.loads(verified.stdout)["claims"]["sub"] == claims["sub"]
    forged = telenorid("verify", id_token[:-4] + "AAAA", *common)
    assert forged.returncode == 1 and "signature" in forged.stderr

    assert telenorid("revoke", *common).returncode == 0
    signed_out = telenorid("token", *common)
    assert signed_out.returncode == 3 and "telenorid login" in signed_out.stderr
    assert telenorid("logout", *common).returncode == 3  # nothing left to log out of
    assert not os.path.exists(tmp_path / "missing.json")
    assert telenorid("token", "--state-file", str(tmp_path / "missing.json")).returncode == 3


def test_verify_needs_no_redirect_uri_and_decode_is_its_alias(provider, tmp_path):
    """Verifying reads the issuer, the client id and the provider's keys: from the flags alone, or from a
    --config without redirect_uri, with no sign-in kept. `decode` is the same command under its old name."""
    client_id = provider["clients"]["public"]["client_id"]
    user = provider["user"]
    login = telenorid("login", "--issuer", provider["issuer"], "--client-id", client_id, "--port", "53682",
                      "--timeout", "60", "--state-file", str(tmp_path / "signed-in.json"),
                      "--browser-command", follow_command(user))
    assert login.returncode == 0, login.stderr
    id_token = json.loads(account_record(tmp_path / "signed-in.json").read_text())["id_token"]
    nothing_kept = ["--state-file", str(tmp_path / "none.json")]
    flags = ["--issuer", provider["issuer"], "--client-id", client_id, *nothing_kept]

    verified = telenorid("verify", id_token, *flags)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["claims"]["sub"] == json.loads(login.stdout)["sub"]
    config = tmp_path / "verify.json"
    config.write_text(json.dumps({"issuer": provider["issuer"], "client_id": client_id}))
    from_config = telenorid("verify", id_token, "--config", str(config), *nothing_kept)
    assert from_config.returncode == 0 and from_config.stdout == verified.stdout, from_config.stderr
    forged = telenorid("verify", id_token[:-4] + "AAAA", *flags)
    assert forged.returncode == 1 and "signature" in forged.stderr
    not_ours = telenorid("verify", id_token, "--issuer", provider["issuer"], "--client-id", "another-client",
                         *nothing_kept)
    assert not_ours.returncode == 1 and "aud" in not_ours.stderr

    decoded = telenorid("decode", id_token, *flags)
    assert decoded.returncode == 0 and decoded.stdout == verified.stdout, decoded.stderr
    assert telenorid("decode", id_token[:-4] + "AAAA", *flags).returncode == 1
    assert not (tmp_path / "none.json").exists(), "verifying keeps nothing"


def test_logout_revokes_and_deletes_the_state(provider, tmp_path):
    state_file = tmp_path / "state.json"
    user = provider["user"]
    login = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                      "--port", "53682", "--timeout", "60", "--state-file", str(state_file),
                      "--browser-command", follow_command(user))
    assert login.returncode == 0, login.stderr
    logout = telenorid("logout", "--state-file", str(state_file))
    assert logout.returncode == 0, logout.stderr
    assert "end_session" in logout.stdout or "logout" in logout.stdout
    assert list(tmp_path.iterdir()) == [], "the last account gone, nothing is left"


# A local process that knows the callback path sends its own redirect first; then the browser signs in.
STRAY_THEN_BROWSER = """
import subprocess, sys, urllib.error, urllib.parse, urllib.request
url = sys.argv[-1]
redirect_uri = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["redirect_uri"][0]
try:
    status = urllib.request.urlopen(redirect_uri + "?code=stray&state=not-the-request-state", timeout=10).status
except urllib.error.HTTPError as error:
    status = error.code
with open(sys.argv[1], "w") as file:
    file.write(str(status))
subprocess.run([sys.executable, *sys.argv[2:]], check=True)
"""


def test_login_waits_for_the_redirect_with_its_own_state(provider, tmp_path):
    """The CLI tells the listener the request's state: a stray callback is refused and the wait goes on."""
    user = provider["user"]
    script, stray_status = tmp_path / "stray.py", tmp_path / "stray-status"
    script.write_text(STRAY_THEN_BROWSER)
    login = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                      "--port", "53682", "--timeout", "60", "--state-file", str(tmp_path / "state.json"),
                      "--browser-command",
                      f"{sys.executable} {script} {stray_status} {BROWSER} --follow {user['username']} {user['password']}")
    assert stray_status.read_text() == "400"
    assert login.returncode == 0, login.stderr
    assert json.loads(login.stdout)["iss"] == provider["issuer"]


def test_usage_and_unreachable_provider(tmp_path):
    assert telenorid("login").returncode == 2  # no issuer, no client id
    assert telenorid("frobnicate").returncode == 2
    unreachable = telenorid("login", "--issuer", "http://127.0.0.1:9/o", "--client-id", "x", "--timeout", "1",
                            "--state-file", str(tmp_path / "s.json"), "--browser-command", "true")
    assert unreachable.returncode == 4, unreachable.stderr
    assert "127.0.0.1:9" in unreachable.stderr or "connect" in unreachable.stderr.lower()


def test_help_and_version_need_no_library(tmp_path):
    """README: `--help` and `--version` work where the library cannot be loaded; a command that needs it says
    where it was looked for (exit 1), without a traceback."""
    unloadable = {"TELENORID_LIBRARY": str(tmp_path / "nonexistent" / "libtelenorid.so.0")}
    helped = telenorid("--help", env=unloadable)
    assert helped.returncode == 0 and helped.stdout.startswith("usage: telenorid") and not helped.stderr, helped.stderr
    assert "Exit codes:" in helped.stdout
    version = telenorid("--version", env=unloadable)
    assert version.returncode == 0 and version.stdout.startswith("telenorid 0.") and not version.stderr, version.stderr
    for command in ("status", "token", "login"):
        helped = telenorid(command, "--help", env=unloadable)
        assert helped.returncode == 0 and helped.stdout.startswith(f"usage: telenorid {command}"), helped.stderr
    needed = telenorid("status", "--issuer", "http://127.0.0.1:9", "--client-id", "c", "--state-file",
                       str(tmp_path / "state.json"), env=unloadable)
    assert needed.returncode == 1 and "could not load libtelenorid" in needed.stderr, needed.stderr
    assert "Traceback" not in needed.stderr and "\nTried:\n" in needed.stderr and "nonexistent" in needed.stderr


def test_flags_are_checked_before_anything_runs(tmp_path):
    common = ["--issuer", "http://127.0.0.1:9/o", "--client-id", "x", "--state-file", str(tmp_path / "s.json")]
    for flags, named in ((["--port", "99999"], "--port"), (["--port", "-1"], "--port"), (["--port", "http"], "--port"),
                         (["--timeout", "0"], "--timeout"), (["--timeout", "soon"], "--timeout")):
        run = telenorid("login", *common, *flags)
        assert run.returncode == 2, run.stderr
        assert "Traceback" not in run.stderr
        assert f"argument {named}: " in run.stderr.splitlines()[-1], run.stderr


def test_login_says_what_to_check_when_no_redirect_comes(provider, tmp_path):
    """A client id the provider does not know: its error page stays in the browser and the listener hears
    nothing. After a third of the timeout (under 60 s) the CLI says what to check, naming the redirect URI;
    at the timeout it fails (exit 1, not the "try again later" of a network problem)."""
    running = Running("login", "--issuer", provider["issuer"], "--client-id", "no-such-client", "--timeout", "3",
                      "--state-file", str(tmp_path / "s.json"), "--browser-command", "true")
    waiting = running.wait_for("waiting for the browser")
    redirect_uri = waiting.split(" at ")[1].split(" ")[0]
    started = time.monotonic()
    hint = running.wait_for("nothing has reached", timeout=5)
    assert 0.8 < time.monotonic() - started < 2.0
    assert "'no-such-client'" in hint and f"registered for it: {redirect_uri} " in hint
    assert "RFC 8252" in hint and "--port" in hint
    assert running.process.wait(10) == 1
    errors = running.errors()
    assert errors.count("nothing has reached") == 1 and "Traceback" not in errors
    assert f"no redirect reached {redirect_uri} within 3 s" in errors


def test_a_busy_provider_is_transient_with_its_retry_after(tmp_path):
    """429 is what the library calls transient (telenorid_status_is_transient): exit 4, Retry-After shown."""
    import http.server
    import threading

    class Busy(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(429)
            self.send_header("Retry-After", "17")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Busy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        busy = telenorid("login", "--issuer", f"http://127.0.0.1:{server.server_address[1]}", "--client-id", "x",
                         "--timeout", "1", "--state-file", str(tmp_path / "s.json"), "--browser-command", "true")
    finally:
        server.shutdown()
        server.server_close()
    assert busy.returncode == 4, busy.stderr
    assert "429" in busy.stderr and "retry after=17" in busy.stderr


def assert_stopped_cleanly(running, code, took):
    errors = running.errors()
    assert code == 130, errors
    assert took < 1.0, f"exited {took:.2f} s after SIGINT"
    assert "Traceback" not in errors and "KeyboardInterrupt" not in errors, errors
    assert errors.splitlines()[-1] == "telenorid: stopped (Ctrl-C)", errors


def test_ctrl_c_while_waiting_for_the_browser(provider, tmp_path):
    running = Running("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                      "--timeout", "120", "--state-file", str(tmp_path / "s.json"), "--browser-command", "true")
    running.wait_for("waiting for the browser")
    time.sleep(0.3)
    assert_stopped_cleanly(running, *running.interrupt())
    assert not (tmp_path / "s.json").exists()


def test_ctrl_c_during_a_hung_http_call(tmp_path):
    """A provider that takes the connection and never answers: discovery blocks in the library until Ctrl-C
    cancels it."""
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    try:
        running = Running("login", "--issuer", f"http://127.0.0.1:{silent.getsockname()[1]}", "--client-id", "x",
                          "--state-file", str(tmp_path / "s.json"), "--browser-command", "true")
        running.wait_for("discovering")
        time.sleep(0.5)
        assert running.process.poll() is None, "the call is under way"
        assert_stopped_cleanly(running, *running.interrupt())
    finally:
        silent.close()


def test_login_without_a_browser_reads_the_address_the_browser_ended_on(provider, tmp_path):
    """`--no-browser`: the URL is printed, another machine's browser (browser.py) signs in and ends on the
    redirect, whose address the user pastes; no listener runs, and the default redirect URI is the fixed
    loopback one the provider has registered."""
    user = provider["user"]
    state_file = tmp_path / "state.json"
    running = Running("login", "--no-browser", "--issuer", provider["issuer"],
                      "--client-id", provider["clients"]["public"]["client_id"], "--state-file", str(state_file),
                      stdin=subprocess.PIPE)
    running.wait_for("open this URL in a browser")
    url = running.lines.get(timeout=10).strip()
    assert url.startswith(provider["issuer"]) and "redirect_uri=http%3A%2F%2F127.0.0.1%3A53682%2Fcallback" in url
    running.wait_for("Paste the whole address")
    redirect = subprocess.run([sys.executable, str(BROWSER), url, user["username"], user["password"]],
                              capture_output=True, text=True, timeout=60, check=True).stdout.strip()
    assert redirect.startswith("http://127.0.0.1:53682/callback?code=")
    running.process.stdin.write(redirect + "\n")
    running.process.stdin.close()
    assert running.process.wait(30) == 0, running.errors()
    assert json.loads(running.process.stdout.read())["iss"] == provider["issuer"]
    assert "signed in" in running.errors()
    assert telenorid("token", "--state-file", str(state_file)).returncode == 0


def test_login_without_a_browser_refuses_a_pasted_address_of_another_request(provider, tmp_path):
    run = subprocess.run([sys.executable, "-m", "telenorid", "login", "--no-browser", "--issuer", provider["issuer"],
                          "--client-id", provider["clients"]["public"]["client_id"], "--redirect-uri",
                          "http://127.0.0.1:53682/callback", "--state-file", str(tmp_path / "s.json")],
                         input="http://127.0.0.1:53682/callback?code=c&state=not-this-request\n", capture_output=True,
                         text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python")))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "state" in run.stderr.splitlines()[-1]
    assert not (tmp_path / "s.json").exists()
    nothing = telenorid("login", "--redirect-uri", "http://127.0.0.1:53682/callback", "--issuer", provider["issuer"],
                        "--client-id", "x", "--state-file", str(tmp_path / "s.json"))
    assert nothing.returncode == 2 and "--no-browser" in nothing.stderr


def test_status_when_nothing_is_kept(tmp_path):
    state_file = tmp_path / "state.json"
    as_json = telenorid("status", "--json", "--state-file", str(state_file))
    assert as_json.returncode == 3, as_json.stderr
    assert json.loads(as_json.stdout) == {"signed_in": False, "state_file": str(state_file)}
    as_text = telenorid("status", "--state-file", str(state_file))
    assert as_text.returncode == 3 and as_text.stdout.startswith("not signed in")
    assert not state_file.exists()


def test_a_settings_file_holding_the_client_secret_is_read_then_rewritten_without_it(tmp_path):
    """Settings files from before the secret moved to TELENORID_CLIENT_SECRET still work; the first command
    that reads one warns and rewrites it without the secret, keeping the rest."""
    state_file = tmp_path / "state.json"
    settings = {"issuer": "http://127.0.0.1:9/o", "client_id": "x", "redirect_uri": "http://127.0.0.1:53682/callback",
                "client_secret": "kept-in-clear"}
    (tmp_path / "state.settings.json").write_text(json.dumps(settings))
    first = telenorid("status", "--state-file", str(state_file))
    assert first.returncode == 3, first.stderr
    assert first.stderr.count("TELENORID_CLIENT_SECRET") == 1 and "kept-in-clear" not in first.stderr
    assert b"kept-in-clear" not in (tmp_path / "state.settings.json").read_bytes()
    del settings["client_secret"]
    assert json.loads((tmp_path / "state.settings.json").read_text()) == settings
    assert stat.S_IMODE((tmp_path / "state.settings.json").stat().st_mode) == 0o600
    again = telenorid("status", "--state-file", str(state_file))
    assert again.returncode == 3 and "TELENORID_CLIENT_SECRET" not in again.stderr
    assert not state_file.exists(), "status creates nothing"


def test_completion_scripts_are_generated_from_the_parser(tmp_path):
    commands = ["login", "status", "token", "userinfo", "refresh", "revoke", "logout", "accounts", "verify", "decode",
                "completion"]
    bash = telenorid("completion", "bash")
    assert bash.returncode == 0, bash.stderr
    (tmp_path / "telenorid.bash").write_text(bash.stdout)
    assert subprocess.run(["bash", "-n", str(tmp_path / "telenorid.bash")]).returncode == 0
    assert "complete -o default -F _telenorid telenorid" in bash.stdout
    assert all(f"        {name}) " in bash.stdout for name in commands)
    assert "--client-secret" in bash.stdout and "--no-browser" in bash.stdout and "--json" in bash.stdout
    # Completing in a real bash: the subcommands, then a subcommand's flags.
    probe = (f"source {tmp_path / 'telenorid.bash'}; COMP_WORDS=(telenorid st); COMP_CWORD=1; _telenorid; "
             "echo ${COMPREPLY[@]}; COMP_WORDS=(telenorid login --no-b); COMP_CWORD=2; _telenorid; echo ${COMPREPLY[@]}")
    assert subprocess.run(["bash", "-c", probe], capture_output=True, text=True).stdout.split("\n")[:2] == \
        ["status", "--no-browser"]
    zsh = telenorid("completion", "zsh")
    assert zsh.returncode == 0 and zsh.stdout.startswith("#compdef telenorid\n")
    assert all(f"        {name}) _arguments " in zsh.stdout for name in commands)
    assert "'1:shell:(bash zsh)'" in zsh.stdout
    assert "'1:action:(list remove)'" in zsh.stdout and "--account" in zsh.stdout and "--account" in bash.stdout
    assert telenorid("completion", "fish").returncode == 2
    assert "telenorid completion bash > " in telenorid("--help").stdout


def test_a_confidential_client_secret_comes_from_the_environment_and_json_everywhere(provider, tmp_path):
    """`login --client-secret` uses the secret for that sign-in only: no file holds it, and the commands after
    it (refreshing, revoking) read it from TELENORID_CLIENT_SECRET. Every command's --json prints one JSON
    document on standard output."""
    client = provider["clients"]["confidential"]
    secret = client["client_secret"]
    user = provider["user"]
    state_file = tmp_path / "state.json"
    common = ["--state-file", str(state_file), "--json"]
    with_secret = {"TELENORID_CLIENT_SECRET": secret}
    login = telenorid("login", "--issuer", provider["issuer"], "--client-id", client["client_id"],
                      "--client-secret", secret, "--scope", "openid profile", "--port", "53682", "--timeout", "60",
                      *common, "--browser-command",
                      follow_command(user))
    assert login.returncode == 0, login.stderr
    claims = json.loads(login.stdout)
    assert claims["iss"] == provider["issuer"] and claims["aud"] in (client["client_id"], [client["client_id"]])
    assert "TELENORID_CLIENT_SECRET" in login.stderr and secret not in login.stderr
    for path in tmp_path.rglob("*"):
        assert secret.encode() not in path.read_bytes(), path

    status = telenorid("status", *common)
    assert status.returncode == 0, status.stderr
    shown = json.loads(status.stdout)
    assert shown.pop("expires_at") > time.time() and 0 < shown.pop("expires_in") <= 300
    account = shown.pop("account")
    assert account and account_record(state_file).name == f"state.{account}.json"
    assert shown == {"signed_in": True, "subject": claims["sub"], "issuer": provider["issuer"],
                     "scopes": ["openid", "profile"], "token_type": "Bearer", "state_file": str(state_file)}
    text = telenorid("status", "--state-file", str(state_file))
    assert text.returncode == 0 and f"signed in as {claims['sub']} at {provider['issuer']}" in text.stdout
    assert "Bearer" in text.stdout and "access token: expires " in text.stdout and " s)" in text.stdout

    # A refresh margin longer than the token's life makes `token` refresh, which the provider allows only
    # to this client authenticated with its secret.
    always_refresh = tmp_path / "refresh.json"
    always_refresh.write_text(json.dumps({"refresh_margin_s": 3600}))
    record = account_record(state_file)
    before = json.loads(record.read_text())["refresh_token"]
    without = telenorid("token", "--config", str(always_refresh), *common)
    assert without.returncode == 1 and "invalid_client" in without.stderr and without.stdout == ""
    token = telenorid("token", "--config", str(always_refresh), *common, env=with_secret)
    assert token.returncode == 0, token.stderr
    assert json.loads(record.read_text())["refresh_token"] != before, "refreshed with the secret"
    issued = json.loads(token.stdout)
    assert issued["access_token"] and issued["token_type"] == "Bearer" and issued["expires_in"] > 0
    assert set(issued) == {"access_token", "token_type", "expires_at", "expires_in"}

    refreshed = telenorid("refresh", *common, env=with_secret)
    assert refreshed.returncode == 0 and json.loads(refreshed.stdout)["refreshed"] is True, refreshed.stderr
    userinfo = telenorid("userinfo", *common, env=with_secret)
    assert userinfo.returncode == 0 and json.loads(userinfo.stdout)["sub"] == claims["sub"], userinfo.stderr
    verified = telenorid("verify", json.loads(record.read_text())["id_token"], *common)
    assert verified.returncode == 0 and json.loads(verified.stdout)["claims"]["sub"] == claims["sub"]
    logout = telenorid("logout", *common, env=with_secret)
    assert logout.returncode == 0, logout.stderr
    assert json.loads(logout.stdout)["signed_in"] is False and not record.exists()
