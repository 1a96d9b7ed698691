"""What the `telenorid` command prints: one JSON document with --json, text for people otherwise; and
`telenorid status`, read from the store alone."""
from __future__ import annotations

import argparse
import json
import time
from datetime import datetime
from typing import Any, Dict, Optional

import telenorid

from .cli_accounts import chosen, keep
from .cli_settings import client_for, emit, printable, settings_from
from .cli_store import Place, saved_settings

EXIT_OK, EXIT_SIGNED_OUT = 0, 3


def token_type(state: telenorid.AuthState) -> Optional[str]:
    """Bearer or DPoP (RFC 9449 §5: a DPoP-bound token's token_type is DPoP), spelt as the RFCs do whatever
    case the provider used (token_type is case-insensitive, RFC 6749 §5.1)."""
    value = state.get("token_type")
    if value is None:
        return None
    return {"bearer": "Bearer", "dpop": "DPoP"}.get(value.lower(), value)


def expiry(state: telenorid.AuthState) -> Dict[str, Optional[int]]:
    expires_at = state.expires_at
    left = None if expires_at is None else max(0, expires_at - int(time.time()))
    return {"expires_at": expires_at, "expires_in": left}


def when(expires_at: int, now: Optional[int] = None) -> str:
    """An expiry as people read it, as `gh auth status` shows it: ISO 8601 in local time with the seconds left,
    e.g. "expires 2026-11-29T14:03:12+01:00 (in 3,540 s)" or "expired 2026-11-29T14:03:12+01:00 (12 s ago)"."""
    left = expires_at - (int(time.time()) if now is None else now)
    at = datetime.fromtimestamp(expires_at).astimezone().isoformat(timespec="seconds")
    return f"expires {at} (in {left:,} s)" if left > 0 else f"expired {at} ({-left:,} s ago)"


def status(args: argparse.Namespace) -> int:
    """Signed in or not, and what with, from the state file through the library: no request is sent, and
    nothing changes (--account does not make that account the most recently used)."""
    document: Dict[str, Any] = {"signed_in": False, "state_file": str(args.state_file)}
    try:
        settings = settings_from(args, saved_settings(args))
    except telenorid.NotSignedInError:
        settings = {}
    if not settings:
        emit(args, document, f"not signed in ({args.state_file})")
        return EXIT_SIGNED_OUT
    with client_for(settings) as client:
        try:
            account_id, state, _ = chosen(args, client, settings, select=False)
        except telenorid.NotSignedInError as error:
            emit(args, document, f"not signed in ({error.message})")
            return EXIT_SIGNED_OUT
        if not state.signed_in:
            emit(args, document, f"not signed in (account {account_id} was signed out: sign in again)")
            return EXIT_SIGNED_OUT
        claims = state.id_token_claims or {}
        scope = state.get("scope")
        document.update(signed_in=True, account=account_id, subject=claims.get("sub"),
                        issuer=claims.get("iss", settings["issuer"]), scopes=scope.split() if scope else [],
                        token_type=token_type(state), **expiry(state))
    left = document["expires_in"]
    # Each value from outside escaped whole, so a line break in a claim cannot forge a line of its own.
    # A grant without an ID token (some providers' device grant) names no user: said so, not "None".
    who = ("signed in" if document["subject"] is None else f"signed in as {printable(str(document['subject']))}") \
        + f" at {printable(str(document['issuer']))}" \
        + (f" (account {printable(account_id)})" if account_id else "") \
        + (" (the provider sent no ID token, so the user is not named)" if document["subject"] is None else "")
    lines = [who,
             f"token type: {printable(str(document['token_type']))}",
             f"scopes: {' '.join(printable(scope) for scope in document['scopes']) or '(none granted)'}",
             "access token: " + ("expiry unknown" if document["expires_at"] is None else
                                 when(document["expires_at"])
                                 + ("" if left else ": `telenorid token` refreshes it"))]
    emit(args, document, "\n".join(lines))
    return EXIT_OK


def signed_in(args: argparse.Namespace, place: Place, state: telenorid.AuthState, settings: Dict[str, Any]) -> None:
    """After any `login`: keeps the new sign-in where `place` says, then shows the ID token's claims, or, from
    a grant that gave none (some providers' device grant), what was granted."""
    keep(place, state, settings, secret_given=bool(getattr(args, "client_secret", None)))
    claims = state.id_token_claims
    if claims is not None:
        emit(args, claims, json.dumps(claims, indent=2, sort_keys=True))
    else:
        status(args)
