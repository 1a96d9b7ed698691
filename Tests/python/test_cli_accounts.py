"""`telenorid accounts` and `--account` against django-oauth-toolkit: two users signed in through one state
file, each an account of its own record, chosen by id or by last use, and removed with a revocation the
provider honours."""
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from conftest import follow_command


ROOT = Path(__file__).resolve().parents[2]


def telenorid(*args):
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"), TELENORID_STORE="file")
    return subprocess.run([sys.executable, "-m", "telenorid", *args], capture_output=True, text=True, timeout=120,
                          env=environment)


def login(provider, user, state_file):
    done = telenorid("login", "--issuer", provider["issuer"], "--client-id", provider["clients"]["public"]["client_id"],
                     "--scope", "openid profile email", "--port", "53682", "--timeout", "60",
                     "--state-file", str(state_file), "--json", "--browser-command",
                     follow_command(user))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["sub"]


def userinfo_status(provider, access_token):
    """The provider's own answer to `access_token` at its userinfo endpoint: 200, or the refusal's status."""
    with urllib.request.urlopen(provider["issuer"] + "/.well-known/openid-configuration", timeout=10) as answer:
        endpoint = json.load(answer)["userinfo_endpoint"]
    request = urllib.request.Request(endpoint, headers={"Authorization": f"Bearer {access_token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_two_users_are_two_accounts_chosen_by_id_or_last_use(provider, tmp_path):
    state_file = tmp_path / "state.json"
    common = ["--state-file", str(state_file)]
    assert telenorid("token", *common).returncode == 3
    alice = login(provider, provider["user"], state_file)
    bob = login(provider, provider["second_user"], state_file)
    assert alice != bob

    listed = telenorid("accounts", "--json", *common)
    assert listed.returncode == 0, listed.stderr
    accounts = json.loads(listed.stdout)
    assert [account["subject"] for account in accounts] == [bob, alice], "most recently used first"
    assert all(account["issuer"] == provider["issuer"] and account["last_used"] > 0 for account in accounts)
    ids = {account["subject"]: account["id"] for account in accounts}
    assert sorted(path.name for path in tmp_path.iterdir() if path.name.endswith(".json")) == sorted(
        ["state.settings.json", "state.accounts.json", f"state.{ids[alice]}.json", f"state.{ids[bob]}.json"])
    for subject in (alice, bob):  # one record holds each sign-in
        assert json.loads((tmp_path / f"state.{ids[subject]}.json").read_text())["refresh_token"]
    text = telenorid("accounts", *common)
    assert text.returncode == 0 and text.stdout.splitlines()[0].startswith(f"{ids[bob]}  {bob} at ")

    # The default is the most recently used account; --account picks one, which becomes the most recent.
    assert json.loads(telenorid("userinfo", "--json", *common).stdout)["sub"] == bob
    picked = telenorid("userinfo", "--json", f"--account={ids[alice]}", *common)
    assert picked.returncode == 0 and json.loads(picked.stdout)["sub"] == alice, picked.stderr
    latest = telenorid("status", "--json", *common)
    assert latest.returncode == 0 and json.loads(latest.stdout)["account"] == ids[alice], latest.stderr
    named = telenorid("status", "--json", f"--account={ids[bob]}", *common)
    assert named.returncode == 0 and json.loads(named.stdout)["subject"] == bob, named.stderr
    unknown = telenorid("token", "--account", "no-such-acct", *common)
    assert unknown.returncode == 3 and "telenorid accounts" in unknown.stderr

    # The same user signing in again replaces their account.
    assert login(provider, provider["second_user"], state_file) == bob
    assert len(json.loads(telenorid("accounts", "--json", *common).stdout)) == 2

    # Removing an account revokes its grant at the provider: its access token is refused there.
    bob_token = telenorid("token", f"--account={ids[bob]}", *common).stdout.strip()
    assert userinfo_status(provider, bob_token) == 200
    removed = telenorid("accounts", *common, "remove", "--", ids[bob])
    assert removed.returncode == 0, removed.stderr
    assert userinfo_status(provider, bob_token) == 401
    assert [account["id"] for account in json.loads(telenorid("accounts", "--json", *common).stdout)] == [ids[alice]]
    assert not (tmp_path / f"state.{ids[bob]}.json").exists()
    assert telenorid("token", f"--account={ids[bob]}", *common).returncode == 3
    assert json.loads(telenorid("userinfo", "--json", *common).stdout)["sub"] == alice

    # `revoke` of the last account removes it too; then nothing is signed in.
    assert telenorid("revoke", *common).returncode == 0
    assert telenorid("token", *common).returncode == 3
    assert telenorid("status", *common).returncode == 3


def test_a_state_file_of_an_earlier_version_is_taken_up_once(provider, tmp_path):
    """A state file holding the sign-in itself (as earlier versions kept it) becomes an account on the first
    command, said once; the old file is gone, so no second copy of the refresh token is left."""
    state_file = tmp_path / "state.json"
    login(provider, provider["user"], state_file)
    [record] = [path for path in tmp_path.glob("state.*.json")
                if path.name not in ("state.settings.json", "state.accounts.json")]
    os.replace(record, state_file)  # the layout of earlier versions: the sign-in in the state file
    (tmp_path / "state.accounts.json").unlink()
    first = telenorid("userinfo", "--json", "--state-file", str(state_file))
    assert first.returncode == 0, first.stderr
    assert first.stderr.count("is now account") == 1 and not state_file.exists()
    again = telenorid("token", "--state-file", str(state_file))
    assert again.returncode == 0 and "is now account" not in again.stderr
    assert len(json.loads(telenorid("accounts", "--json", "--state-file", str(state_file)).stdout)) == 1


def test_status_of_an_account_reads_it_without_making_it_the_default(provider, tmp_path):
    """`status --account ID` changes nothing: the default stays the most recently used account, and the
    registry (its order, every last-used time) is as before; a command that uses the account selects it."""
    state_file = tmp_path / "state.json"
    common = ["--state-file", str(state_file)]
    alice = login(provider, provider["user"], state_file)
    bob = login(provider, provider["second_user"], state_file)
    before = json.loads(telenorid("accounts", "--json", *common).stdout)
    ids = {account["subject"]: account["id"] for account in before}
    registry = (tmp_path / "state.accounts.json").read_bytes()

    shown = telenorid("status", "--json", f"--account={ids[alice]}", *common)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["subject"] == alice and json.loads(shown.stdout)["account"] == ids[alice]
    text = telenorid("status", f"--account={ids[alice]}", *common)
    assert text.returncode == 0 and f"signed in as {alice} " in text.stdout
    assert json.loads(telenorid("status", "--json", *common).stdout)["subject"] == bob, "the default is unchanged"
    assert json.loads(telenorid("accounts", "--json", *common).stdout) == before
    assert (tmp_path / "state.accounts.json").read_bytes() == registry, "status wrote nothing"

    # Using the account is what selects it.
    assert telenorid("token", f"--account={ids[alice]}", *common).returncode == 0
    assert json.loads(telenorid("status", "--json", *common).stdout)["subject"] == alice


def test_an_account_id_that_starts_with_a_dash_is_given_joined_or_after_double_dash(provider, tmp_path):
    """An account id is base64url, so one starts with "-" now and then, which argparse reads as an option: the
    id is given as --account=-ID, or after "--" to `accounts remove`, and the help says so. An id no account
    has shows that it reached the command: "no account" (exit 3), not a usage error (exit 2)."""
    state_file = tmp_path / "state.json"
    common = ["--state-file", str(state_file)]
    alice = login(provider, provider["user"], state_file)
    dashed = "-" + "A" * 11  # 12 characters, as an id is; no account has it
    joined = telenorid("token", f"--account={dashed}", *common)
    assert joined.returncode == 3 and f"no account {dashed!r}" in joined.stderr, joined.stderr
    apart = telenorid("token", "--account", dashed, *common)
    assert apart.returncode == 2 and "expected one argument" in apart.stderr
    removed = telenorid("accounts", *common, "remove", "--", dashed)  # after "--" every word is a positional
    assert removed.returncode == 3 and f"no account {dashed!r}" in removed.stderr, removed.stderr
    assert [account["subject"] for account in json.loads(telenorid("accounts", "--json", *common).stdout)] == [alice]
    assert "--account=-ID" in " ".join(telenorid("token", "--help").stdout.split())
    assert "remove -- -ID" in " ".join(telenorid("accounts", "--help").stdout.split())
    assert "--account=-ID" in " ".join(telenorid("--help").stdout.split())
