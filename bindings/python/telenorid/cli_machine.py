"""The `telenorid` commands for the other side of the token, where no one signs in: a machine's own access token
for scripts (`token --client-credentials`, the client credentials grant, RFC 6749 §4.4; `token --jwt-bearer`, the
JWT bearer grant, RFC 7523 §2.1), kept in the state file's store between runs, a token exchanged for another
(`token --exchange`, RFC 8693, through token_exchange.py), and an operator's
checks of an access token someone presented: `introspect` asks the provider (RFC 7662), `verify-access-token`
verifies a JWT access token with the provider's keys (RFC 9068). All through resource_server.py.

The client is a confidential one: its secret comes from the Secret Service (where `login` kept it for the state
file's client) or TELENORID_CLIENT_SECRET, never from the command line. The state file's settings, and the secret
kept with them, are used only when the command line names no other client (no --config, and --issuer and
--client-id absent or the same): a secret kept for one client is never sent as another's."""
from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable, Dict, Optional

import telenorid

from ._interruptible import interruptible
from .cli_output import when
from .cli_settings import SECRET_KEY, SECRET_VARIABLE, Failed, UsageError, client_for, emit, load_settings, say
from .cli_settings import settings_from, settings_path
from .cli_store import Place, saved_settings

# cli.py's EXIT_CODES (importing cli.py from here would be a circle).
EXIT_OK, EXIT_FAILED = 0, 1


def machine_settings(args: argparse.Namespace) -> Dict[str, Any]:
    """The settings of the client these commands act as (see the module's docstring for whose)."""
    saved: Optional[Dict[str, Any]] = None
    if args.config is None and settings_path(args.state_file).exists():
        kept = load_settings(args.state_file)
        if all(getattr(args, flag) in (None, kept.get(flag)) for flag in ("issuer", "client_id")):
            saved = saved_settings(args)
    return settings_from(args, saved)


def given_token(args: argparse.Namespace) -> str:
    """The token given on the command line, or, for "-", read from standard input (an argument shows in ps)."""
    return read_token(args.token)


def read_token(given: str) -> str:
    """`given`, or for "-" the token on standard input."""
    if given != "-":
        return given
    if sys.stdin.isatty():
        say("reading the token from standard input (paste it, then Ctrl-D)")
    read = sys.stdin.read().strip()
    if not read:
        raise Failed("no token on standard input")
    return read


# ---- token --client-credentials, token --jwt-bearer ---------------------------------------------------------

def add_token_flag(token_parser: argparse.ArgumentParser, signed_in_token: Callable[[argparse.Namespace], Any]) -> None:
    """`telenorid token --client-credentials`, `--jwt-bearer` and `--exchange`: the flags, and the choice between
    the kinds of token."""
    grant = token_parser.add_mutually_exclusive_group()
    grant.add_argument("--client-credentials", action="store_true",
                       help="print the client's own access token (the client credentials grant, RFC 6749 "
                            "section 4.4), for scripts: no sign-in, a confidential client whose secret is "
                            f"kept in the Secret Service or in {SECRET_VARIABLE}; --scope asks for scopes (default: "
                            "the provider's); kept where the state file's sign-ins are (a file beside it, or the "
                            "Secret Service) and used again while fresh, by every run at once; with "
                            "--json the token, expires_at and expires_in")
    grant.add_argument("--jwt-bearer", action="store_true",
                       help="print an access token of the JWT bearer grant (RFC 7523 section 2.1) for --subject, "
                            "with an assertion the library signs with the client's own key (client_private_key "
                            "in --config's file); kept and used again as --client-credentials' is")
    grant.add_argument("--exchange", action="store_true",
                       help="exchange --subject-token for another token (RFC 8693) and print the issued "
                            "token (its type on standard error; with --json the token, issued_token_type, "
                            "token_type, scope, expires_at, expires_in and any refresh_token); --scope "
                            "asks for scopes (default: the provider's)")
    token_parser.add_argument("--subject", metavar="S",
                              help="with --jwt-bearer: whom the assertion speaks for (its sub)")
    token_parser.add_argument("--resource", action="append", default=[], metavar="URI",
                              help="with --client-credentials, --jwt-bearer or --exchange: an absolute URI where "
                                   "the token is meant to be used (RFC 8707); repeat for several")

    token_parser.add_argument("--subject-token", metavar="TOKEN",
                              help="with --exchange: the token to exchange, or - to read it from standard input "
                                   "(an argument shows in ps)")
    types = ", ".join(name.lower() for name in TOKEN_TYPE_NAMES)
    token_parser.add_argument("--subject-token-type", default="access_token", metavar="TYPE",
                              help=f"with --exchange: what the subject token is: {types} (RFC 8693 section 3) "
                                   "or a URI (default access_token)")
    token_parser.add_argument("--actor-token", metavar="TOKEN",
                              help="with --exchange: the token of the party acting for the subject (delegation)")
    token_parser.add_argument("--actor-token-type", metavar="TYPE", help="with --actor-token: what it is (as above)")
    token_parser.add_argument("--audience", action="append", default=[], metavar="NAME",
                              help="with --exchange: a service the token is for, as the provider names it "
                                   "(repeatable)")
    token_parser.add_argument("--requested-token-type", metavar="TYPE",
                              help="with --exchange: the type of token wanted (as above; default: the provider's)")

    def run(args: argparse.Namespace) -> Any:
        if args.exchange:
            return exchanged_token(args)
        exchange_only = [flag for flag, value in (("--subject-token", args.subject_token),
                                                  ("--actor-token", args.actor_token),
                                                  ("--actor-token-type", args.actor_token_type),
                                                  ("--audience", args.audience),
                                                  ("--requested-token-type", args.requested_token_type)) if value]
        if exchange_only:
            raise UsageError(f"{exchange_only[0]} goes with --exchange")
        if args.client_credentials or args.jwt_bearer:
            return machine_token(args)
        if args.subject or args.resource:
            raise UsageError("--subject goes with --jwt-bearer, --resource with --client-credentials, --jwt-bearer "
                             "or --exchange")
        return signed_in_token(args)

    token_parser.set_defaults(run=run)


def machine_token(args: argparse.Namespace) -> None:
    if args.account:
        raise UsageError("--account names a sign-in; a machine's token uses none")
    if args.jwt_bearer != bool(args.subject):
        raise UsageError("--jwt-bearer needs --subject, and --subject goes only with --jwt-bearer")
    settings = machine_settings(args)
    # The scope asked for is --scope's alone: the settings' scope is the one a user signs in with (openid...).
    with client_for(settings) as client:
        try:
            if args.jwt_bearer:
                machine = telenorid.ClientCredentials.jwt_bearer(client, args.scope, subject=args.subject,
                                                                 resources=args.resource or ())
            else:
                machine = telenorid.ClientCredentials(client, args.scope, resources=args.resource or ())
        except telenorid.ConfigurationError as error:
            if settings.get(SECRET_KEY) or args.jwt_bearer:
                raise
            raise Failed(f"{error.message}: the client credentials grant is a confidential client's; set its "
                         f"secret in {SECRET_VARIABLE}") from None
        with machine:
            # Kept where the state file's sign-ins are, so that the next run (or one running at once) uses it
            # while fresh: one token request between them (cli_store.Place.machine_record).
            machine.bind_store(*Place.of(args, settings).machine_record())
            say(f"an access token of {settings['client_id']} from {settings['issuer']}")
            access_token = machine.access_token()
            expires_at = machine.expires_at
    left = None if expires_at is None else max(0, expires_at - int(time.time()))
    emit(args, {"access_token": access_token, "expires_at": expires_at, "expires_in": left}, access_token)


# ---- token --exchange -----------------------------------------------------------------------------------------

TOKEN_TYPE_NAMES = ("ACCESS_TOKEN", "REFRESH_TOKEN", "ID_TOKEN", "JWT", "SAML1", "SAML2")


def token_type(text: str) -> str:
    """A token type given by its short name (access_token...: RFC 8693 section 3's, the URN's last part) or as
    a URI, which the library checks."""
    name = text.upper()
    return str(getattr(telenorid.TokenType, name)) if name in TOKEN_TYPE_NAMES else text


def exchanged_token(args: argparse.Namespace) -> None:
    if args.account:
        raise UsageError("--account names a sign-in; --exchange exchanges the --subject-token given")
    if args.subject_token is None:
        raise UsageError("--exchange needs --subject-token (- reads it from standard input)")
    if (args.actor_token is None) != (args.actor_token_type is None):
        raise UsageError("--actor-token and --actor-token-type go together (RFC 8693 section 2.1)")
    settings = machine_settings(args)
    subject = read_token(args.subject_token)
    with client_for(settings) as client, telenorid.TokenExchange(
            subject, token_type(args.subject_token_type), actor_token=args.actor_token,
            actor_token_type=None if args.actor_token_type is None else token_type(args.actor_token_type),
            resources=args.resource, audiences=args.audience, scope=args.scope,
            requested_token_type=None if args.requested_token_type is None else token_type(args.requested_token_type)
    ) as exchange:
        say(f"exchanging the subject token at {settings['issuer']} as {settings['client_id']}")
        with exchange.exchange(client) as issued:
            document = {"token": issued.token, "issued_token_type": issued.issued_token_type,
                        "token_type": issued.token_type, "scope": issued.scope, "expires_at": issued.expires_at,
                        "refresh_token": issued.refresh_token}
    expires_at = document["expires_at"]
    document["expires_in"] = None if expires_at is None else max(0, int(expires_at) - int(time.time()))
    say(f"issued a token of type {document['issued_token_type']} (token_type {document['token_type']})")
    emit(args, document, str(document["token"]))


# ---- introspect, verify-access-token ------------------------------------------------------------------------

def add_commands(commands: Any, common: argparse.ArgumentParser) -> None:
    asked = commands.add_parser("introspect", parents=[common],
                                help="ask the provider whether a token is active and what it grants (RFC 7662)",
                                description="Asks the provider's introspection endpoint about a token, as a "
                                            "resource server would (RFC 7662), with this client's authentication; "
                                            "prints the answer, and exits 1 when the token is not active.")
    asked.add_argument("token", metavar="TOKEN",
                       help="the token, or - to read it from standard input (an argument shows in ps)")
    asked.add_argument("--token-type-hint", choices=("access_token", "refresh_token"),
                       help="what the token is, to help the provider look it up")
    asked.add_argument("--introspection-endpoint", metavar="URL",
                       help="the provider's introspection endpoint (default: discovered)")
    asked.set_defaults(run=introspect)
    checked = commands.add_parser("verify-access-token", parents=[common],
                                  help="a JWT access token's claims, verified with the provider's keys (RFC 9068)",
                                  description="Verifies a JWT access token here, with the provider's keys (RFC "
                                              "9068): typ at+jwt, signature, issuer, the audience --audience "
                                              "names, the times; prints its claims, and exits 1 when a check "
                                              "fails, saying which.")
    checked.add_argument("token", metavar="TOKEN",
                         help="the access token (a JWT), or - to read it from standard input")
    checked.add_argument("--audience", required=True, metavar="ID",
                         help="the resource server's identifier, which the token's aud must name")
    checked.add_argument("--algorithms", metavar="ALGS",
                         help='the signing algorithms to accept, space-separated (e.g. "RS256 ES256"; default: '
                              "every asymmetric one)")
    checked.add_argument("--accept-typ-jwt", action="store_true",
                         help="also accept a token whose typ is JWT rather than at+jwt (providers older than "
                              "RFC 9068)")
    checked.set_defaults(run=verify_access_token)


def introspect(args: argparse.Namespace) -> int:
    settings = machine_settings(args)
    if args.introspection_endpoint:
        settings["introspection_endpoint"] = args.introspection_endpoint
    # The audience is not checked on an introspection answer: the client's own id stands for it.
    with client_for(settings) as client, telenorid.ResourceServer(client, settings["client_id"]) as server:
        info = server.introspect(given_token(args), args.token_type_hint)
        answer = info.to_dict()
        active, expires = info.active, info.exp
    emit(args, answer, json.dumps(answer, indent=2, sort_keys=True))
    if not active:
        say("not active: expired, revoked, or not a token this provider issued (RFC 7662 section 2.2)")
        return EXIT_FAILED
    say("active" + (f"; {when(expires)}" if expires else ""))
    return EXIT_OK


def verify_access_token(args: argparse.Namespace) -> None:
    settings = machine_settings(args)
    with client_for(settings) as client, telenorid.ResourceServer(
            client, args.audience, access_token_signing_algs=args.algorithms,
            accept_typ_jwt=True if args.accept_typ_jwt else None) as server:
        token = given_token(args)
        # Blocks on the network only to fetch the key set: Ctrl-C cancels that.
        info = interruptible(client, lambda: server.verify_access_token(token))
        claims, expires = info.to_dict(), info.exp
    emit(args, claims, json.dumps(claims, indent=2, sort_keys=True))
    say(f"verified for {args.audience}" + (f"; {when(expires)}" if expires else ""))
