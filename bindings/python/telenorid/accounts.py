"""Accounts: the users signed in through one client, kept in a store (the C header's "Accounts").

A registry lists them (the record ``<name>.accounts``) and each account's auth state is bound to the record
``<name>.<id>``: every process opening the same registry of the same store sees the same accounts. An account
is a user at an issuer (the ID token's ``iss`` and ``sub``), so the same user signing in again replaces theirs.
"""
from __future__ import annotations

import json
from ctypes import byref
from dataclasses import dataclass
from typing import Any, List, Optional

from . import _bindings, _ffi
from ._convert import _str
from ._handle import _enter_argument, _Handle, _leave
from .auth_state import AuthState
from .store import _NativeStore

_c = _ffi.functions


@dataclass(frozen=True)
class Account:
    """One entry of :meth:`Accounts.list`: whom it is, what to show for it, and when it was last used."""

    id: str
    issuer: str
    subject: str
    last_used: int  # Unix seconds
    name: Optional[str] = None
    preferred_username: Optional[str] = None
    email: Optional[str] = None


class Accounts(_Handle):
    """A registry of accounts; made by :meth:`Client.open_accounts`. Shareable between threads."""

    __slots__ = ("_store", "_client")
    _free = staticmethod(_c.telenorid_accounts_free)
    _store: _NativeStore
    _client: Any

    @classmethod
    def _open(cls, client: Any, store: _NativeStore, name: str) -> "Accounts":
        encoded = _str(name, "name")
        pointer = _bindings.AccountsP()
        entered = _enter_argument(store, _NativeStore, "store")
        try:
            client._call(_c.telenorid_accounts_open, entered, encoded, byref(pointer))
        finally:
            _leave(store._native)
        self = cls._adopt(pointer, client)
        self._store, self._client = store, client
        return self

    def add(self, state: AuthState) -> str:
        """Adds the signed-in ``state`` (binding it to its account's record) first in the list; its account id.
        Raises NotSignedInError for a signed-out state, InvalidArgumentError for one without an ID token."""
        entered = _enter_argument(state, AuthState, "state")
        try:
            account_id = self._string_call(_c.telenorid_accounts_add, entered)
        finally:
            _leave(state._native)
        state._keep_alive.append(self._store)  # the store's functions live as long as the bound state
        return account_id or ""

    def list(self) -> List[Account]:
        """The accounts, most recently used first."""
        entries = json.loads(self._string_call(_c.telenorid_accounts_list) or "[]")
        return [Account(**{key: entry.get(key) for key in Account.__dataclass_fields__}) for entry in entries]

    def select(self, account_id: str) -> AuthState:
        """The account's auth state, bound to its record; the account becomes the most recently used. Raises
        NotSignedInError for an id not in the registry."""
        pointer = _bindings.AuthStateP()
        self._call(_c.telenorid_accounts_select, _str(account_id, "account_id"), byref(pointer))
        state = AuthState._adopt(pointer, self._client)
        state._keep_alive.append(self._store)
        return state

    def remove(self, account_id: str) -> None:
        """Signs the account out, revokes its grant at the provider (RFC 7009) and drops it. A failed revocation
        still drops it, then raises; NotSignedInError for an id not in the registry."""
        self._call(_c.telenorid_accounts_remove, _str(account_id, "account_id"))
