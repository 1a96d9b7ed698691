"""``telenorid login --ciba``: sign in by OpenID Client-Initiated Backchannel Authentication (CIBA Core 1.0) in
poll mode, for a confidential client whose user approves on their own device; no browser here. The login
hint is passed as given (a ``tel:``, ``ipport:`` or ``operatortoken:`` form, or whatever the provider takes)."""
from __future__ import annotations

import argparse

import telenorid

from ._interruptible import interruptible
from .cli_output import signed_in, when
from .cli_settings import UsageError, client_for, login_settings, say
from .cli_store import Place


def add_arguments(sign_in: argparse.ArgumentParser) -> None:
    sign_in.add_argument("--ciba", action="store_true",
                         help="sign in by backchannel authentication (OpenID CIBA, poll mode): the user named by "
                              "--login-hint approves on their own device")
    sign_in.add_argument("--login-hint", metavar="HINT", help="with --ciba: who is to sign in (e.g. tel:+4790000000)")
    sign_in.add_argument("--binding-message", metavar="TEXT", help="with --ciba: a short text shown on the user's device")


def check_arguments(args: argparse.Namespace) -> None:
    if not args.ciba and (args.login_hint or args.binding_message):
        raise UsageError("--login-hint and --binding-message go with --ciba")
    if args.ciba and not args.login_hint:
        raise UsageError("--ciba needs --login-hint: who is to sign in")
    if args.ciba and (args.no_browser or args.redirect_uri):
        raise UsageError("--ciba uses no browser and no redirect: drop --no-browser and --redirect-uri")


def login_ciba(args: argparse.Namespace, place: Place) -> None:
    settings = login_settings(args)
    # Nothing here can receive the provider's pings: poll mode, whatever --config says.
    settings["backchannel_token_delivery_mode"] = "poll"
    with client_for(settings) as client:
        request = telenorid.AuthorizationRequest(client.config()).set("login_hint", args.login_hint)
        if args.binding_message:
            request.set("binding_message", args.binding_message)
        auth = interruptible(client, lambda: client.start_backchannel_authentication(request))
        shown = f"; your device shows {args.binding_message!r}" if args.binding_message else ""
        say(f"asked the provider to authenticate {args.login_hint}{shown}. Approve on your device "
            f"(checking every {auth.interval} s; the request {when(auth.expires_at)})")
        signed_in(args, place, auth.wait(), settings)
