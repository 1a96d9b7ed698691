"""`telenorid login --device`: the device authorization grant (RFC 8628), for a machine whose user signs in
on another device: the code and the address to enter it at are printed, and the command waits for the
approval. With --json, standard output has two lines, each one JSON object: the code as soon as the provider
gave it (for a script to show it elsewhere), then, once approved, what every login prints."""
from __future__ import annotations

import argparse
import json
import time
from typing import Any, Dict, Optional

import telenorid

from ._interruptible import interruptible
from .cli_output import signed_in
from .cli_settings import Failed, client_for, login_settings, say
from .cli_store import Place


def add_arguments(sign_in: argparse.ArgumentParser) -> None:
    sign_in.add_argument("--device", action="store_true",
                         help="sign in on another device (RFC 8628): print a code and where to enter it, then wait "
                              "(with --json the code is the first line of output: a JSON object with user_code, "
                              "verification_uri, verification_uri_complete when the provider gives one, expires_at "
                              "and interval)")
    sign_in.add_argument("--device-authorization-endpoint", metavar="URL",
                         help="with --device: the provider's device authorization endpoint (default: discovered)")


def code_document(device: telenorid.DeviceAuthorization) -> Dict[str, Any]:
    """What the user needs (RFC 8628 §3.2): the first JSON line of `login --device --json`."""
    document: Dict[str, Any] = {"user_code": device.user_code, "verification_uri": device.verification_uri,
                                "expires_at": device.expires_at, "interval": device.interval}
    if device.verification_uri_complete:
        document["verification_uri_complete"] = device.verification_uri_complete
    return document


def advertised_endpoint(client: telenorid.Client) -> Optional[str]:
    """The device authorization endpoint configured or discovered; None when the provider publishes none."""
    with client.config() as config:
        return config.get("device_authorization_endpoint")


def login_with_device(args: argparse.Namespace, place: Place) -> None:
    settings = login_settings(args)
    if args.device_authorization_endpoint:
        settings["device_authorization_endpoint"] = args.device_authorization_endpoint
    with client_for(settings) as client:
        say(f"asking {settings['issuer']} for a device code")
        try:
            device = interruptible(client, client.start_device_authorization)
        except telenorid.ProviderUnsupportedError:
            # What the library says when neither the configuration nor the metadata has the endpoint; told apart
            # from the provider's other shortcomings by asking for it (discovery is cached).
            if advertised_endpoint(client) is not None:
                raise
            raise Failed(f"{settings['issuer']} advertises no device_authorization_endpoint in its discovery "
                         f"document (RFC 8628 §4): give the endpoint with --device-authorization-endpoint URL, "
                         f"or set device_authorization_endpoint in --config") from None
        if args.json:
            print(json.dumps(code_document(device), sort_keys=True), flush=True)
        say(f"to sign in, open {device.verification_uri} on any device and enter the code {device.user_code}")
        if device.verification_uri_complete:
            say(f"or open {device.verification_uri_complete} (the code filled in)")
        say(f"waiting for the approval (the code expires in {max(0, device.expires_at - int(time.time()))} s; "
            "Ctrl-C stops)")
        signed_in(args, place, device.wait(), settings)
