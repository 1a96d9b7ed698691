"""The `telenorid` command's documentation and shape, none of which needs the library: --help in plain text,
the manual page scripts/gen_man.py writes from the parser (checked by groff and man as a reader's would), and
the CLI modules importing one another without a circle."""
import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bindings" / "python" / "telenorid"


def command_parsers():
    """The top parser and each subcommand's, by the words that reach it."""
    from telenorid import cli
    from telenorid.cli_completion import subcommands

    top = cli.parser()
    return {"telenorid": top, **{f"telenorid {name}": sub for name, sub in subcommands(top).items()}}


def test_help_is_plain_text_without_restructuredtext_markup():
    parsers = command_parsers()
    assert {"telenorid login", "telenorid status", "telenorid accounts", "telenorid decode"} <= set(parsers)
    for words, parser in parsers.items():
        shown = parser.format_help()
        assert "`" not in shown, f"{words} --help: {[line for line in shown.splitlines() if '`' in line]}"
        assert ":class:" not in shown and ":func:" not in shown
    # As a user sees it, from the command itself.
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    for words in ("--help", "login --help", "accounts --help"):
        shown = subprocess.run([sys.executable, "-m", "telenorid", *words.split()], capture_output=True, text=True,
                               env=environment, timeout=60)
        assert shown.returncode == 0 and "`" not in shown.stdout, shown.stdout


@pytest.fixture(scope="module")
def man_page(tmp_path_factory):
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed (Debian: apt-get install groff-base)")
    page = tmp_path_factory.mktemp("man") / "man1" / "telenorid.1"
    made = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_man.py"), "--output", str(page)],
                          capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, SOURCE_DATE_EPOCH="1796083200", TELENORID_LIBRARY="/nonexistent"))
    assert made.returncode == 0 and made.stderr == "", made.stderr
    return page


def test_the_man_page_formats_without_a_warning(man_page):
    formatted = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(man_page)], capture_output=True,
                               text=True, timeout=60)
    assert formatted.returncode == 0 and formatted.stderr == "", formatted.stderr
    if shutil.which("man") is None:
        pytest.skip("man is not installed (Debian: apt-get install man-db)")
    shown = subprocess.run(["man", "--warnings", "-l", str(man_page)], capture_output=True, text=True, timeout=60,
                           env=dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat"))
    assert shown.returncode == 0 and shown.stderr == "", shown.stderr
    assert shown.stdout.startswith("TELENORID(1)")
    assert "2026-12-01" in shown.stdout.splitlines()[-1], "the date is SOURCE_DATE_EPOCH's"


def test_the_man_page_names_every_subcommand_and_option(man_page):
    """Read in the roff itself (a formatted page hyphenates and emboldens): each subcommand has its section, or
    is named as the alias of one; each option of each is there, set in bold; each exit status has its entry."""
    from telenorid import cli

    roff = man_page.read_text()
    # A hyphen in roff is written \- (a name such as verify-access-token).
    sections = [line[len('.SS "'):-1].replace("\\-", "-") for line in roff.splitlines() if line.startswith(".SS ")]
    parsers = command_parsers()
    for words, parser in parsers.items():
        if words == "telenorid":
            continue
        name = words.removeprefix("telenorid ")
        assert name in sections or f"Also spelt \\fBtelenorid {name}\\fR." in roff, f"{name} has no section"
        for action in parser._actions:
            for flag in action.option_strings:
                assert "\\fB" + flag.replace("-", "\\-") + "\\fR" in roff, f"{words} {flag} is not in the man page"
    assert sections == ["login", "status", "token", "userinfo", "refresh", "revoke", "logout", "accounts", "verify",
                        "introspect", "verify-access-token", "completion"]
    for code, _ in cli.EXIT_CODES:
        assert f".TP\n\\fB{code}\\fR\n" in roff, f"exit status {code}"
    assert "/root" not in roff and str(Path.home()) not in roff, "the state file is the reader's, not ours"


def cli_modules():
    return [PACKAGE / "cli.py", *sorted(PACKAGE.glob("cli_*.py"))]


def cli_imports():
    """For each CLI module (and the helper they share): the package modules it imports, at any depth of its code."""
    imported = {}
    for path in cli_modules() + [PACKAGE / "_interruptible.py"]:
        names = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names.update([node.module] if node.module else [alias.name for alias in node.names])
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("telenorid."):
                names.add(node.module.split(".", 1)[1])
        imported[path.stem] = names
    return imported


def test_the_cli_modules_import_one_another_without_a_circle():
    imported = cli_imports()
    assert "cli" not in imported["cli_device"] and "cli" not in imported["cli_ciba"]
    assert "_interruptible" in imported["cli_device"] and "_interruptible" in imported["cli_ciba"]
    visiting, done = [], set()

    def visit(module):
        assert module not in visiting, f"import circle: {' -> '.join(visiting + [module])}"
        if module in done or module not in imported:
            return
        visiting.append(module)
        for each in imported[module]:
            visit(each)
        visiting.pop()
        done.add(module)

    for module in imported:
        visit(module)
    # Each imports alone, in a fresh interpreter (a circle hidden in a function would show here when it runs).
    environment = dict(os.environ, PYTHONPATH=str(ROOT / "bindings" / "python"))
    for module in imported:
        alone = subprocess.run([sys.executable, "-c", f"import telenorid.{module}"], capture_output=True, text=True,
                               env=environment, timeout=60)
        assert alone.returncode == 0, f"telenorid.{module}: {alone.stderr}"


def test_one_module_decides_where_a_sign_in_is_kept():
    """Only cli_store.py knows the stores apart (files or the Secret Service, and the records' names in each);
    the others ask its Place."""
    for path in cli_modules():
        if path.name == "cli_store.py":
            continue
        code = path.read_text()
        for knowledge in ("SecretServiceStore", "DirectoryStore", "open_auth_state_file", "bind_file", "== FILE",
                          "secret_service(", "record_key("):
            assert knowledge not in code, f"{path.name} decides where a sign-in is kept: {knowledge}"
