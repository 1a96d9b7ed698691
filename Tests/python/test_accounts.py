"""Accounts against the real provider (django-oauth-toolkit, two users): add, list, select, remove (revoking
at the provider), the same user signing in again, two processes adding at once, and the binding's checks."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

import telenorid

from browser import complete_login  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
REDIRECT = "http://127.0.0.1:53682/callback"

# Restores a serialized state and adds it to the registry when the go file appears.
WORKER = r"""
import os, sys, time, telenorid
issuer, client_id, directory, go, serialized = sys.argv[1:6]
config = telenorid.Config.from_settings(issuer=issuer, client_id=client_id, redirect_uri="http://127.0.0.1:53682/callback")
with telenorid.Client(config) as client:
    accounts = client.open_accounts(telenorid.DirectoryStore(directory), "app")
    state = client.restore(serialized)
    while not os.path.exists(go):
        time.sleep(0.005)
    print(accounts.add(state))
"""


def client_for(provider):
    return telenorid.Client(telenorid.Config.from_settings(
        issuer=provider["issuer"], client_id=provider["clients"]["public"]["client_id"], redirect_uri=REDIRECT,
        scope="openid profile email"))


def sign_in(client, user):
    pending = telenorid.AuthorizationRequest(client.config()).build()
    return client.exchange_code(pending.handle_callback(complete_login(pending.url, user["username"],
                                                                       user["password"])))


def userinfo_status(provider, access_token):
    return requests.get(f"{provider['issuer']}/userinfo/", headers={"Authorization": f"Bearer {access_token}"},
                        timeout=10).status_code


def test_add_list_select_and_remove_two_users(provider, tmp_path):
    with client_for(provider) as client:
        accounts = client.open_accounts(telenorid.DirectoryStore(tmp_path), "app")
        assert accounts.list() == []
        alice_id = accounts.add(sign_in(client, provider["user"]))
        bob_id = accounts.add(sign_in(client, provider["second_user"]))
        # The same user signing in again replaces their account.
        assert accounts.add(sign_in(client, provider["user"])) == alice_id
        listed = accounts.list()
        assert [account.id for account in listed] == [alice_id, bob_id]
        alice, bob = listed
        assert (alice.preferred_username, alice.email, bob.preferred_username) == ("alice", "alice@example.com", "bob")
        assert alice.issuer == provider["issuer"] and alice.subject and alice.subject != bob.subject
        assert alice.last_used >= bob.last_used > 0

        # Another process's view: a second registry handle on the same store.
        with client_for(provider) as other:
            again = other.open_accounts(telenorid.DirectoryStore(tmp_path), "app")
            state = again.select(bob_id)
            token = state.fresh_access_token()
            assert userinfo_status(provider, token) == 200
            assert [account.id for account in again.list()] == [bob_id, alice_id]

            again.remove(bob_id)
            assert userinfo_status(provider, token) == 401  # revoked at the provider
            assert [account.id for account in accounts.list()] == [alice_id]
            with pytest.raises(telenorid.NotSignedInError):
                state.refresh()  # the account's record is signed out
            with pytest.raises(telenorid.NotSignedInError):
                accounts.select(bob_id)
            with pytest.raises(telenorid.NotSignedInError):
                accounts.remove(bob_id)


def test_two_processes_adding_at_once_lose_nothing(provider, tmp_path):
    with client_for(provider) as client:
        serialized = [sign_in(client, provider[user]).serialize() for user in ("user", "second_user")]
        go = tmp_path / "go"
        env = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
        workers = [subprocess.Popen([sys.executable, "-c", WORKER, provider["issuer"],
                                     provider["clients"]["public"]["client_id"], str(tmp_path), str(go), each],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
                   for each in serialized]
        time.sleep(1.0)  # both have opened the registry
        go.touch()
        ids = []
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
            ids.append(out.strip())
        accounts = client.open_accounts(telenorid.DirectoryStore(tmp_path), "app")
        assert sorted(account.id for account in accounts.list()) == sorted(ids) and len(set(ids)) == 2


def test_the_binding_checks_its_arguments(provider, tmp_path):
    with client_for(provider) as client:
        accounts = client.open_accounts(telenorid.DirectoryStore(tmp_path), "app")
        with pytest.raises(TypeError):
            accounts.add("not a state")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            accounts.select(7)  # type: ignore[arg-type]
        with pytest.raises(telenorid.InvalidArgumentError):
            client.open_accounts(telenorid.DirectoryStore(tmp_path), "../escape")
        (tmp_path / "bad.accounts.json").write_text('{"version": 2}')
        with pytest.raises(telenorid.MalformedError):
            client.open_accounts(telenorid.DirectoryStore(tmp_path), "bad")
        with pytest.raises(telenorid.NotSignedInError):
            accounts.add(client.open_store(telenorid.DirectoryStore(tmp_path), "nobody"))
