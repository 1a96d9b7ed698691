#!/usr/bin/env python3
"""A CycloneDX 1.5 JSON SBOM of a release, read from the artifacts themselves. Standard library only.

    python3 scripts/sbom.py --version 0.8.0 --output dist/telenorid-0.8.0.cdx.json ARTIFACT...

(`make release`, scripts/release.sh, runs it over everything it put in dist/.) Each artifact (a wheel, a
jar, a C tarball, the sdist, the source tarball) is a component with its SHA-256; inside it, each shared
library it carries (every member that starts with the ELF magic, whatever its name) is a nested component
with its own SHA-256, its path in the artifact, its SONAME and what it needs (DT_NEEDED), and a
`dependencies` entry for each of those it needs that the same artifact carries. A library is:
  - ours (libtelenorid, the JNI bridge libtelenorid_jni): named and versioned as the release, with the
    Swift standard library compiled into it (Embedded Swift) as a component of its own, versioned by the
    `swiftc` on PATH (the one scripts/embedded.sh builds with);
  - a library auditwheel grafted into a wheel (telenorid.libs/libcurl-02fbea31.so.4.8.0): auditwheel names
    the copy after the original file with 8 hex digits of its digest inserted (libcurl.so.4.8.0), so the
    original is found in the Debian multiarch directory of the wheel's architecture, its package asked of
    dpkg (binary package, version, source package, the licence of the Debian copyright file's `Files: *`),
    and the copy checked to be that file: auditwheel rewrites only the dynamic section's names, so the
    copy's .text section must be the original's byte for byte. A copy that is not, or that no package
    owns, stops the script: the SBOM names nothing it did not verify.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import struct
import subprocess
import sys
import tarfile
import uuid
import zipfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Dict, Iterator, List, NoReturn, Optional, Tuple
from urllib.parse import quote

MULTIARCH = {"x86_64": ("x86_64-linux-gnu", "amd64"), "aarch64": ("aarch64-linux-gnu", "arm64")}
ELF_MACHINES = {62: "x86_64", 183: "aarch64"}
OURS = {"libtelenorid.so": "libtelenorid", "libtelenorid_jni.so": "libtelenorid_jni"}


def fail(message: str) -> NoReturn:
    sys.exit(f"sbom: {message}")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Elf:
    """The few facts of a 64-bit little-endian ELF shared library this needs: machine, sections, SONAME, NEEDED."""

    def __init__(self, data: bytes, where: str) -> None:
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            fail(f"{where}: not a 64-bit little-endian ELF file")
        self.data = data
        (self.machine,) = struct.unpack_from("<H", data, 18)
        shoff, = struct.unpack_from("<Q", data, 40)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 58)
        self.sections: List[Tuple[int, int, int, int, int]] = []  # (name offset, type, offset, size, link)
        for index in range(shnum):
            name, kind, _, _, offset, size, link = struct.unpack_from("<IIQQQQI", data, shoff + index * shentsize)
            self.sections.append((name, kind, offset, size, link))
        names = self.sections[shstrndx]
        self.names = [self._string(names[2], entry[0]) for entry in self.sections]
        self.soname: Optional[str] = None
        self.needed: List[str] = []
        for (_, kind, offset, size, link) in self.sections:
            if kind != 6:  # SHT_DYNAMIC
                continue
            strtab = self.sections[link][2]
            for entry in range(offset, offset + size, 16):
                tag, value = struct.unpack_from("<qQ", data, entry)
                if tag == 0:
                    break
                if tag == 1:
                    self.needed.append(self._string(strtab, value))
                elif tag == 14:
                    self.soname = self._string(strtab, value)

    def _string(self, table: int, offset: int) -> str:
        end = self.data.index(b"\0", table + offset)
        return self.data[table + offset:end].decode()

    @property
    def arch(self) -> str:
        return ELF_MACHINES.get(self.machine, f"machine-{self.machine}")

    def section(self, name: str) -> bytes:
        for section_name, (_, kind, offset, size, _) in zip(self.names, self.sections):
            if section_name == name:
                return self.data[offset:offset + size]
        fail(f"no {name} section")


def members(path: Path) -> Iterator[Tuple[str, bytes]]:
    """(name, bytes) of each regular file in a zip (wheel, jar) or tar.gz artifact."""
    if path.suffix in (".whl", ".jar", ".zip"):
        with zipfile.ZipFile(path) as archive:
            for info in archive.infolist():
                if not info.is_dir():
                    yield info.filename, archive.read(info)
    elif path.name.endswith(".tar.gz"):
        with tarfile.open(path) as tar:
            for entry in tar.getmembers():
                if entry.isfile():
                    handle = tar.extractfile(entry)
                    assert handle is not None
                    yield entry.name, handle.read()
    # anything else (a .pom, a .asc) carries no files


def dpkg(*args: str) -> str:
    return subprocess.run(["dpkg-query", *args], check=True, capture_output=True, text=True).stdout


def debian_licence(package: str) -> Optional[str]:
    """The licence of the `Files: *` paragraph of a machine-readable Debian copyright file, or None."""
    copyright_file = Path("/usr/share/doc") / package.split(":")[0] / "copyright"
    if not copyright_file.is_file():
        return None
    text = copyright_file.read_text(errors="replace")
    if not text.startswith("Format:"):
        return None
    for paragraph in re.split(r"\n\s*\n", text):
        if re.search(r"^Files:\s*\*\s*$", paragraph, re.M):
            match = re.search(r"^License:\s*(.+)$", paragraph, re.M)
            return match.group(1).strip() if match else None
    return None


def os_release() -> Tuple[str, str]:
    fields = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$', Path("/etc/os-release").read_text(), re.M))
    return fields.get("ID", "debian"), fields.get("VERSION_ID", "")


_OWNERS: Dict[str, str] = {}


def owner(original: Path, triplet: str, name: str, debian_arch: str) -> Optional[str]:
    """The package:arch that installed `original`, from dpkg's file lists (read once: `dpkg -S` takes a second a
    call). dpkg may know the file under /lib or /usr/lib (merged /usr)."""
    if not _OWNERS:
        for listing in Path("/var/lib/dpkg/info").glob("*.list"):
            for line in listing.read_text(errors="replace").splitlines():
                if "-linux-gnu/" in line:
                    _OWNERS.setdefault(line, listing.stem)
    for path in (original, original.resolve(), Path("/usr/lib") / triplet / name, Path("/lib") / triplet / name):
        package = _OWNERS.get(str(path))
        if package is None:
            continue
        if ":" not in package:  # a package that is not Multi-Arch: same lists its files without the qualifier
            package += ":" + dpkg("-W", "-f", "${Architecture}", package).strip()
        if package.endswith(":" + debian_arch):
            return package
    return None


def grafted(name: str, data: bytes, elf: Elf, where: str) -> Dict[str, Any]:
    """The Debian package a library auditwheel copied into a wheel came from, verified against its file."""
    match = re.fullmatch(r"(.+)-[0-9a-f]{8}(\..+)", name)
    if not match:
        fail(f"{where}: not named as auditwheel names a grafted library (<name>-<8 hex>.so...)")
    original_name = match.group(1) + match.group(2)
    triplet, debian_arch = MULTIARCH[elf.arch]
    candidates = [Path(prefix) / triplet / original_name for prefix in ("/usr/lib", "/lib")]
    original = next((path for path in candidates if path.is_file()), None)
    if original is None:
        fail(f"{where}: the original, {original_name}, is not in /usr/lib/{triplet}: install the package it came "
             "from (scripts/setup.sh) or rebuild the wheel")
    if Elf(original.read_bytes(), str(original)).section(".text") != elf.section(".text"):
        fail(f"{where}: its code is not {original}'s: the wheel was built against another version "
             "(rebuild it: scripts/wheel.sh)")
    package = owner(original, triplet, original_name, debian_arch)
    if package is None:
        fail(f"{where}: no Debian package owns {original}")
    version, source, source_version = dpkg("-W", "-f", "${Version}\t${source:Package}\t${source:Version}",
                                           package).split("\t")
    upstream = re.sub(r"^\d+:", "", source_version).rsplit("-", 1)[0]
    distro, distro_version = os_release()
    binary = package.split(":")[0]
    component: Dict[str, Any] = {
        "type": "library",
        "name": binary,
        "version": version,
        "purl": f"pkg:deb/{distro}/{binary}@{quote(version, safe='')}?arch={debian_arch}"
                f"&distro={distro}-{distro_version}",
        "hashes": [{"alg": "SHA-256", "content": sha256(data)}],
        "properties": [
            {"name": "telenorid:original-file", "value": str(original)},
            {"name": "telenorid:upstream", "value": f"{source} {upstream}"},
            {"name": "telenorid:debian-source", "value": f"{source} {source_version}"},
        ],
    }
    licence = debian_licence(package)
    if licence:
        component["licenses"] = [{"license": {"name": licence}}]
    return component


def swift_version() -> str:
    try:
        text = subprocess.run(["swiftc", "--version"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        fail("no swiftc on PATH: the Swift standard library compiled into libtelenorid is versioned by it")
    match = re.search(r"Swift version (\d+(?:\.\d+)+)", text)
    if not match:
        fail(f"cannot read the Swift version from: {text!r}")
    return match.group(1)


def artifact_purl(path: Path, version: str) -> Optional[str]:
    name = path.name
    if name.endswith(".whl"):
        return f"pkg:pypi/telenorid@{version}?file_name={quote(name)}"
    if name.endswith(".jar"):
        classifier = name[len(f"telenorid-{version}"):-len(".jar")].lstrip("-")
        return (f"pkg:maven/no.telenor.id/telenorid@{version}?type=jar"
                + (f"&classifier={classifier}" if classifier else ""))
    if name == f"telenorid-{version}.tar.gz" and "python" in path.parts:
        return f"pkg:pypi/telenorid@{version}?file_name={quote(name)}"
    return f"pkg:generic/telenorid@{version}?file_name={quote(name)}"


def build(version: str, artifacts: List[Path], root: Path) -> Dict[str, Any]:
    swift = swift_version()
    components = []
    dependencies = []
    for path in artifacts:
        relative = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
        data = path.read_bytes()
        ref = f"artifact:{relative}"
        component: Dict[str, Any] = {
            "type": "file" if not path.name.endswith((".whl", ".jar")) else "library",
            "bom-ref": ref, "name": relative, "version": version,
            "hashes": [{"alg": "SHA-256", "content": sha256(data)}],
        }
        purl = artifact_purl(path, version)
        if purl:
            component["purl"] = purl
        nested = []
        by_file: Dict[str, str] = {}
        elves: List[Tuple[str, Elf]] = []
        for name, content in members(path):
            if not content.startswith(b"\x7fELF"):
                continue
            elf = Elf(content, f"{path.name}:{name}")
            base = name.rsplit("/", 1)[-1]
            child_ref = f"{ref}#{name}"
            stem = re.sub(r"\.so(\..*)?$", ".so", base)
            if stem in OURS:
                child: Dict[str, Any] = {
                    "type": "library", "name": OURS[stem], "version": version,
                    "hashes": [{"alg": "SHA-256", "content": sha256(content)}],
                    "licenses": [{"license": {"id": "Apache-2.0"}}],
                }
                if stem == "libtelenorid.so":
                    child["components"] = [{
                        "type": "library", "bom-ref": f"{child_ref}#swift-stdlib", "name": "swift-embedded-stdlib",
                        "version": swift, "description": "the Swift standard library, compiled into libtelenorid "
                        "(Embedded Swift); versioned by the swiftc of the release build",
                        "licenses": [{"license": {"id": "Apache-2.0"}}],
                    }]
            elif "telenorid.libs/" in name:
                child = grafted(base, content, elf, f"{path.name}:{name}")
            else:
                fail(f"{path.name}:{name}: a shared library this script does not know")
            child["bom-ref"] = child_ref
            child["properties"] = child.get("properties", []) + [
                {"name": "telenorid:path", "value": name},
                {"name": "telenorid:arch", "value": elf.arch},
                {"name": "telenorid:soname", "value": elf.soname or ""},
                {"name": "telenorid:needed", "value": " ".join(elf.needed)},
            ]
            nested.append(child)
            by_file[base] = child_ref
            elves.append((child_ref, elf))
        for child_ref, elf in elves:
            carried = sorted(by_file[needed] for needed in elf.needed if needed in by_file)
            dependencies.append({"ref": child_ref, "dependsOn": carried})
        if nested:
            component["components"] = nested
        dependencies.append({"ref": ref, "dependsOn": [child["bom-ref"] for child in nested]})
        components.append(component)
    digest = hashlib.sha256("".join(c["hashes"][0]["content"] for c in components).encode()).digest()
    return {
        "bomFormat": "CycloneDX",
        "specVersion": "1.5",
        # the same artifacts give the same serial number
        "serialNumber": f"urn:uuid:{uuid.UUID(bytes=digest[:16], version=5)}",
        "version": 1,
        "metadata": {
            "timestamp": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "tools": {"components": [{"type": "application", "name": "scripts/sbom.py", "version": version}]},
            "component": {"type": "library", "bom-ref": "telenorid", "name": "telenorid", "version": version,
                          "licenses": [{"license": {"id": "Apache-2.0"}}],
                          "description": "OpenID Connect / OAuth 2.0 client for native apps: the release's artifacts"},
        },
        "components": components,
        "dependencies": [{"ref": "telenorid", "dependsOn": [c["bom-ref"] for c in components]}] + dependencies,
    }


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description="A CycloneDX 1.5 SBOM of the release's artifacts")
    parser.add_argument("--version", required=True)
    parser.add_argument("--output", type=Path, required=True)
    parser.add_argument("--root", type=Path, default=None, help="names are relative to it (default: the output's)")
    parser.add_argument("artifacts", type=Path, nargs="+")
    args = parser.parse_args(argv)
    root = (args.root or args.output.parent).resolve()
    bom = build(args.version, [path.resolve() for path in args.artifacts], root)
    args.output.write_text(json.dumps(bom, indent=2) + "\n")
    carried = sum(len(c.get("components", [])) for c in bom["components"])
    print(f"{args.output}: CycloneDX 1.5, {len(bom['components'])} artifacts carrying {carried} libraries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
