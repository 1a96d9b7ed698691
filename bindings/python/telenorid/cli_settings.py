"""The `telenorid` command's settings: the ones used to sign in, kept beside the auth state file, merged with
--config, the environment and the flags. The client secret is never in the settings file: it comes from the
Secret Service when `login` kept it there (cli_store.py), else from the environment (or a flag, for one run)
on every command."""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Dict, Optional

import telenorid

# Without a Secret Service, read on every command: a secret in a file beside the state would be one more copy
# to leak (a backup, a dotfiles repository), and the environment is where credentials for command-line tools
# usually live.
SECRET_VARIABLE = "TELENORID_CLIENT_SECRET"
SECRET_KEY = "client_secret"
# The settings file's record of where `login` kept the sign-in (cli_store.py); not a library setting.
STORE_KEY = "store"


class UsageError(Exception):
    pass


class Failed(Exception):
    """A failure the message explains (exit 1)."""


# What a terminal would act on rather than show: the C0 controls (ESC starts the sequences that set a window's
# title or clear the screen, CR and LF forge lines), DEL, the C1 controls (U+009B is a one-character CSI), the
# line and paragraph separators, and the bidirectional marks, embeddings, overrides and isolates (U+202E shows
# "txt.exe" as "exe.txt"); and lone surrogates, which no terminal encoding can carry.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """`text` with every character a terminal would act on written out as its escape, the way Python spells
    it (ESC as \\x1b, U+202E as \\u202e), so text from outside (claims, scopes, the provider's and the
    library's messages) is seen and cannot rewrite the screen. Everything the command prints for people goes
    through here (say, emit); --json output is JSON, which escapes control characters itself."""
    return _UNSAFE.sub(lambda found: f"\\x{ord(found[0]):02x}" if ord(found[0]) < 0x100 else f"\\u{ord(found[0]):04x}",
                       text)


def say(message: str) -> None:
    print(f"telenorid: {printable(message)}", file=sys.stderr, flush=True)


def emit(args: argparse.Namespace, document: Any, text: Optional[str]) -> None:
    """With --json, `document` as the one JSON document on standard output; otherwise `text` (None: nothing),
    its lines made printable (a line break inside a value from outside is the caller's to escape, with
    printable()). Messages go to standard error either way, so a script can parse standard output whole."""
    if getattr(args, "json", False):
        print(json.dumps(document, sort_keys=True))
    elif text is not None:
        print("\n".join(printable(line) for line in text.split("\n")))


# Each account's record is the library's own (a bound auth state): 0600, replaced atomically, and every
# refresh locks it and re-reads it first, so two `telenorid` commands running at once never redeem one
# refresh token twice. The settings sit beside the state file, in <state-file stem>.settings.json.

def settings_path(state_file: Path) -> Path:
    return state_file.with_name(state_file.stem + ".settings.json")


def save_settings(state_file: Path, settings: Dict[str, Any]) -> None:
    """Written whole, without the client secret, to a new file created 0600, then renamed over the old."""
    kept = {key: value for key, value in settings.items() if key != SECRET_KEY}
    state_file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor, temporary = tempfile.mkstemp(dir=state_file.parent, prefix=".settings-")  # mkstemp creates it 0600
    try:
        with os.fdopen(descriptor, "w") as file:
            json.dump(kept, file)
        os.replace(temporary, settings_path(state_file))
    except BaseException:
        os.unlink(temporary)
        raise


def load_settings(state_file: Path) -> Dict[str, Any]:
    """The saved settings. A file that still holds a client secret (as files written before the secret moved to
    the environment do) is read as it is for this run, and rewritten without it."""
    try:
        settings: Dict[str, Any] = json.loads(settings_path(state_file).read_text())
    except FileNotFoundError:
        raise telenorid.NotSignedInError(f"no sign-in kept at {state_file}", telenorid.NotSignedInError.code) from None
    if not isinstance(settings, dict):
        raise UsageError(f"{settings_path(state_file)} is not a telenorid settings file")
    if SECRET_KEY in settings:
        save_settings(state_file, settings)
        say(f"{settings_path(state_file)} held the client secret in clear; it is rewritten without it. "
            f"Set {SECRET_VARIABLE} for the commands after this one")
    return settings


def remove_files(state_file: Path) -> None:
    for path in (state_file, settings_path(state_file), Path(str(state_file) + ".lock"),
                 Path(str(state_file) + ".update.lock")):
        path.unlink(missing_ok=True)


def settings_from(args: argparse.Namespace, saved: Optional[Dict[str, Any]] = None,
                  kept: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """`kept` (for `login`: the settings an earlier sign-in left), then --config's JSON object, then the state
    file's settings (with the client secret `login` kept in the Secret Service), then TELENORID_CLIENT_SECRET,
    then the flags, each overriding the last."""
    settings: Dict[str, Any] = dict(kept or {})
    if args.config:
        loaded = json.loads(Path(args.config).read_text())
        if not isinstance(loaded, dict):
            raise UsageError(f"{args.config}: a configuration file holds one JSON object of settings")
        settings.update(loaded)
    settings.update(saved or {})
    if os.environ.get(SECRET_VARIABLE):
        settings[SECRET_KEY] = os.environ[SECRET_VARIABLE]
    for flag, key in (("issuer", "issuer"), ("client_id", "client_id"), ("scope", "scope"),
                      ("client_secret", SECRET_KEY)):
        if getattr(args, flag, None):
            settings[key] = getattr(args, flag)
    for required in ("issuer", "client_id"):
        if not settings.get(required):
            raise UsageError(f"--{required.replace('_', '-')} is required (or set it in --config)")
    return settings


def login_settings(args: argparse.Namespace) -> Dict[str, Any]:
    """The settings for `login`: those the state file's last sign-in kept (`revoke` keeps them), so
    `telenorid login` alone signs in again, overridden by --config, the environment and the flags. Not the
    redirect URI (each login has its own) nor the store (`login` chooses it)."""
    kept: Dict[str, Any] = {}
    if settings_path(args.state_file).exists():
        kept = {key: value for key, value in load_settings(args.state_file).items()
                if key not in ("redirect_uri", STORE_KEY)}
    return settings_from(args, kept=kept)


def client_for(settings: Dict[str, Any]) -> telenorid.Client:
    library_settings = {key: value for key, value in settings.items() if key != STORE_KEY}
    return telenorid.Client(telenorid.Config.from_json(json.dumps(library_settings)))
