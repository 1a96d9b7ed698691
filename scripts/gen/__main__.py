"""Writes every mirror of include/telenorid.h, or checks that the committed ones are what it would write.

    python3 scripts/gen            # `make generate`: rewrites every generated file and region
    python3 scripts/gen --check    # `make check-generated` (in `make test`): regenerates into a temporary
                                   # tree, prints the differences, exits 1 on any

One emitter per mirror (emit_*.py), all reading the header through header.py. A generated file says so in its
first line (output.GENERATED); a generated region of a hand-written file sits between a `// BEGIN <name>: ...`
and an `// END <name>` line. So a hand edit of a generated file, and a header change not regenerated, both fail
`make check-generated`. Standard library only.
"""
from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from pathlib import Path
from typing import Dict, List

sys.path.insert(0, str(Path(__file__).resolve().parent))

import emit_c_contract  # noqa: E402
import emit_java  # noqa: E402
import emit_python  # noqa: E402
from header import ROOT, read  # noqa: E402
from output import GENERATED  # noqa: E402

EMITTERS = (emit_python, emit_java, emit_c_contract)

# Where generated files live: a file here whose first line says it is generated must be one an emitter writes.
GENERATED_DIRS = ("bindings/python/telenorid", "bindings/jni/src/main/java/no/telenor/id", "bindings/jni/src/main/c",
                  "Tests/c")


def emit() -> Dict[str, str]:
    found = read()
    files: Dict[str, str] = {}
    for emitter in EMITTERS:
        for path, text in emitter.files(found).items():
            if path in files:
                sys.exit(f"scripts/gen: {path} is written by two emitters")
            files[path] = text
    return files


def stale(files: Dict[str, str]) -> List[str]:
    """Files that say they are generated but no emitter writes any more."""
    found = []
    for directory in GENERATED_DIRS:
        for path in sorted((ROOT / directory).iterdir()):
            if path.is_file() and str(path.relative_to(ROOT)) not in files:
                with path.open(encoding="utf-8", errors="replace") as file:
                    if GENERATED in file.readline():
                        found.append(str(path.relative_to(ROOT)))
    return found


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    args = parser.parse_args(argv)
    files = emit()
    if not args.check:
        for path, text in files.items():
            target = ROOT / path
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
                print(f"scripts/gen: wrote {path}")
        for path in stale(files):
            print(f"scripts/gen: {path} says it is generated but nothing generates it: remove it", file=sys.stderr)
        return 0
    differ = 0
    with tempfile.TemporaryDirectory(prefix="telenorid-gen-") as temporary:
        for path, text in files.items():
            fresh = Path(temporary) / path
            fresh.parent.mkdir(parents=True, exist_ok=True)
            fresh.write_text(text, encoding="utf-8")
            committed = ROOT / path
            old = committed.read_text(encoding="utf-8") if committed.exists() else ""
            new = fresh.read_text(encoding="utf-8")
            if old != new:
                differ += 1
                sys.stderr.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                           f"{path} (committed)", f"{path} (from the header)"))
    leftovers = stale(files)
    for path in leftovers:
        print(f"scripts/gen: {path} says it is generated but nothing generates it", file=sys.stderr)
    if differ or leftovers:
        print(f"scripts/gen: {differ + len(leftovers)} generated file(s) differ from what include/telenorid.h "
              "gives: run `make generate` (and never edit a generated file by hand)", file=sys.stderr)
        return 1
    print(f"scripts/gen: {len(files)} generated files agree with include/telenorid.h")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
