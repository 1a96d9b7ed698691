#!/usr/bin/env python3
"""Checks rules of the committed tree that no compiler sees, and exits 1 naming each breach:

- the platform's C library (Glibc, Musl, Android, Darwin, WinSDK) is imported by one Swift file,
  Sources/TelenoridCore/Support/Platform.swift, which re-exports it: any other import would keep the core from
  compiling for the platforms that file switches between;
- no committed file holds an absolute path of a build machine (/work/..., /root/..., /home/NAME/..., /Users/...):
  such a path works only where it was written.

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
        if name != "scripts/check_tree.py":
            for match in MACHINE_PATH.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{name}:{line}: a build machine's absolute path {match.group(0)!r}")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check_tree: ok ({len(files)} committed files: the C library imported in {PLATFORM_FILE} only, "
          "no build machine's paths)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
