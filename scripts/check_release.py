#!/usr/bin/env python3
"""Checks that every artifact of a release directory carries the one version, include/telenorid.h's
TELENORID_VERSION_STRING. scripts/release.sh runs it before it writes SHA256SUMS; it exits non-zero naming
each artifact that carries another version (or none). Standard library and binutils' `nm` only.

    python3 scripts/check_release.py DIR

What "carries" means, artifact by artifact:
  - every file named telenorid-*: telenorid-<version> then "-" or "."; every path segment that looks like
    a version (a Maven repository's <group>/<artifact>/<version>/): the version;
  - a wheel: its METADATA's Version and its package's __version__; the sdist: its PKG-INFO's Version;
  - a .pom: its project's <version> (and its parent's, when it has one from this project); a Maven
    repository's maven-metadata.xml: every version it lists;
  - every copy of libtelenorid in any artifact (wheel, jar, C tarball): a file libtelenorid.so.<version> or
    libtelenorid.so.0, its version string (the bytes of telenorid_version_string()'s answer) inside, and
    exactly the functions the header declares exported (`nm -D`): a library built before the header last
    changed is stale even when its name is right;
  - a C tarball: its telenorid.pc's Version and its telenorid.h's TELENORID_VERSION_STRING.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "scripts" / "gen"), str(ROOT / "scripts")]
from header import parse  # noqa: E402  (the one reader of the header's declarations)
from sbom import members  # noqa: E402  (the files inside a wheel, jar or tarball)

HEADER = ROOT / "include" / "telenorid.h"
VERSION_SEGMENT = re.compile(r"\d+\.\d+\.\d+(?:[-.\w]*)?")


def header_facts() -> Tuple[str, Set[str]]:
    text = HEADER.read_text()
    match = re.search(r'^#define TELENORID_VERSION_STRING "([^"]+)"$', text, re.M)
    if not match:
        sys.exit("check_release: no TELENORID_VERSION_STRING in include/telenorid.h")
    functions = {function.name for function in parse(text).functions}
    return match.group(1), functions


def exported(data: bytes) -> Set[str]:
    with tempfile.NamedTemporaryFile(suffix=".so") as copy:
        copy.write(data)
        copy.flush()
        listing = subprocess.run(["nm", "-D", "--defined-only", copy.name], check=True, capture_output=True,
                                 text=True).stdout
    return {line.split()[-1] for line in listing.splitlines() if line.split()[-1].startswith("telenorid_")}


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit("usage: check_release.py DIR")
    directory = Path(sys.argv[1])
    version, functions = header_facts()
    problems: List[str] = []
    libraries = 0

    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        relative = path.relative_to(directory).as_posix()
        for segment in relative.split("/")[:-1]:
            if VERSION_SEGMENT.fullmatch(segment) and segment != version:
                problems.append(f"{relative}: in a directory of version {segment}")
        if path.name.startswith("telenorid-") and not re.match(rf"telenorid-{re.escape(version)}[-.]", path.name):
            problems.append(f"{relative}: not named for version {version}")
        if path.suffix == ".pom":
            project = ET.parse(path).getroot()
            ns = {"m": "http://maven.apache.org/POM/4.0.0"}
            pom_version = project.findtext("m:version", namespaces=ns) or project.findtext("version")
            if pom_version != version:
                problems.append(f"{relative}: <version>{pom_version}</version>")
            parent = project.find("m:parent", ns)
            if parent is not None and (parent.findtext("m:groupId", namespaces=ns) or "").startswith("no.telenor"):
                if parent.findtext("m:version", namespaces=ns) != version:
                    problems.append(f"{relative}: its parent is of another version")
        if path.name == "maven-metadata.xml":
            listed = [element.text for element in ET.parse(path).getroot().iter()
                      if element.tag in ("version", "latest", "release")]
            if not listed or any(found != version for found in listed):
                problems.append(f"{relative}: lists versions {listed}")
        for name, data in members(path):
            base = name.rsplit("/", 1)[-1]
            where = f"{relative}:{name}"
            found: Optional[re.Match[str]] = None
            if base in ("METADATA", "PKG-INFO") and (".dist-info/" in name or name.count("/") == 1):
                found = re.search(r"^Version: (.+)$", data.decode(), re.M)
                if not found or found.group(1).strip() != version:
                    problems.append(f"{where}: Version {found.group(1) if found else 'missing'}")
            elif name.endswith("telenorid/__init__.py"):
                found = re.search(r'^__version__ = "([^"]+)"', data.decode(), re.M)
                if not found or found.group(1) != version:
                    problems.append(f"{where}: __version__ {found.group(1) if found else 'missing'}")
            elif base == "telenorid.pc":
                found = re.search(r"^Version: (.+)$", data.decode(), re.M)
                if not found or found.group(1).strip() != version:
                    problems.append(f"{where}: Version {found.group(1) if found else 'missing'}")
            elif base == "telenorid.h" and "/include/" in f"/{name}":
                found = re.search(r'^#define TELENORID_VERSION_STRING "([^"]+)"$', data.decode(), re.M)
                if not found or found.group(1) != version:
                    problems.append(f"{where}: TELENORID_VERSION_STRING {found.group(1) if found else 'missing'}")
            elif base.startswith("libtelenorid.so") and data.startswith(b"\x7fELF"):
                libraries += 1
                if base not in (f"libtelenorid.so.{version}", "libtelenorid.so.0"):
                    problems.append(f"{where}: a library named for another version")
                if b"\0" + version.encode() + b"\0" not in data:
                    problems.append(f"{where}: its version string is not {version}")
                names = exported(data)
                if names != functions:
                    missing, extra = sorted(functions - names), sorted(names - functions)
                    problems.append(f"{where}: exports other functions than the header declares (built from other "
                                    f"sources: rebuild it); missing {missing[:5]}, not in the header {extra[:5]}")
    if libraries == 0:
        problems.append("no libtelenorid in any artifact")
    if problems:
        print("\n".join(f"check_release: {problem}" for problem in problems), file=sys.stderr)
        return 1
    print(f"check_release: every artifact in {directory} is version {version} ({libraries} copies of libtelenorid, "
          f"each exporting the header's {len(functions)} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
