#!/usr/bin/env python3
"""Writes the manual page telenorid.1 (roff, man macros) from the `telenorid` command's own argparse parser, so it
names exactly the subcommands and options the command takes, with their help texts.

    python3 scripts/gen_man.py --output out/man/man1/telenorid.1

The date in its title line is SOURCE_DATE_EPOCH's when set (reproducible builds), else today's. Needs no
libtelenorid: building the parser loads nothing."""
from __future__ import annotations

import argparse
import datetime
import os
import re
import sys
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bindings" / "python"))

import telenorid  # noqa: E402
from telenorid import cli  # noqa: E402
from telenorid.cli_completion import subcommands  # noqa: E402


STATE_FILE = "$XDG_STATE_HOME/telenorid/state.json"


def text(value: str) -> str:
    """Plain text for a roff line: backslashes escaped, every character beyond ASCII as its glyph by code point
    (so the page reads the same whatever input encoding groff assumes), every hyphen as \\- (the ASCII
    hyphen-minus of an option, a path or a command a reader copies), and a leading dot or quote kept from being
    read as a request."""
    value = value.replace("\\", "\\e")
    value = value.replace("-", "\\-")  # options, paths and commands are copied: ASCII hyphen-minus, not U+2010
    value = "".join(character if ord(character) < 128 else f"\\[u{ord(character):04X}]" for character in value)
    return "\\&" + value if value[:1] in (".", "'") else value


def paragraphs(block: str) -> List[str]:
    return [" ".join(part.split()) for part in re.split(r"\n\s*\n", block.strip()) if part.strip()]


def option_lines(action: argparse.Action) -> List[str]:
    """.TP, the option's spellings with its value's name (or its choices), then its help."""
    if action.nargs == 0:
        value = ""
    elif action.choices and not action.metavar:
        value = " {" + "|".join(f"\\fB{text(str(choice))}\\fR" for choice in action.choices) + "}"
    else:
        value = f" \\fI{text(action.metavar or action.dest.upper())}\\fR"
    spellings = ", ".join(f"\\fB{text(flag)}\\fR{value}" for flag in action.option_strings)
    # The default state file is the reader's, not the path of the machine that made the page.
    help_text = " ".join((action.help or "").split()).replace(str(cli.DEFAULT_STATE), STATE_FILE)
    return [".TP", spellings, text(help_text)]


def positional_name(action: argparse.Action) -> str:
    """A positional argument as the synopsis shows it: its choices in bold, else its name in italics."""
    if action.choices:
        return "{" + "|".join(f"\\fB{text(str(choice))}\\fR" for choice in action.choices) + "}"
    return f"\\fI{text(action.metavar or action.dest.upper())}\\fR"


def positional_lines(action: argparse.Action) -> List[str]:
    return [".TP", positional_name(action), text(" ".join((action.help or "").split()))]


def options(parser: argparse.ArgumentParser) -> Iterable[argparse.Action]:
    return (action for action in parser._actions  # argparse has no public way to walk its actions
            if action.option_strings and action.help != argparse.SUPPRESS)


def positionals(parser: argparse.ArgumentParser) -> Iterable[argparse.Action]:
    return (action for action in parser._actions
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction))


def command_helps(parser: argparse.ArgumentParser) -> Dict[str, str]:
    return {choice.dest: choice.help or "" for action in parser._actions
            if isinstance(action, argparse._SubParsersAction) for choice in action._choices_actions}


def synopsis(name: str, sub: argparse.ArgumentParser, common: set) -> str:
    words = [f"\\fBtelenorid {text(name)}\\fR"]
    if any(flag in common for action in options(sub) for flag in action.option_strings):
        words.append("[\\fIcommon options\\fR]")
    own = [action for action in options(sub) if not set(action.option_strings) & common
           and action.option_strings != ["-h", "--help"]]
    words += [f"[\\fB{text(action.option_strings[-1])}\\fR"
              + ("" if action.nargs == 0 else f" \\fI{text(action.metavar or action.dest.upper())}\\fR") + "]"
              for action in own]
    for action in positionals(sub):
        shown = positional_name(action)
        words.append(f"[{shown}]" if action.nargs == "?" else shown)
    return " ".join(words)


def page(date: str) -> str:
    top = cli.parser()
    common = {flag for action in options(cli.common_options()) for flag in action.option_strings}
    helps = command_helps(top)
    commands: List[Tuple[str, List[str], argparse.ArgumentParser]] = []
    for name, sub in subcommands(top).items():  # aliases share a parser: one section, the alias named in it
        for known in commands:
            if known[2] is sub:
                known[1].append(name)
                break
        else:
            commands.append((name, [], sub))
    summary, _overview, *notes = paragraphs(cli.__doc__ or "")  # the overview: COMMANDS below, in full
    lines = [f'.TH TELENORID 1 "{date}" "telenorid {telenorid.__version__}" "User Commands"',
             ".SH NAME", "telenorid \\- " + text(summary.split(": ", 1)[1].split(", for people")[0]),
             ".SH SYNOPSIS", "\\fBtelenorid\\fR [\\fB\\-\\-version\\fR] [\\fB\\-v\\fR] \\fIcommand\\fR "
             "[\\fIoptions\\fR] [\\fIarguments\\fR]",
             ".SH DESCRIPTION", text(summary.split(": ", 1)[1][:1].upper() + summary.split(": ", 1)[1][1:])]
    lines += [line for note in notes for line in (".PP", text(note))]
    lines += [".SH COMMANDS"]
    for name, aliases, sub in commands:
        lines += [".SS " + f'"{text(name)}"', synopsis(name, sub, common), ".PP",
                  text(helps.get(name, "")[:1].upper() + helps.get(name, "")[1:] + ".")]
        if aliases:
            lines += [".PP", f"Also spelt \\fBtelenorid {text(', '.join(aliases))}\\fR."]
        lines += [line for action in positionals(sub) for line in positional_lines(action)]
        lines += [line for action in options(sub)
                  if not set(action.option_strings) & common and action.option_strings != ["-h", "--help"]
                  for line in option_lines(action)]
    lines += [".SH COMMON OPTIONS",
              "Every command but \\fBcompletion\\fR takes these, and \\fB\\-h\\fR, \\fB\\-\\-help\\fR."]
    lines += [line for action in options(cli.common_options()) for line in option_lines(action)]
    lines += [".SH OPTIONS", "Before the command:"]
    lines += [line for action in options(top) for line in option_lines(action)]
    lines += [".SH EXIT STATUS"]
    for code, meaning in cli.EXIT_CODES:
        lines += [".TP", f"\\fB{code}\\fR", text(meaning[:1].upper() + meaning[1:] + ".")]
    lines += [".SH ENVIRONMENT",
              ".TP", "\\fBTELENORID_CLIENT_SECRET\\fR",
              "A confidential client's secret, read by every command where it is not kept in the Secret Service.",
              ".TP", "\\fBTELENORID_BROWSER\\fR", "The default of \\fB\\-\\-browser\\-command\\fR.",
              ".TP", "\\fBTELENORID_STORE\\fR", "The default of \\fB\\-\\-store\\fR for \\fBlogin\\fR.",
              ".TP", "\\fBTELENORID_LIBRARY\\fR", "The path of libtelenorid.so to load, before any other.",
              ".TP", "\\fBXDG_STATE_HOME\\fR",
              "The directory under which the default state file is (~/.local/state when unset).",
              ".SH FILES", ".TP", f"\\fI{text(STATE_FILE)}\\fR",
              "The default state file: it names the accounts' place; beside it, state.settings.json holds the "
              "settings and, with \\fB\\-\\-store file\\fR, state.<id>.json each account's sign-in (mode 0600).",
              ".SH EXAMPLES", ".nf"]
    lines += [text("telenorid login --issuer https://login.example.com --client-id my-app"),
              text("telenorid login --device --json --issuer https://login.example.com --client-id my-tv-app"),
              text("telenorid status"),
              text("curl -H \"Authorization: Bearer $(telenorid token)\" https://api.example.com/me"),
              text("telenorid completion bash > ~/.local/share/bash-completion/completions/telenorid"),
              ".fi"]
    return "\n".join(lines) + "\n"


def main() -> int:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--output", type=Path, help="the file to write (default: standard output)")
    args = arguments.parse_args()
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    day = datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date() if epoch \
        else datetime.date.today()
    written = page(day.isoformat())
    if args.output is None:
        sys.stdout.write(written)
    else:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_text(written)
    return 0


if __name__ == "__main__":
    sys.exit(main())
