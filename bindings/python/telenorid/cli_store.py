"""Where the `telenorid` command keeps a state file's sign-ins and the client secret: the one module that decides
it. The other modules ask a :class:`Place` for a record (cli_accounts.py: which account, cli_settings.py: what
settings) and never whether it is a file or an item of the Secret Service.

- ``secret-service`` (the default where one answers): the accounts' records and the client secret are items
  of the desktop's Secret Service (gnome-keyring, KWallet, KeePassXC) through
  :class:`telenorid.secret_service.SecretServiceStore`; nothing of them is written to a plain file. The client
  secret given to `login` is kept there too, so later commands need no TELENORID_CLIENT_SECRET.
- ``file``: the accounts' records in files beside the state file (mode 0600), the client secret never kept
  (read from TELENORID_CLIENT_SECRET on every command). Chosen by `--store file`, or, with a notice on
  standard error, when `login` finds no Secret Service.

The records of the state file ``<dir>/<stem>.json``, by store (``<key>`` is :func:`record_key`, made from the
state file's absolute path, so each --state-file has its own accounts in the Secret Service as with files):

=====================  ==========================  ==============================
record                 Secret Service              file
=====================  ==========================  ==============================
the accounts' registry ``<key>.accounts``          ``<dir>/<stem>.accounts.json``
an account's sign-in   ``<key>.<id>``              ``<dir>/<stem>.<id>.json``
the single sign-in     ``<key>``                   ``<dir>/<stem>.json``
the client secret      ``<key>.client-secret``     never kept
the machine's token    ``<key>.machine``           ``<dir>/<stem>.machine.json``
=====================  ==========================  ==============================

The single sign-in is one without an ID token to name its user (cli_accounts.py). Either way the settings
(issuer, client id, scope: nothing secret) are in ``<dir>/<stem>.settings.json``, which also records the store
`login` chose, so the commands after it look there.
"""
from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

import telenorid

from .cli_settings import (SECRET_KEY, SECRET_VARIABLE, STORE_KEY, Failed, UsageError, load_settings, remove_files,
                           say, settings_path)
from .secret_service import SecretServiceStore

if TYPE_CHECKING:  # store.py loads the library, which `telenorid --help` and `--version` must not need
    from .store import HostStore

SECRET_SERVICE, FILE = "secret-service", "file"
# `login`'s choice when --store is not given (a test suite, a user who never wants the keyring).
STORE_VARIABLE = "TELENORID_STORE"


def add_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--store", choices=(SECRET_SERVICE, FILE),
                        help="where login keeps the sign-in and the client secret: the desktop's Secret Service "
                             f"(the default where one runs) or the state file (default for login: ${STORE_VARIABLE}); "
                             f"later commands use the one login chose")


def record_key(state_file: Path) -> str:
    """The Secret Service record of the sign-in `state_file` names: the path itself may hold any character, a
    record key only [A-Za-z0-9._-]."""
    return "cli-" + hashlib.sha256(str(state_file.resolve()).encode()).hexdigest()[:32]


def remove_record_files(path: Path) -> None:
    for each in (path, Path(str(path) + ".lock"), Path(str(path) + ".update.lock")):
        each.unlink(missing_ok=True)


class Place:
    """The store of one state file's sign-ins and the names of its records there (see the table above)."""

    def __init__(self, state_file: Path, store: str) -> None:
        self.state_file = state_file
        self.store = store
        self._in_files = store == FILE
        self.key = record_key(state_file)

    @classmethod
    def of(cls, args: argparse.Namespace, settings: Dict[str, Any]) -> "Place":
        """Where the sign-ins of an earlier `login` are: --store when given, else the store that login chose
        (files for sign-ins saved before there was a choice)."""
        return cls(args.state_file, str(args.store or settings.get(STORE_KEY) or FILE))

    @classmethod
    def for_login(cls, args: argparse.Namespace) -> "Place":
        """Where the sign-in `login` is about to make will be kept, decided before it starts: the Secret Service
        when asked or when one answers; files when asked, or when none answers (said on standard error). An
        explicit `--store secret-service` without one fails."""
        store = args.store or os.environ.get(STORE_VARIABLE) or None
        if store not in (None, SECRET_SERVICE, FILE):
            raise UsageError(f"{STORE_VARIABLE} is {SECRET_SERVICE} or {FILE}, not {store!r}")
        if store == FILE:
            return cls(args.state_file, FILE)
        reason = SecretServiceStore.unavailable_reason()
        if reason is None:
            return cls(args.state_file, SECRET_SERVICE)
        if store == SECRET_SERVICE:
            raise Failed(f"--store secret-service: {reason}")
        say(f"no Secret Service ({reason}): keeping the sign-in in files beside {args.state_file} (mode 0600) "
            f"instead; --store file chooses that without this notice")
        return cls(args.state_file, FILE)

    def _secret_service(self) -> SecretServiceStore:
        reason = SecretServiceStore.unavailable_reason()
        if reason is not None:
            raise Failed(f"the sign-in of {self.state_file} is kept in the Secret Service, which is not reachable "
                         f"now: {reason}")
        return SecretServiceStore()

    # ---- the accounts ----------------------------------------------------------------------------------------

    def registry(self) -> Tuple[HostStore, str]:
        """The store holding the accounts and the registry's name in it (telenorid_accounts_open)."""
        if self._in_files:
            return telenorid.DirectoryStore(self.state_file.parent), self.state_file.stem
        return self._secret_service(), self.key

    def open_accounts(self, client: telenorid.Client) -> telenorid.Accounts:
        return client.open_accounts(*self.registry())

    def open_account(self, client: telenorid.Client, account_id: str) -> telenorid.AuthState:
        """An account's sign-in read from its record ("<name>.<id>", telenorid_accounts_open) without selecting
        it, so the account does not become the most recently used (for `status`, which changes nothing)."""
        store, name = self.registry()
        return client.open_store(store, f"{name}.{account_id}")

    def account_record(self, account_id: str) -> str:
        """Where an account's sign-in is, as people read it."""
        if self._in_files:
            return f"{self.state_file.with_name(f'{self.state_file.stem}.{account_id}.json')} (mode 0600)"
        return "the Secret Service"

    def drop_account(self, account_id: str) -> None:
        """Deletes a removed account's record (the registry no longer lists it)."""
        if self._in_files:
            remove_record_files(self.state_file.with_name(f"{self.state_file.stem}.{account_id}.json"))
        else:
            self._secret_service().remove(f"{self.key}.{account_id}")

    # ---- the single sign-in (one without an ID token, or one an earlier version kept) ----------------------

    def single_record(self) -> str:
        return str(self.state_file) if self._in_files else "the Secret Service"

    def has_single(self) -> bool:
        """Whether the state file's own record is there to open (opening a file that is not there creates it)."""
        if self._in_files:
            return bool(self.state_file.exists())
        return self._secret_service().load(self.key) is not None

    def open_single(self, client: telenorid.Client) -> telenorid.AuthState:
        """The state file's own record, bound to it: every refresh is written back there at once."""
        if self._in_files:
            return client.open_auth_state_file(str(self.state_file))
        return client.open_store(self._secret_service(), self.key)

    def bind_single(self, state: telenorid.AuthState) -> None:
        if self._in_files:
            state.bind_file(str(self.state_file))
        else:
            state.bind_store(self._secret_service(), self.key)

    def drop_single(self) -> None:
        if self._in_files:
            remove_record_files(self.state_file)
        else:
            self._secret_service().remove(self.key)

    # ---- the machine's own token (`token --client-credentials`, `token --jwt-bearer`) ---------------------

    def machine_record(self) -> Tuple[HostStore, str]:
        """The store and record key of the client's own token (ClientCredentials.bind_store)."""
        if self._in_files:
            self.state_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            return telenorid.DirectoryStore(self.state_file.parent), self.state_file.stem + ".machine"
        return self._secret_service(), self.key + ".machine"

    # ---- the client secret, and everything at once ------------------------------------------------------

    def kept_secret(self) -> Optional[str]:
        """The client secret `login` kept in the Secret Service (None when none is)."""
        if self._in_files:
            return None
        secret = self._secret_service().load(self.key + ".client-secret")
        return secret.decode() if secret else None

    def keep_secret(self, secret: Optional[str], given: bool) -> None:
        """After `login`: keeps the client secret it used (`given`: on its command line), or forgets an earlier
        one, and says which."""
        if self._in_files:
            if given:
                say(f"the client secret was used for this sign-in only and is not saved: the commands after it "
                    f"(token, refresh, userinfo...) read it from {SECRET_VARIABLE}")
            return
        say(f"settings in {settings_path(self.state_file)}")
        if secret:
            self._secret_service().store(self.key + ".client-secret", secret.encode())
            say(f"the client secret is kept in the Secret Service too: the commands after this one need no "
                f"{SECRET_VARIABLE}")
        else:
            self._secret_service().remove(self.key + ".client-secret")

    def leave_other_store(self) -> None:
        """After `login` into files: what an earlier sign-in of this state file kept in the Secret Service goes."""
        if self._in_files and SecretServiceStore.available():
            store = SecretServiceStore()
            store.remove(self.key)
            store.remove(self.key + ".client-secret")

    def forget_all(self, keep_settings: bool) -> None:
        """With the last sign-in gone: the registry, the kept client secret and, unless `keep_settings`, the
        settings."""
        if self._in_files:
            remove_record_files(self.state_file.with_name(f"{self.state_file.stem}.accounts.json"))
        else:
            store = self._secret_service()
            for suffix in ("", ".client-secret", ".accounts"):
                store.remove(self.key + suffix)
        if keep_settings:
            remove_record_files(self.state_file)
        else:
            remove_files(self.state_file)


def saved_settings(args: argparse.Namespace) -> Dict[str, Any]:
    """The settings `login` saved for the state file, with the client secret it kept in the Secret Service."""
    saved = load_settings(args.state_file)
    secret = Place.of(args, saved).kept_secret()
    return {**saved, SECRET_KEY: secret} if secret else saved
