"""The `telenorid` command's accounts: every sign-in of a state file is an account of one registry (the
library's Accounts), kept in the store `login` chose. A sign-in lives in exactly one record, never copied:
a provider that rotates refresh tokens revokes the whole grant when a redeemed one comes back (RFC 6819
§5.2.2.3), so a second copy of the refresh token would sign the user out.

- Secret Service: the registry ``cli-<hash>.accounts`` and each account's record ``cli-<hash>.<id>``.
- file: ``<dir>/<stem>.accounts.json`` and ``<dir>/<stem>.<id>.json`` beside the state file ``<dir>/<stem>.json``.

The state file's own record (``<dir>/<stem>.json``, or the Secret Service record ``cli-<hash>``) holds a
sign-in only when it has no ID token to name its user (some providers' device grant): an account is a user
at an issuer, so such a sign-in is kept alone there, and a later sign-in replaces it. A sign-in with an ID
token found there (as earlier versions kept every sign-in) is taken up as an account once.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

import telenorid

from .cli_settings import (SECRET_KEY, SECRET_VARIABLE, STORE_KEY, UsageError, client_for, emit, remove_files,
                           printable, save_settings, say, settings_from, settings_path)
from .cli_store import (FILE, forget_secret_service, is_kept, kept_in, open_state, record_key, saved_settings,
                        secret_service)

if TYPE_CHECKING:  # store.py loads the library, which `telenorid --help` and `--version` must not need
    from .store import HostStore


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--account", metavar="ID", help="the account to use (`telenorid accounts` lists them; "
                                                        "default: the most recently used)")


def registry_of(args: argparse.Namespace, settings: Dict[str, Any]) -> Tuple[HostStore, str]:
    """The store holding the state file's accounts and the registry's name in it."""
    if kept_in(args, settings) == FILE:
        return telenorid.DirectoryStore(args.state_file.parent), args.state_file.stem
    return secret_service(args), record_key(args.state_file)


def open_registry(args: argparse.Namespace, client: telenorid.Client, settings: Dict[str, Any]) -> telenorid.Accounts:
    """The registry, after taking up a sign-in with an ID token that an earlier version kept in the state file."""
    store, name = registry_of(args, settings)
    accounts = client.open_accounts(store, name)
    single = single_sign_in(args, client, settings)
    if single is not None and single.id_token_claims is not None:
        account_id = accounts.add(single)  # now bound to its account's record alone
        drop_single(args, settings)
        say(f"the sign-in kept in {args.state_file} is now account {account_id} (`telenorid accounts` lists them)")
    return accounts


def single_sign_in(args: argparse.Namespace, client: telenorid.Client,
                   settings: Dict[str, Any]) -> Optional[telenorid.AuthState]:
    """The sign-in kept in the state file's own record, if one is (opening a file that is not there would
    create it)."""
    if not is_kept(args, settings):
        return None
    state = open_state(args, client, settings)
    return state if state.signed_in else None


def drop_single(args: argparse.Namespace, settings: Dict[str, Any]) -> None:
    if kept_in(args, settings) == FILE:
        remove_record_files(args.state_file)
    else:
        secret_service(args).remove(record_key(args.state_file))


def remove_record_files(path: Path) -> None:
    for each in (path, Path(str(path) + ".lock"), Path(str(path) + ".update.lock")):
        each.unlink(missing_ok=True)


def chosen(args: argparse.Namespace, client: telenorid.Client,
           settings: Dict[str, Any]) -> Tuple[Optional[str], telenorid.AuthState]:
    """(account id, its sign-in) for --account, else the sign-in without an ID token if one is kept (the
    latest login made it), else the most recently used account; (None, ...) for the sign-in without one."""
    accounts = open_registry(args, client, settings)
    account_id: Optional[str] = getattr(args, "account", None)
    if account_id is None:
        single = single_sign_in(args, client, settings)
        if single is not None:
            return None, single
        listed = accounts.list()
        if not listed:
            raise telenorid.NotSignedInError(f"no account is signed in at {args.state_file}",
                                             telenorid.NotSignedInError.code)
        account_id = listed[0].id
    elif account_id not in {account.id for account in accounts.list()}:
        raise telenorid.NotSignedInError(f"no account {account_id!r} at {args.state_file} (`telenorid accounts` "
                                         f"lists them)", telenorid.NotSignedInError.code)
    return account_id, accounts.select(account_id)


# What revoke, logout and `accounts remove` say at a provider without a revocation endpoint.
NOT_REVOKED = ("the provider has no revocation endpoint (RFC 7009), so it cannot revoke the sign-in: "
               "its refresh token stays valid there until it expires")


def remove(args: argparse.Namespace, client: telenorid.Client, settings: Dict[str, Any],
           account_id: Optional[str], state: telenorid.AuthState, keep_settings: bool = False) -> bool:
    """Signs out and revokes (RFC 7009) the chosen sign-in and drops its record; with the last one gone, the
    kept client secret goes too, and the settings unless `keep_settings` (`revoke` keeps them: they are not
    secret, and the next `telenorid login` signs in with them). Returns whether the provider revoked it: False
    at a provider without a revocation endpoint, where signing out here is all there is to do. A failed revocation still
    drops it, then raises."""
    store, name = registry_of(args, settings)
    accounts = client.open_accounts(store, name)
    try:
        try:
            if account_id is None:
                state.revoke()
            else:
                accounts.remove(account_id)
        except telenorid.ConfigurationError:
            # The library signs out first, then needs the endpoint: CONFIGURATION when it has none. Told apart
            # from the other configuration errors by asking for the endpoint (discovery is cached), not by
            # reading the message.
            if revocation_endpoint(client) is not None:
                raise
            return False
        return True
    finally:
        if account_id is None:
            drop_single(args, settings)
        elif isinstance(store, telenorid.DirectoryStore):
            remove_record_files(args.state_file.with_name(f"{name}.{account_id}.json"))
        else:
            secret_service(args).remove(f"{name}.{account_id}")
        if not accounts.list() and single_sign_in(args, client, settings) is None:
            forget_all(args, settings, name, keep_settings)


def revocation_endpoint(client: telenorid.Client) -> Optional[str]:
    """The revocation endpoint configured or discovered; None when the provider has none."""
    with client.config() as config:
        return config.get("revocation_endpoint")


def forget_all(args: argparse.Namespace, settings: Dict[str, Any], name: str, keep_settings: bool = False) -> None:
    if kept_in(args, settings) == FILE:
        remove_record_files(args.state_file.with_name(f"{name}.accounts.json"))
    else:
        forget_secret_service(args, record_key(args.state_file))
        secret_service(args).remove(f"{name}.accounts")
    if keep_settings:
        remove_record_files(args.state_file)
    else:
        remove_files(args.state_file)


def keep(args: argparse.Namespace, state: telenorid.AuthState, settings: Dict[str, Any]) -> None:
    """After `login`: saves the settings, binds the new sign-in to its account's record (replacing the same
    user's) or, without an ID token, to the state file's own record, and keeps or forgets the client secret;
    what an earlier sign-in left in the other store is removed."""
    key = record_key(args.state_file)
    if args.store == FILE:
        forget_secret_service(args, key)
    save_settings(args.state_file, {**settings, STORE_KEY: args.store})
    with client_for(settings) as client:
        accounts = open_registry(args, client, settings)
        store, name = registry_of(args, settings)
        where = "the Secret Service" if args.store != FILE else str(args.state_file)
        if state.id_token_claims is None:
            if args.store == FILE:
                state.bind_file(str(args.state_file))
            else:
                state.bind_store(store, key)
            say(f"signed in; kept in {where} alone until the next login: the provider gave no ID token to name "
                f"the user, and an account is a user at an issuer")
        else:
            replaced = single_sign_in(args, client, settings)
            account_id = accounts.add(state)
            if replaced is not None:
                drop_single(args, settings)  # the sign-in without an ID token gives way, as every login's did
            if args.store == FILE:
                where = f"{args.state_file.with_name(f'{name}.{account_id}.json')} (mode 0600)"
            say(f"signed in as account {account_id}; state saved to {where}")
    if args.store == FILE:
        if getattr(args, "client_secret", None):
            say(f"the client secret was used for this sign-in only and is not saved: the commands after it "
                f"(token, refresh, userinfo...) read it from {SECRET_VARIABLE}")
        return
    say(f"settings in {settings_path(args.state_file)}")
    secret: Optional[str] = settings.get(SECRET_KEY)
    if secret:
        secret_service(args).store(key + ".client-secret", secret.encode())
        say(f"the client secret is kept in the Secret Service too: the commands after this one need no "
            f"{SECRET_VARIABLE}")
    else:
        secret_service(args).remove(key + ".client-secret")


def list_accounts(args: argparse.Namespace) -> int:
    """`telenorid accounts [list]` and `telenorid accounts remove ID`."""
    if args.action == "list" and args.account_id:
        raise UsageError("`telenorid accounts` lists; `telenorid accounts remove ID` removes")
    settings = settings_from(args, saved_settings(args))
    with client_for(settings) as client:
        if args.action == "remove":
            if not args.account_id:
                raise UsageError("`telenorid accounts remove` needs the account's ID")
            args.account = args.account_id
            account_id, state = chosen(args, client, settings)
            revoked = remove(args, client, settings, account_id, state)
            say(f"account {account_id} revoked at the provider and removed" if revoked else
                f"account {account_id} signed out and removed here, not revoked: {NOT_REVOKED}")
            emit(args, {"removed": account_id, "revoked": revoked}, None)
            return 0
        listed = open_registry(args, client, settings).list()
    rows: List[Dict[str, Any]] = [
        {"id": account.id, "issuer": account.issuer, "subject": account.subject, "name": account.name,
         "preferred_username": account.preferred_username, "email": account.email, "last_used": account.last_used}
        for account in listed]
    # Each value from outside (the ID token's claims) escaped whole: a line break in one forges no row.
    text = "\n".join(
        f"{printable(row['id'])}  {printable(row['subject'])} at {printable(row['issuer'])}"
        + "".join(f"  {printable(row[key])}" for key in ("name", "preferred_username", "email") if row[key])
        + f"  last used {time.strftime('%Y-%m-%d %H:%M', time.localtime(row['last_used']))}" for row in rows)
    emit(args, rows, text or f"no accounts at {args.state_file}")
    return 0


def add_command(commands: Any, common: argparse.ArgumentParser) -> None:
    listing = commands.add_parser("accounts", parents=[common], help="list the accounts signed in, or remove one")
    listing.add_argument("action", nargs="?", choices=("list", "remove"), default="list")
    listing.add_argument("account_id", nargs="?", metavar="ID")
    listing.set_defaults(run=list_accounts)

