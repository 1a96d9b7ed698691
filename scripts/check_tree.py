#!/usr/bin/env python3
"""Checks rules of the committed tree that no compiler sees, and exits 1 naming each breach:

- the platform's C library (Glibc, Musl, Android, Darwin, WinSDK) is imported by one Swift file,
  Sources/TelenoridCore/Support/Platform.swift, which re-exports it: any other import would keep the core from
  compiling for the platforms that file switches between;
- no committed file holds an absolute path of a build machine (/work/..., /root/..., /home/NAME/..., /Users/...):
  such a path works only where it was written;
- no Swift file under Sources/ calls `preconditionFailure(`, `fatalError(` or writes `try!` or `as!`: each traps,
  and Swift has no way to stop a trap at the C boundary, so it would kill the host (an app, a Python interpreter).
  Tests and fuzz targets may trap.

It reads `git ls-files`, so only what a clone holds is judged. Python 3.9+, standard library only.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLATFORM_FILE = "Sources/TelenoridCore/Support/Platform.swift"
C_LIBRARY_IMPORT = re.compile(r"^\s*(?:@_exported\s+)?import\s+(?:Glibc|Musl|Android|Darwin|WinSDK)\b", re.MULTILINE)
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|Users|home/[a-z_][a-z0-9_-]*)/[\w.-]+")
TRAP = re.compile(r"\b(?:preconditionFailure\(|fatalError\(|try!|as!)")
STRING_LITERAL = re.compile(r'"(?:\\.|[^"\\])*"')


def committed() -> list[str]:
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [name for name in listing.decode().split("\0") if name]


def main() -> int:
    problems: list[str] = []
    files = committed()
    for name in files:
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # binary: fuzz corpora
        if name.endswith(".swift") and name != PLATFORM_FILE:
            for match in C_LIBRARY_IMPORT.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{name}:{line}: imports the C library; only {PLATFORM_FILE} may (the core gets it from there)")
        if name.startswith("Sources/") and name.endswith(".swift"):
            for number, line_text in enumerate(text.splitlines(), start=1):
                code = STRING_LITERAL.sub('""', line_text).split("//", 1)[0]
                for match in TRAP.finditer(code):
                    problems.append(f"{name}:{number}: {match.group(0).rstrip('(')} traps on failure, and nothing may trap "
                                    "across the C boundary: throw a TelenoridError (or return nil) instead")
        if name != "scripts/check_tree.py":
            for match in MACHINE_PATH.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{name}:{line}: a build machine's absolute path {match.group(0)!r}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check_tree: ok ({len(files)} committed files: the C library imported in {PLATFORM_FILE} only, "
          "no build machine's paths, no trapping call in Sources/)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
