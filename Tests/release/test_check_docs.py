"""`make check-docs` catches what it is for: copies of include/telenorid.h, each with one thing taken away or
added, make `scripts/gen --check-docs` (the C reference's emitter, scripts/gen/emit_c_reference.py, over
header.py's reading of the header) fail naming it; the header itself passes.

    python3 Tests/release/test_check_docs.py
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = (ROOT / "include" / "telenorid.h").read_text()
sys.path.insert(0, str(ROOT / "scripts" / "gen"))

import emit_c_reference  # noqa: E402
from header import parse  # noqa: E402


def check(text: str) -> "subprocess.CompletedProcess[str]":
    with tempfile.TemporaryDirectory() as work:
        header = Path(work) / "telenorid.h"
        header.write_text(text)
        return subprocess.run([sys.executable, str(ROOT / "scripts" / "gen"), "--check-docs", "--header", str(header)],
                              capture_output=True, text=True)


def fails_with(text: str, expected: str, what: str) -> None:
    result = check(text)
    assert result.returncode == 1 and expected in result.stderr, f"{what}: {result.returncode}\n{result.stderr}"
    print(f"ok: {what}: {expected}")


def without(old: str, new: str) -> str:
    assert HEADER.count(old) == 1, old
    return HEADER.replace(old, new)


def main() -> int:
    result = check(HEADER)
    assert result.returncode == 0 and "is documented" in result.stdout, result.stderr
    print(f"ok: the header passes ({result.stdout.strip()})")

    # a function's comment removed
    block = re.search(r"/\* Refreshes now, whatever the expiry.*?\*/\n", HEADER, re.S)
    assert block
    fails_with(HEADER.replace(block.group(0), ""), "function telenorid_auth_state_refresh has no comment",
               "a function without its comment")
    # a key's trailing comment removed, in a run where the others have theirs
    fails_with(without("#define TELENORID_CONFIG_SCOPE                   4  /* space-separated; default \"openid\" */",
                       "#define TELENORID_CONFIG_SCOPE                   4"),
               "constant TELENORID_CONFIG_SCOPE has no comment", "a key without its comment")
    # a status code without its comment
    fails_with(without("#define TELENORID_E_MALFORMED             2  /* input that does not parse: URL, JSON, parameter */",
                       "#define TELENORID_E_MALFORMED             2"),
               "constant TELENORID_E_MALFORMED has no comment", "a status code without its comment")
    # a type separated from its comment by a blank line
    fails_with(without("typedef struct telenorid_client telenorid_client;\n", "\ntypedef struct telenorid_client telenorid_client;\n"),
               "type telenorid_client has no comment", "a type whose comment is not directly above it")
    # a new declaration with no comment at all, appended to a section
    fails_with(without("void telenorid_string_free(char *string);\n",
                       "void telenorid_string_free(char *string);\n\nvoid telenorid_string_wipe(char *string);\n"),
               "function telenorid_string_wipe has no comment", "a new function without a comment")
    # prose naming a function the header does not declare (a rename left behind)
    fails_with(without("/* Wipes and frees a string the library handed out.",
                       "/* Like telenorid_string_release(). Wipes and frees a string the library handed out."),
               "names telenorid_string_release, which the header does not declare", "a comment naming no declaration")
    # a statement the reader does not know stops it rather than being left out
    result = check(without("void telenorid_string_free(char *string);\n",
                           "void telenorid_string_free(char *string);\nextern int telenorid_flags[4];\n"))
    assert result.returncode != 0 and "cannot read" in result.stderr, result.stderr
    print("ok: a declaration of a kind it cannot read stops it")

    # the page the header gives, spoilt: a declaration's anchor lost, an element closed out of order
    found = parse(HEADER)
    page = emit_c_reference.page(found)
    assert emit_c_reference.problems(found, page, "telenorid.h") == []
    anchor = '<span id="telenorid_client_new">'
    assert page.count(anchor) == 1, anchor
    problems = emit_c_reference.problems(found, page.replace(anchor, "<span>"), "telenorid.h")
    assert problems == ["the page has no anchor for telenorid_client_new"], problems
    print(f"ok: a page without a declaration's anchor: {problems[0]}")
    problems = emit_c_reference.problems(found, page.replace("</table>", "", 1), "telenorid.h")
    assert problems and problems[0] == "the page: </div> closes <table>", problems
    print(f"ok: a page not well formed: {problems[0]}")
    print("check-docs: 10 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
