"""telenorid: sign in to an OpenID provider from the command line and use the tokens, for people integrating
with a provider. Every protocol step is libtelenorid's; the command reads arguments, opens the browser, keeps
the sign-ins (accounts) and prints.

    telenorid login    --issuer URL --client-id ID [--scope S] [--port N]   sign in through the browser
    telenorid login    ... --no-browser [--redirect-uri URI]   sign in from a machine without a browser:
                                     open the printed URL anywhere, paste back the address it ends on
    telenorid login    ... --device  sign in on another device with a printed code (RFC 8628)
    telenorid login    ... --ciba --login-hint HINT [--binding-message TEXT]   sign in by backchannel
                                     authentication (OpenID CIBA): the user approves on their own device
    telenorid status                 signed in or not: subject, issuer, expiry, scopes, token type (no request)
    telenorid token                  a fresh access token (refreshing first when needed)
    telenorid token --client-credentials   the client's own access token, no one signed in (RFC 6749
                                     section 4.4): for scripts, with a confidential client's secret
    telenorid userinfo               the userinfo claims
    telenorid refresh                refresh now
    telenorid revoke                 revoke the refresh token at the provider and sign out (settings kept)
    telenorid logout                 revoke, print the provider's end-session URL, remove the account
                                     (at a provider without a revocation endpoint, RFC 7009, both sign out
                                     here only, say so, and exit 0: the refresh token stays valid there
                                     until it expires)
    telenorid accounts [remove ID]   the accounts signed in (each login adds its user's), or revoke and
                                     remove one; the commands above take --account ID (default: the most
                                     recently used; status only reads it, the others make it so). An id
                                     may start with "-" (it is base64url): give it as --account=-ID, and
                                     to remove it, telenorid accounts [options] remove -- -ID
    telenorid verify ID_TOKEN        an ID token's header and claims, verified with the provider's keys
                                     (decode is an alias of verify)
    telenorid introspect TOKEN       whether the provider says a token is active, and what it grants (RFC 7662)
    telenorid verify-access-token TOKEN --audience ID   a JWT access token's claims, verified with the
                                     provider's keys (RFC 9068); both take - for TOKEN to read it from
                                     standard input, and exit 1 when the token does not pass
    telenorid completion bash|zsh    a shell completion script; install it with
        telenorid completion bash > ~/.local/share/bash-completion/completions/telenorid
        telenorid completion zsh > ~/.zfunc/_telenorid     (a directory in $fpath)

Where no browser can be opened (no display, and none that Python's webbrowser finds) and no --browser-command
is given, login through the browser stops at once and names --no-browser and --device.

--json: the data as one JSON document on standard output (messages stay on standard error); login --device
--json writes two lines, one JSON object each: the code to enter (user_code, verification_uri,
verification_uri_complete when the provider gives one, expires_at, interval) as soon as it is known, then
the sign-in's document. The sign-in and a confidential client's secret (TELENORID_CLIENT_SECRET or
--client-secret at login) are kept in the desktop's Secret Service; with --store file, or where none runs
(login says so), each account is kept in a file beside the state file (<stem>.<id>.json) and the secret is
read from TELENORID_CLIENT_SECRET on every command, never saved.

-v/--verbose: the library's events on standard error (-vv: each HTTP exchange too); never a secret.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, TypeVar

import telenorid

from ._interruptible import interruptible
from .cli_accounts import NOT_REVOKED, Chosen, add_command as add_accounts_command, add_flag as add_account_flag
from .cli_accounts import chosen, remove
from .cli_browser import Browser, check_browser
from .cli_ciba import add_arguments as add_ciba_arguments, check_arguments as check_ciba_arguments, login_ciba
from .cli_completion import SHELLS, completion
from .cli_device import add_arguments as add_device_arguments, login_with_device
from .cli_machine import add_commands as add_machine_commands, add_token_flag
from .cli_output import expiry, signed_in, status, token_type, when
from .cli_settings import (Failed, UsageError, client_for, emit, login_settings, printable, say, settings_path,
                           settings_from)
from .cli_store import Place, add_flag, saved_settings
from .logs import add_verbose_option, log_to_stderr

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_SIGNED_OUT, EXIT_TRANSIENT = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command Ctrl-C stopped
# What each exit status means: the end of `telenorid --help` and the man page's EXIT STATUS (scripts/gen_man.py).
EXIT_CODES = ((EXIT_OK, "done"), (EXIT_FAILED, "failed (the message says why)"), (EXIT_USAGE, "wrong usage"),
              (EXIT_SIGNED_OUT, "not signed in or authorization lost (sign in again)"),
              (EXIT_TRANSIENT, "a network, TLS or server problem that may pass (try again later)"),
              (EXIT_INTERRUPTED, "stopped with Ctrl-C (the call under way is cancelled)"))
DEFAULT_STATE = Path(os.environ.get("XDG_STATE_HOME", Path.home() / ".local" / "state")) / "telenorid" / "state.json"


T = TypeVar("T")


def cancellable(client: telenorid.Client, call: Callable[[], T]) -> T:
    """Runs a blocking library call of `client` (or of an auth state made from it) so that Ctrl-C ends it:
    the client is cancelled and KeyboardInterrupt goes on once the call has left the library. A refresh whose
    request was already sent is finished first, its new tokens saved (the provider may have rotated the
    refresh token for it), and that is said while it lasts."""
    return interruptible(client, call, finishing=lambda: say(
        "Ctrl-C: finishing the request already sent to the provider so that its answer is kept and saved "
        "(at most the configured timeout), then stopping"))


# ---- the sign-in ------------------------------------------------------------------------------------------

class SignedIn(NamedTuple):
    """What a command after `login` works with: the client, the chosen sign-in (with its place), the settings."""
    client: telenorid.Client
    chosen: Chosen
    settings: Dict[str, Any]


def signed_in_state(args: argparse.Namespace) -> SignedIn:
    """The chosen account's sign-in (--account, else the most recently used): see cli_accounts.py."""
    settings = settings_from(args, saved_settings(args))
    client = client_for(settings)
    sign_in = chosen(args, client, settings)
    if not sign_in.state.signed_in:
        raise telenorid.NotSignedInError("signed out", telenorid.NotSignedInError.code)
    return SignedIn(client, sign_in, settings)


# ---- commands ---------------------------------------------------------------------------------------------

def login(args: argparse.Namespace) -> None:
    check_ciba_arguments(args)
    if not (args.device or args.ciba or args.no_browser):
        if args.redirect_uri:
            raise UsageError("--redirect-uri goes with --no-browser; otherwise the listener's address is the "
                             "redirect URI")
        check_browser(args.browser_command)
    place = Place.for_login(args)
    if args.device:
        return login_with_device(args, place)
    if args.ciba:
        return login_ciba(args, place)
    if args.no_browser:
        return login_without_browser(args, place)
    with telenorid.LoopbackListener(port=args.port, path=args.path) as listener:
        settings = login_settings(args)
        settings["redirect_uri"] = listener.redirect_uri
        with client_for(settings) as client:
            pending = start_authorization(client, settings)
            # Any local process can reach the listener: only the redirect carrying this request's state ends
            # the wait (RFC 8252 §8.1, RFC 6749 §10.12); other callbacks are answered 400.
            listener.expect_state(pending.state)
            browser = Browser(pending.url, args.browser_command)
            say(f"waiting for the browser at {listener.redirect_uri} (up to {args.timeout:g} s)")
            redirect = wait_for_redirect(listener, args.timeout, settings["client_id"], browser)
            finish_login(args, place, client, settings, pending.handle_callback(redirect))


# Without a browser here the redirect URI is not this machine's listener but an address the user's browser
# fails to load, so it must be one the provider has registered: a fixed loopback port rather than any
# free one. --port or --redirect-uri (or the settings' redirect_uri) choose another.
NO_BROWSER_PORT = 53682


def login_without_browser(args: argparse.Namespace, place: Place) -> None:
    """As `gcloud auth login --no-browser`: the authorization URL is printed to be opened in any browser,
    and the address that browser ends on (the redirect, whose page fails to load) is read from standard
    input. The callback is checked as a listener's would be: its redirect URI and this request's state."""
    settings = login_settings(args)
    settings["redirect_uri"] = args.redirect_uri or settings.get("redirect_uri") or \
        f"http://127.0.0.1:{args.port or NO_BROWSER_PORT}{args.path}"
    with client_for(settings) as client:
        pending = start_authorization(client, settings)
        say("open this URL in a browser, on this machine or another, and sign in:")
        print(printable(pending.url), file=sys.stderr, flush=True)
        say(f"the browser then goes to {settings['redirect_uri']}, a page that may fail to load. "
            "Paste the whole address it ended on here:")
        pasted = sys.stdin.readline().strip()
        if not pasted:
            raise Failed("no address was pasted; nothing was saved")
        finish_login(args, place, client, settings, pending.handle_callback(pasted))


def start_authorization(client: telenorid.Client, settings: Dict[str, Any]) -> telenorid.PendingAuthorization:
    say(f"discovering {settings['issuer']}")
    cancellable(client, client.discover)
    # Through the client, which pushes (RFC 9126) and signs (RFC 9101) when the settings, the FAPI 2.0
    # profile or the provider's metadata require it.
    request = telenorid.AuthorizationRequest(client.config())
    return cancellable(client, lambda: client.build_authorization(request))


def finish_login(args: argparse.Namespace, place: Place, client: telenorid.Client, settings: Dict[str, Any],
                 callback: telenorid.AuthorizationCallback) -> None:
    signed_in(args, place, cancellable(client, lambda: client.exchange_code(callback)), settings)


# How often the wait for the redirect looks at the browser command (whether it failed).
BROWSER_CHECK_S = 0.5


def wait_for_redirect(listener: telenorid.LoopbackListener, timeout: float, client_id: str, browser: Browser) -> str:
    """The listener's redirect. A provider that refuses the client id or the redirect URI shows its error in
    the browser and never redirects, so when nothing has come for a while (60 s, or a third of the timeout
    when that is less) this says once what to check, rather than leaving a mistake to look like a wait. A
    browser command that fails ends the wait."""
    patience = min(60.0, timeout / 3)
    started = time.monotonic()
    hinted = False
    while True:
        waited = time.monotonic() - started
        if waited >= timeout:
            raise Failed(f"no redirect reached {listener.redirect_uri} within {timeout:g} s; nothing was saved")
        if not hinted and waited >= patience:
            hinted = True
            say(f"nothing has reached {listener.redirect_uri} after {patience:g} s. If the browser shows an error "
                f"from the provider, check: that the client id {client_id!r} is registered there; that this "
                f"redirect URI is registered for it: {listener.redirect_uri} ; and whether the provider accepts any "
                f"loopback port (RFC 8252 §7.3) or only the registered one, which `--port` then sets")
        until = timeout if hinted else patience
        try:
            return listener.wait(timeout=max(0.001, min(BROWSER_CHECK_S, until - waited)))
        except telenorid.NetworkTimeoutError:
            browser.check()


def token(args: argparse.Namespace) -> None:
    client, sign_in, _ = signed_in_state(args)
    access_token = cancellable(client, sign_in.state.fresh_access_token)
    emit(args, {"access_token": access_token, "token_type": token_type(sign_in.state), **expiry(sign_in.state)},
         access_token)


def userinfo(args: argparse.Namespace) -> None:
    client, sign_in, _ = signed_in_state(args)
    claims = cancellable(client, sign_in.state.userinfo)
    emit(args, claims, json.dumps(claims, indent=2, sort_keys=True))


def refresh(args: argparse.Namespace) -> None:
    client, sign_in, _ = signed_in_state(args)
    state = sign_in.state
    cancellable(client, state.refresh)
    expires = state.expires_at
    say("refreshed" + (f"; the access token {when(expires)}" if expires else ""))
    emit(args, {"refreshed": True, "token_type": token_type(state), **expiry(state)}, None)


def revoke(args: argparse.Namespace) -> None:
    client, sign_in, _ = signed_in_state(args)
    # Signed out in its record first, then revoked at the provider; the account is dropped either way; the
    # settings stay.
    revoked = cancellable(client, lambda: remove(client, sign_in, keep_settings=True))
    say(("revoked at the provider; signed out" if revoked else f"signed out here, not revoked: {NOT_REVOKED}")
        + f"; the settings are kept: `{login_command(args)}` signs in again")
    emit(args, {"signed_in": False, "revoked": revoked}, None)


def login_command(args: argparse.Namespace) -> str:
    """`telenorid login` for this state file: with --state-file when it is not the default one."""
    state_file = getattr(args, "state_file", DEFAULT_STATE)
    return "telenorid login" + ("" if state_file == DEFAULT_STATE else f" --state-file {shlex.quote(str(state_file))}")


def logout(args: argparse.Namespace) -> None:
    client, sign_in, _ = signed_in_state(args)
    try:
        end_session: Optional[str] = cancellable(client, sign_in.state.end_session_url)
    except telenorid.ConfigurationError:
        end_session = None  # the provider has no end-session endpoint
    try:
        revoked = cancellable(client, lambda: remove(client, sign_in))
    except telenorid.TelenoridError:
        if end_session:  # signed out here all the same: the browser session can still be ended
            say(f"signed out here; to end the provider's browser session too, open: {end_session}")
        raise
    removed = f"account {sign_in.account_id} removed" if sign_in.account_id else "removed"
    say(f"revoked and signed out; {removed}" if revoked else f"signed out and {removed} here, not revoked: {NOT_REVOKED}")
    if end_session and not args.json:
        say("to end the provider's browser session too, open:")
    emit(args, {"signed_in": False, "revoked": revoked, "end_session_url": end_session}, end_session)


def verify(args: argparse.Namespace) -> None:
    saved = saved_settings(args) if settings_path(args.state_file).exists() else None
    settings = settings_from(args, saved)
    with client_for(settings) as client:
        claims = cancellable(client, lambda: client.verify_id_token(args.id_token))
        emit(args, claims, json.dumps(claims, indent=2, sort_keys=True))


# ---- the command line ----------------------------------------------------------------------------------

def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port: a port is 1 to 65535 (0: any free port)")
    return port


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.001 <= value <= 86400:  # a day: far past any sign-in, and well inside the library's limit
        raise argparse.ArgumentTypeError(f"{text} s is out of range: give 0.001 to 86400 seconds")
    return value


def common_options() -> argparse.ArgumentParser:
    """The options every command but completion takes (the man page lists them once)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--issuer", metavar="URL", help="the provider's issuer URL (https; http only on loopback)")
    common.add_argument("--client-id", metavar="ID", help="this client's id at the provider")
    common.add_argument("--scope", help='space-separated scopes (default "openid")')
    common.add_argument("--config", metavar="FILE",
                        help="a JSON file of settings, as telenorid_config_from_json reads them")
    common.add_argument("--state-file", type=Path, default=DEFAULT_STATE, metavar="FILE",
                        help=f"names the accounts' place (default {DEFAULT_STATE})")
    common.add_argument("--json", action="store_true",
                        help="print the data as one JSON document (login --device: two lines, one JSON object "
                             "each: the code to enter first, then the sign-in's)")
    add_verbose_option(common)
    add_flag(common)
    return common


def epilog() -> str:
    """What `telenorid --help` says after the usage: the commands at a glance, the notes, the exit codes."""
    exit_codes = "Exit codes: " + "; ".join(f"{code} {meaning}" for code, meaning in EXIT_CODES) + "."
    return __doc__.split("\n\n", 1)[1] + "\n" + textwrap.fill(exit_codes, 108) + "\n"


def parser() -> argparse.ArgumentParser:
    common = common_options()
    top = argparse.ArgumentParser(prog="telenorid", description=__doc__.split("\n\n")[0],
                                  formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog())
    # The package's version, which is the library's it was written for: printing it loads nothing.
    top.add_argument("--version", action="version", version=f"telenorid {telenorid.__version__}")
    add_verbose_option(top)
    commands = top.add_subparsers(dest="command", required=True)
    sign_in = commands.add_parser("login", parents=[common], help="sign in through the browser and a loopback redirect")
    sign_in.add_argument("--port", type=port_number, default=0, metavar="N",
                         help=f"loopback port for the redirect (default: any free port; {NO_BROWSER_PORT} with --no-browser)")
    sign_in.add_argument("--path", default="/callback", metavar="PATH", help="loopback redirect path (default /callback)")
    sign_in.add_argument("--timeout", type=seconds, default=300.0, metavar="SECONDS", help="seconds to wait for the browser (default 300)")
    sign_in.add_argument("--browser-command", default=os.environ.get("TELENORID_BROWSER"), metavar="COMMAND",
                         help="a command to open the URL with (the URL is its last argument; default: the system "
                              "browser; env TELENORID_BROWSER). One that cannot start or fails ends the login")
    sign_in.add_argument("--no-browser", action="store_true",
                         help="print the authorization URL to open in any browser and read the address it ends on "
                              "from standard input (no listener: for machines without a browser)")
    sign_in.add_argument("--redirect-uri", metavar="URI",
                         help=f"with --no-browser: the registered redirect URI to use (default the settings', "
                              f"else http://127.0.0.1:{NO_BROWSER_PORT}/callback)")
    sign_in.add_argument("--client-secret", metavar="SECRET", help="a confidential client's secret (kept in the Secret Service; with "
                                                 "files never saved: later commands read TELENORID_CLIENT_SECRET)")
    add_device_arguments(sign_in)
    add_ciba_arguments(sign_in)
    sign_in.set_defaults(run=login)
    chosen_account = argparse.ArgumentParser(add_help=False)
    add_account_flag(chosen_account)
    commands.add_parser("status", parents=[common, chosen_account],
                        help="signed in or not, and with what (no request)").set_defaults(run=status)
    for name, run, text in (("token", token, "print a fresh access token"), ("userinfo", userinfo, "print the userinfo claims"),
                            ("refresh", refresh, "refresh the tokens now"), ("revoke", revoke, "revoke and sign out"),
                            ("logout", logout, "revoke, print the end-session URL, remove the account")):
        commands.add_parser(name, parents=[common, chosen_account], help=text).set_defaults(run=run)
    add_token_flag(commands.choices["token"], token)
    add_accounts_command(commands, common)
    check = commands.add_parser("verify", aliases=["decode"], parents=[common],
                                help="an ID token's header and claims, verified with the provider's keys")
    check.add_argument("id_token", metavar="ID_TOKEN", help="the ID token (a JWT) to verify")
    check.set_defaults(run=verify)
    add_machine_commands(commands, common)
    complete = commands.add_parser("completion", help="print a bash or zsh completion script")
    complete.add_argument("shell", choices=SHELLS, help="the shell to complete for")
    complete.set_defaults(run=lambda args: print(completion(top, args.shell), end=""))
    return top


def main(argv: Optional[List[str]] = None) -> int:
    arguments = parser()
    args = arguments.parse_args(argv)
    log_to_stderr(getattr(args, "verbose", 0))
    try:
        code: Optional[int] = args.run(args)
        return code or EXIT_OK
    except UsageError as error:
        arguments.print_usage(sys.stderr)
        say(str(error))
        return EXIT_USAGE
    except ImportError as error:  # the library could not be loaded: the message lists where it was looked for
        first, *tried = str(error).removeprefix("telenorid: ").split("\n")  # one line per place tried
        say(first)
        for line in tried:
            print(printable(line), file=sys.stderr, flush=True)
        return EXIT_FAILED
    except Failed as error:
        say(str(error))
        return EXIT_FAILED
    except (telenorid.NotSignedInError, telenorid.AuthorizationLostError) as error:
        say(f"{error.message} — sign in again with `{login_command(args)}`"
            + ("" if settings_path(args.state_file).exists() else " --issuer URL --client-id ID"))
        return EXIT_SIGNED_OUT
    except telenorid.TelenoridError as error:
        # str() leads with the provider's error and error_description, which say what to fix.
        details = [f"{name}={value}" for name, value in (("HTTP", error.http_status), ("retry after", error.retry_after))
                   if value is not None]
        say(str(error) + (f" ({', '.join(details)})" if details else ""))
        return EXIT_TRANSIENT if error.transient else EXIT_FAILED
    except (OSError, ValueError) as error:
        say(str(error))
        return EXIT_FAILED
    except KeyboardInterrupt:
        say("stopped (Ctrl-C)")
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
