"""Writes every mirror of include/telenorid.h, or checks that the committed ones are what it would write.

    python3 scripts/gen            # `make generate`: rewrites every generated file and region
    python3 scripts/gen --check    # `make check-generated` (in `make test`): regenerates into a temporary
                                   # tree, prints the differences, exits 1 on any
    python3 scripts/gen --docs DIR # `make docs`: the C API reference, DIR/index.html (emit_c_reference.py)
    python3 scripts/gen --check-docs [--header FILE]
                                   # `make check-docs` (in `make test`): every declaration of the header (or
                                   # of FILE) has its comment, and the reference it gives is sound; writes nothing

One emitter per mirror (emit_*.py), all reading the header through header.py. A generated file says so in its
first line (output.GENERATED); a generated region of a hand-written file sits between a `// BEGIN <name>: ...`
and an `// END <name>` line. So a hand edit of a generated file, and a header change not regenerated, both fail
`make check-generated`. The C reference is built output (out/docs), not a committed mirror: --check does not
compare it. Standard library only.
"""
from __future__ import annotations

import argparse
import difflib
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import emit_c_contract  # noqa: E402
import emit_c_reference  # noqa: E402
import emit_java  # noqa: E402
import emit_python  # noqa: E402
from header import HEADER, ROOT, read  # noqa: E402
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


def reference(header: Path, output: Optional[Path]) -> int:
    """Checks the C reference that `header` gives and, with an output directory, writes it there."""
    found = read(header)
    page = emit_c_reference.page(found)
    problems = emit_c_reference.problems(found, page, header.name)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"scripts/gen: {len(problems)} problem(s) in the C reference; a declaration's comment goes directly "
              "above it or on its line (see scripts/gen/emit_c_reference.py)", file=sys.stderr)
        return 1
    if output is None:
        print(f"check-docs: every one of the header's {emit_c_reference.summary(found)} is documented")
        return 0
    output.mkdir(parents=True, exist_ok=True)
    (output / "index.html").write_text(page, encoding="utf-8")
    print(f"{output / 'index.html'}: {emit_c_reference.summary(found)}, {len(page)} bytes")
    return 0


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    modes.add_argument("--docs", type=Path, metavar="DIR", help="write the C reference, DIR/index.html")
    modes.add_argument("--check-docs", action="store_true", help="check the C reference's sources; write nothing")
    parser.add_argument("--header", type=Path, default=HEADER,
                        help="with --docs or --check-docs: the header to read (default include/telenorid.h)")
    args = parser.parse_args(argv)
    if args.docs is not None or args.check_docs:
        return reference(args.header, args.docs)
    if args.header != HEADER:
        parser.error("--header goes with --docs or --check-docs: the mirrors are made from include/telenorid.h")
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
