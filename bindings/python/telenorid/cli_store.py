"""Where the `telenorid` command keeps its sign-ins (the accounts of cli_accounts.py) and the client secret.

- ``secret-service`` (the default where one answers): the accounts' records and the client secret are items
  of the desktop's Secret Service (gnome-keyring, KWallet, KeePassXC) through
  :class:`telenorid.secret_service.SecretServiceStore`; nothing of them is written to a plain file. The client
  secret given to `login` is kept there too, so later commands need no TELENORID_CLIENT_SECRET.
- ``file``: the accounts' records in files beside the state file (mode 0600), the client secret never kept
  (read from TELENORID_CLIENT_SECRET on every command). Chosen by `--store file`, or, with a notice on
  standard error, when `login` finds no Secret Service.

Either way the settings (issuer, client id, scope: nothing secret) are in the state file's settings file
beside it, which also says which store `login` chose, so the commands after it look there. In the Secret
Service the records' keys are made from the state file's absolute path: each --state-file has its own
accounts, as with files.
"""
from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path
from typing import Any, Dict

import telenorid

from .cli_settings import SECRET_KEY, STORE_KEY, Failed, UsageError, load_settings, say
from .secret_service import SecretServiceStore

SECRET_SERVICE, FILE = "secret-service", "file"
# `login`'s choice when --store is not given (a test suite, a user who never wants the keyring).
STORE_VARIABLE = "TELENORID_STORE"


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", choices=(SECRET_SERVICE, FILE),
                        help="where `login` keeps the sign-in and the client secret: the desktop's Secret Service "
                             f"(the default where one runs) or the state file (default for login: ${STORE_VARIABLE}); "
                             f"later commands use the one login chose")


def record_key(state_file: Path) -> str:
    """The Secret Service record of the sign-in `state_file` names: the path itself may hold any character, a
    record key only [A-Za-z0-9._-]."""
    return "cli-" + hashlib.sha256(str(state_file.resolve()).encode()).hexdigest()[:32]


def choose_for_login(args: argparse.Namespace) -> None:
    """Sets args.store to where this sign-in will be kept, before it starts: the Secret Service when asked or
    when one answers; files when asked, or when none answers (said on standard error). An explicit
    `--store secret-service` without one fails."""
    args.store = args.store or os.environ.get(STORE_VARIABLE) or None
    if args.store not in (None, SECRET_SERVICE, FILE):
        raise UsageError(f"{STORE_VARIABLE} is {SECRET_SERVICE} or {FILE}, not {args.store!r}")
    if args.store == FILE:
        return
    reason = SecretServiceStore.unavailable_reason()
    if reason is None:
        args.store = SECRET_SERVICE
    elif args.store == SECRET_SERVICE:
        raise Failed(f"--store secret-service: {reason}")
    else:
        args.store = FILE
        say(f"no Secret Service ({reason}): keeping the sign-in in files beside {args.state_file} (mode 0600) "
            f"instead; --store file chooses that without this notice")


def kept_in(args: argparse.Namespace, settings: Dict[str, Any]) -> str:
    """The store of an existing sign-in: --store when given, else the one `login` chose (files for sign-ins
    saved before there was a choice)."""
    return str(args.store or settings.get(STORE_KEY) or FILE)


def secret_service(args: argparse.Namespace) -> SecretServiceStore:
    reason = SecretServiceStore.unavailable_reason()
    if reason is not None:
        raise Failed(f"the sign-in of {args.state_file} is kept in the Secret Service, which is not reachable "
                     f"now: {reason}")
    return SecretServiceStore()


def is_kept(args: argparse.Namespace, settings: Dict[str, Any]) -> bool:
    """Whether the state file's own record is there to open (opening a file that is not there creates it): a
    sign-in without an ID token, or one an earlier version kept (see cli_accounts.py)."""
    if kept_in(args, settings) == FILE:
        return bool(args.state_file.exists())
    return secret_service(args).load(record_key(args.state_file)) is not None


def open_state(args: argparse.Namespace, client: telenorid.Client, settings: Dict[str, Any]) -> telenorid.AuthState:
    """The state file's own record, bound to it: every refresh is written back there at once."""
    if kept_in(args, settings) == FILE:
        return client.open_auth_state_file(str(args.state_file))
    return client.open_store(secret_service(args), record_key(args.state_file))


def saved_settings(args: argparse.Namespace) -> Dict[str, Any]:
    """The settings `login` saved for the state file, with the client secret it kept in the Secret Service."""
    saved = load_settings(args.state_file)
    return {**saved, **kept_secret(args, saved)}


def kept_secret(args: argparse.Namespace, settings: Dict[str, Any]) -> Dict[str, Any]:
    """The client secret `login` kept in the Secret Service, as settings (empty when none is)."""
    if kept_in(args, settings) == FILE:
        return {}
    secret = secret_service(args).load(record_key(args.state_file) + ".client-secret")
    return {SECRET_KEY: secret.decode()} if secret else {}


def forget_secret_service(args: argparse.Namespace, key: str) -> None:
    if SecretServiceStore.available():
        store = SecretServiceStore()
        store.remove(key)
        store.remove(key + ".client-secret")
