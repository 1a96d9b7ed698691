"""The `telenorid` command's accounts: every sign-in of a state file is an account of one registry (the
library's Accounts), kept in the store `login` chose. A sign-in lives in exactly one record, never copied:
a provider that rotates refresh tokens revokes the whole grant when a redeemed one comes back (RFC 6819
§5.2.2.3), so a second copy of the refresh token would sign the user out.

Which record holds a sign-in (files or the Secret Service, and their names) is cli_store.py's Place.

The state file's own record (the single sign-in of cli_store.py's table) holds a sign-in only when it has no
ID token to name its user (some providers' device grant): an account is a user at an issuer, so such a
sign-in is kept alone there, and a later sign-in replaces it. A sign-in with an ID
token found there (as earlier versions kept every sign-in) is taken up as an account once.
"""
from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, NamedTuple, Optional

import telenorid

from .cli_settings import (SECRET_KEY, STORE_KEY, UsageError, client_for, emit, printable, save_settings, say,
                           settings_from)
from .cli_store import Place, saved_settings


# An account id is base64url (AccountRegistry.id), so one in 64 starts with "-", which argparse takes for an
# option: such an id is given joined to its option (--account=-ID) or after "--" (accounts remove -- -ID, the
# options before it: after "--" every word is a positional).
def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--account", metavar="ID", help="the account to use (telenorid accounts lists them; "
                                                        "default: the most recently used); an ID that starts "
                                                        "with - is given as --account=-ID")


def open_registry(place: Place, client: telenorid.Client) -> telenorid.Accounts:
    """The registry, after taking up a sign-in with an ID token that an earlier version kept in the state file."""
    accounts = place.open_accounts(client)
    single = single_sign_in(place, client)
    if single is not None and single.id_token_claims is not None:
        account_id = accounts.add(single)  # now bound to its account's record alone
        place.drop_single()
        say(f"the sign-in kept in {place.state_file} is now account {account_id} (`telenorid accounts` lists them)")
    return accounts


def single_sign_in(place: Place, client: telenorid.Client) -> Optional[telenorid.AuthState]:
    """The sign-in kept in the state file's own record, if one is (opening a file that is not there would
    create it)."""
    if not place.has_single():
        return None
    state = place.open_single(client)
    return state if state.signed_in else None


class Chosen(NamedTuple):
    """A sign-in a command works on: the account's id (None for the single sign-in without an ID token), its
    auth state, and the place that keeps it."""
    account_id: Optional[str]
    state: telenorid.AuthState
    place: Place


def chosen(args: argparse.Namespace, client: telenorid.Client, settings: Dict[str, Any],
           select: bool = True) -> Chosen:
    """The sign-in of --account, else the sign-in without an ID token if one is kept (the latest login made it),
    else the most recently used account. `select`: the account becomes the most recently used, as using it
    does; `status` only reads it."""
    place = Place.of(args, settings)
    accounts = open_registry(place, client)
    account_id: Optional[str] = getattr(args, "account", None)
    if account_id is None:
        single = single_sign_in(place, client)
        if single is not None:
            return Chosen(None, single, place)
        listed = accounts.list()
        if not listed:
            raise telenorid.NotSignedInError(f"no account is signed in at {args.state_file}",
                                             telenorid.NotSignedInError.code)
        account_id = listed[0].id
    elif account_id not in {account.id for account in accounts.list()}:
        raise telenorid.NotSignedInError(f"no account {account_id!r} at {args.state_file} (`telenorid accounts` "
                                         f"lists them)", telenorid.NotSignedInError.code)
    state = accounts.select(account_id) if select else place.open_account(client, account_id)
    return Chosen(account_id, state, place)


# What revoke, logout and `accounts remove` say at a provider without a revocation endpoint.
NOT_REVOKED = ("the provider has no revocation endpoint (RFC 7009), so it cannot revoke the sign-in: "
               "its refresh token stays valid there until it expires")


def remove(client: telenorid.Client, sign_in: Chosen, keep_settings: bool = False) -> bool:
    """Signs out and revokes (RFC 7009) the chosen sign-in and drops its record; with the last one gone, the
    kept client secret goes too, and the settings unless `keep_settings` (`revoke` keeps them: they are not
    secret, and the next `telenorid login` signs in with them). Returns whether the provider revoked it: False
    at a provider without a revocation endpoint, where signing out here is all there is to do. A failed
    revocation still drops it, then raises."""
    place, account_id = sign_in.place, sign_in.account_id
    accounts = place.open_accounts(client)
    try:
        try:
            if account_id is None:
                sign_in.state.revoke()
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
            place.drop_single()
        else:
            place.drop_account(account_id)
        if not accounts.list() and single_sign_in(place, client) is None:
            place.forget_all(keep_settings)


def revocation_endpoint(client: telenorid.Client) -> Optional[str]:
    """The revocation endpoint configured or discovered; None when the provider has none."""
    with client.config() as config:
        return config.get("revocation_endpoint")


def keep(place: Place, state: telenorid.AuthState, settings: Dict[str, Any], secret_given: bool) -> None:
    """After `login`: saves the settings, binds the new sign-in to its account's record (replacing the same
    user's) or, without an ID token, to the state file's own record, and keeps or forgets the client secret;
    what an earlier sign-in left in the other store is removed."""
    place.leave_other_store()
    save_settings(place.state_file, {**settings, STORE_KEY: place.store})
    with client_for(settings) as client:
        accounts = open_registry(place, client)
        if state.id_token_claims is None:
            place.bind_single(state)
            say(f"signed in; kept in {place.single_record()} alone until the next login: the provider gave no ID "
                f"token to name the user, and an account is a user at an issuer")
        else:
            replaced = single_sign_in(place, client)
            account_id = accounts.add(state)
            if replaced is not None:
                place.drop_single()  # the sign-in without an ID token gives way, as every login's did
            say(f"signed in as account {account_id}; state saved to {place.account_record(account_id)}")
    place.keep_secret(settings.get(SECRET_KEY), secret_given)


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
            sign_in = chosen(args, client, settings)
            revoked = remove(client, sign_in)
            say(f"account {sign_in.account_id} revoked at the provider and removed" if revoked else
                f"account {sign_in.account_id} signed out and removed here, not revoked: {NOT_REVOKED}")
            emit(args, {"removed": sign_in.account_id, "revoked": revoked}, None)
            return 0
        listed = open_registry(Place.of(args, settings), client).list()
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
    listing.add_argument("action", nargs="?", choices=("list", "remove"), default="list",
                         help="list the accounts (the default), or remove one")
    listing.add_argument("account_id", nargs="?", metavar="ID",
                         help="with remove: the account to revoke and remove (an ID that starts with -: "
                              "remove -- -ID, after every option)")
    listing.set_defaults(run=list_accounts)

