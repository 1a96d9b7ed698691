"""`telenorid login --device`: the device authorization grant (RFC 8628), for a machine whose user signs in
on another device: the code and the address to enter it at are printed, and the command waits for the
approval."""
from __future__ import annotations

import argparse
import time


from .cli_output import signed_in
from .cli_settings import client_for, login_settings, say

def add_arguments(sign_in: argparse.ArgumentParser) -> None:
    sign_in.add_argument("--device", action="store_true",
                         help="sign in on another device (RFC 8628): print a code and where to enter it, then wait")
    sign_in.add_argument("--device-authorization-endpoint",
                         help="with --device: the provider's device authorization endpoint (default: discovered)")


def login_with_device(args: argparse.Namespace) -> None:
    settings = login_settings(args)
    if args.device_authorization_endpoint:
        settings["device_authorization_endpoint"] = args.device_authorization_endpoint
    from .cli import cancellable  # here: cli imports this module

    with client_for(settings) as client:
        say(f"asking {settings['issuer']} for a device code")
        device = cancellable(client, client.start_device_authorization)
        say(f"to sign in, open {device.verification_uri} on any device and enter the code {device.user_code}")
        if device.verification_uri_complete:
            say(f"or open {device.verification_uri_complete} (the code filled in)")
        say(f"waiting for the approval (the code expires in {max(0, device.expires_at - int(time.time()))} s; "
            "Ctrl-C stops)")
        state = device.wait()
        signed_in(args, state, settings)
