"""The release as a user gets it: `make test-release` runs `make release`, then this reads dist/.

    python3 Tests/release/test_release.py [DIST]   # default: the repository's dist/, as `make release` left it

1. dist/ holds exactly the expected files (the aarch64 ones when out/lib-arm64 has the library), every one
   named for include/telenorid.h's version;
2. SHA256SUMS lists every other file once, with its digest;
3. the SBOM is CycloneDX 1.5 JSON of the expected shape, and agrees with the artifacts: each artifact and
   each shared library inside one is there with its SHA-256, the wheel's auditwheel-grafted libcurl and
   OpenSSL as Debian packages with versions;
4. each artifact is installed and used from a new directory outside the repository, with no TELENORID_*,
   PYTHONPATH, LD_LIBRARY_PATH or CLASSPATH from the caller:
   - the wheel, in a fresh venv: `telenorid --version`, the library loaded from the wheel, a PKCE pair and an
     authorization URL whose code_challenge is BASE64URL(SHA-256(verifier)) (RFC 7636 §4.2) computed here;
   - the sdist, built into a wheel and installed in a fresh venv, using the C tarball's library
     through TELENORID_LIBRARY;
   - the C tarball alone: its links and SONAME, then a program compiled with `pkg-config --cflags --libs`
     (PKG_CONFIG_PATH into the unpacked tarball) and an rpath, calling telenorid_version and
     telenorid_pkce_generate; again after the unpacked tree is moved (the .pc file is relocatable);
   - the jars alone: the API jar and the linux-x86_64 natives jar on the class path, javac and java, the
     library's version and an authorization URL as above.
5. README.md's install commands, run as written (`<version>` put in) beside the artifact each names.
Exits non-zero at the first failure; prints one "ok:" line per check, then "release: 8 passed, 0 failed".
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parents[2]
HEADER = (ROOT / "include" / "telenorid.h").read_text()
VERSION = re.search(r'^#define TELENORID_VERSION_STRING "([^"]+)"$', HEADER, re.M).group(1)  # type: ignore[union-attr]
JAVA_HOME = Path(os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64"))
PYTHON = sys.executable
REDIRECT = "http://127.0.0.1:53682/callback"


def ok(message: str) -> None:
    print(f"ok: {message}", flush=True)


def run(command: List[str], cwd: Path, env: Dict[str, str]) -> str:
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(map(str, command))} exited {result.returncode}:\n{result.stdout}{result.stderr}"
    return result.stdout


def clean_env(**extra: str) -> Dict[str, str]:
    """The caller's environment without anything that could find the library or packages for the artifact."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("TELENORID_", "PKG_CONFIG", "VIRTUAL_ENV"))
           and key not in ("PYTHONPATH", "LD_LIBRARY_PATH", "CLASSPATH", "PYTHONHOME")}
    # the repository's venv off PATH: the artifacts must bring what they need
    env["PATH"] = os.pathsep.join(part for part in env.get("PATH", "").split(os.pathsep)
                                  if not part.startswith(str(ROOT)))
    env.update(extra)
    return env


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def check_challenge(url: str, verifier: str, state: str, what: str) -> None:
    query = parse_qs(urlsplit(url).query)
    assert query["code_challenge"] == [s256(verifier)], (what, url)
    assert query["code_challenge_method"] == ["S256"] and query["state"] == [state], (what, url)
    assert query["redirect_uri"] == [REDIRECT] and query["client_id"] == ["release-test"], (what, url)


# 1. ------------------------------------------------------------------------------------------------

def expected_contents(dist: Path) -> Dict[str, Path]:
    arches = ["x86_64"] + (["aarch64"] if (ROOT / "out" / "lib-arm64" / f"libtelenorid.so.{VERSION}").exists() else [])
    files = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())
    top = {f for f in files if not f.startswith(("python/", "maven/"))}
    want_top = {"SHA256SUMS", f"telenorid-{VERSION}.tar.gz", f"telenorid-{VERSION}.cdx.json"}
    want_top |= {f"telenorid-{VERSION}-linux-{arch}.tar.gz" for arch in arches}
    assert top == want_top, f"dist/ holds {sorted(top)}, expected {sorted(want_top)}"
    python = sorted(f for f in files if f.startswith("python/"))
    wheels = [f for f in python if f.endswith(".whl")]
    assert len(python) == len(arches) + 1 and f"python/telenorid-{VERSION}.tar.gz" in python, python
    for arch in arches:
        assert any(re.fullmatch(rf"python/telenorid-{re.escape(VERSION)}-py3-none-manylinux_\d+_\d+_{arch}\.whl", w)
                   for w in wheels), f"no manylinux {arch} wheel in {wheels}"
    maven = [f for f in files if f.startswith("maven/")]
    assert maven and all(Path(f).name.startswith(f"telenorid-{VERSION}") or Path(f).name.startswith("maven-metadata")
                         for f in maven), f"maven/ holds files of other names: {maven}"
    found: Dict[str, Path] = {}
    for suffix in ("", "-sources", "-linux-x86_64"):
        matches = [f for f in maven if Path(f).name == f"telenorid-{VERSION}{suffix}.jar"]
        assert len(matches) == 1, f"expected one telenorid-{VERSION}{suffix}.jar in maven/, found {matches}"
        found[suffix or "api"] = dist / matches[0]
    assert any(Path(f).name == f"telenorid-{VERSION}.pom" for f in maven), "no POM in maven/"
    for javadoc in (f for f in maven if f.endswith("-javadoc.jar")):
        with zipfile.ZipFile(dist / javadoc) as archive:
            assert "index.html" in archive.namelist(), f"{javadoc} has no index.html"
    ok(f"dist/ holds the {len(files)} expected files of version {VERSION} ({', '.join(arches)})")
    found["wheel"] = dist / next(w for w in wheels if w.endswith("_x86_64.whl"))
    found["sdist"] = dist / f"python/telenorid-{VERSION}.tar.gz"
    found["c"] = dist / f"telenorid-{VERSION}-linux-x86_64.tar.gz"
    return found


# 2. ------------------------------------------------------------------------------------------------

def check_sums(dist: Path) -> None:
    listed: Dict[str, str] = {}
    for line in (dist / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ", 1)
        assert name not in listed, f"{name} twice in SHA256SUMS"
        listed[name] = digest
    files = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()} - {"SHA256SUMS"}
    assert set(listed) == files, f"SHA256SUMS lists {sorted(set(listed) ^ files)} wrongly"
    for name, digest in listed.items():
        assert hashlib.sha256((dist / name).read_bytes()).hexdigest() == digest, f"{name}: wrong SHA-256"
    ok(f"SHA256SUMS: {len(listed)} files, each digest right")


# 3. ------------------------------------------------------------------------------------------------

def elf_members(path: Path) -> Dict[str, bytes]:
    found: Dict[str, bytes] = {}
    if path.suffix in (".whl", ".jar"):
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                data = archive.read(name)
                if data.startswith(b"\x7fELF"):
                    found[name] = data
    elif path.name.endswith(".tar.gz"):
        with tarfile.open(path) as archive:
            for info in archive.getmembers():
                if info.isfile():
                    handle = archive.extractfile(info)
                    data = handle.read() if handle else b""
                    if data.startswith(b"\x7fELF"):
                        found[info.name] = data
    return found


def check_sbom(dist: Path) -> None:
    bom = json.loads((dist / f"telenorid-{VERSION}.cdx.json").read_text())
    assert bom["bomFormat"] == "CycloneDX" and bom["specVersion"] == "1.5" and bom["version"] == 1, bom.keys()
    assert re.fullmatch(r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}",
                        bom["serialNumber"]), bom["serialNumber"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", bom["metadata"]["timestamp"])
    top = bom["metadata"]["component"]
    assert (top["name"], top["version"], top["type"]) == ("telenorid", VERSION, "library"), top
    refs: List[str] = [top["bom-ref"]]
    types = {"application", "framework", "library", "container", "platform", "operating-system", "device",
             "device-driver", "firmware", "file", "machine-learning-model", "data"}

    def walk(component: Dict[str, Any], where: str) -> None:
        assert component["type"] in types and component["name"] and component["bom-ref"], where
        refs.append(component["bom-ref"])
        for digest in component.get("hashes", []):
            assert digest["alg"] == "SHA-256" and re.fullmatch(r"[0-9a-f]{64}", digest["content"]), where
        if "purl" in component:
            assert re.fullmatch(r"pkg:[a-z]+/[^@\s]+@[^?\s]+(\?\S+)?", component["purl"]), component["purl"]
        for child in component.get("components", []):
            walk(child, f"{where} > {child.get('name')}")

    artifacts = sorted(p for p in dist.rglob("*") if p.is_file() and p.name.endswith((".whl", ".jar", ".tar.gz")))
    by_name = {c["name"]: c for c in bom["components"]}
    assert set(by_name) == {p.relative_to(dist).as_posix() for p in artifacts}, sorted(by_name)
    grafted_names = []
    for component in bom["components"]:
        walk(component, component["name"])
        path = dist / component["name"]
        assert component["hashes"][0]["content"] == hashlib.sha256(path.read_bytes()).hexdigest(), path
        inside = {prop["value"]: child for child in component.get("components", [])
                  for prop in child["properties"] if prop["name"] == "telenorid:path"}
        elves = elf_members(path)
        assert set(inside) == set(elves), f"{path.name}: the SBOM lists {sorted(inside)}, it holds {sorted(elves)}"
        for name, data in elves.items():
            assert inside[name]["hashes"][0]["content"] == hashlib.sha256(data).hexdigest(), f"{path.name}:{name}"
            if "telenorid.libs/" in name:
                assert inside[name]["purl"].startswith("pkg:deb/debian/") and inside[name]["version"], inside[name]
                grafted_names.append(inside[name]["name"])
    assert len(refs) == len(set(refs)), "bom-refs repeat"
    for dependency in bom["dependencies"]:
        assert dependency["ref"] in refs and set(dependency["dependsOn"]) <= set(refs), dependency
    assert {"libcurl4", "libssl3"} <= set(grafted_names), f"no libcurl4 or libssl3 among the wheels' {grafted_names}"
    ok(f"the SBOM: CycloneDX 1.5 of {len(artifacts)} artifacts and the {sum(len(elf_members(p)) for p in artifacts)} "
       f"libraries inside them, each SHA-256 right; the wheels' grafted {sorted(set(grafted_names))[:4]}...")


# 4. ------------------------------------------------------------------------------------------------

PYTHON_USE = f"""
import json, sys, telenorid
from telenorid import _ffi
from telenorid.pkce import generate
config = telenorid.Config.from_settings(issuer="https://id.example.com", client_id="release-test",
                                        redirect_uri="{REDIRECT}",
                                        authorization_endpoint="https://id.example.com/authorize")
pending = telenorid.AuthorizationRequest(config).build()
verifier, challenge = generate(64)
print(json.dumps({{"version": telenorid.__version__, "library": telenorid.library_version(), "path": _ffi.library_path,
                  "url": pending.url, "verifier": pending.code_verifier, "state": pending.state,
                  "pair": [verifier, challenge]}}))
"""


def use_python(python: Path, work: Path, env: Dict[str, str], what: str) -> Dict[str, Any]:
    result: Dict[str, Any] = json.loads(run([str(python), "-c", PYTHON_USE], work, env))
    assert result["version"] == VERSION and result["library"] == VERSION, (what, result)
    check_challenge(result["url"], result["verifier"], result["state"], what)
    assert result["pair"][1] == s256(result["pair"][0]), (what, "telenorid.pkce.generate")
    return result


def check_wheel(wheel: Path, work: Path) -> None:
    env = clean_env()
    run([PYTHON, "-m", "venv", str(work / "venv")], work, env)
    run([str(work / "venv/bin/pip"), "install", "-q", "--no-index", str(wheel)], work, env)
    assert run([str(work / "venv/bin/telenorid"), "--version"], work, env).strip() == f"telenorid {VERSION}"
    result = use_python(work / "venv/bin/python", work, env, "wheel")
    assert result["path"].startswith(str(work / "venv")), f"the library came from {result['path']}, not the wheel"
    ok(f"the wheel in a fresh venv: telenorid --version, the library it carries, an authorization URL whose "
       "PKCE challenge is right")


def check_sdist(sdist: Path, library: Path, work: Path) -> None:
    env = clean_env()
    tools = ROOT / "out" / "wheel-tools" / "bin"
    run([str(tools / "pip"), "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(work / "built"), str(sdist)],
        work, env)
    built = list((work / "built").glob("*.whl"))
    assert [w.name for w in built] == [f"telenorid-{VERSION}-py3-none-any.whl"], built
    run([PYTHON, "-m", "venv", str(work / "venv-sdist")], work, env)
    run([str(work / "venv-sdist/bin/pip"), "install", "-q", "--no-index", str(built[0])], work, env)
    result = use_python(work / "venv-sdist/bin/python", work, clean_env(TELENORID_LIBRARY=str(library)), "sdist")
    assert result["path"] == str(library), result["path"]
    ok("the sdist builds a pure-Python wheel that runs on the C tarball's library (TELENORID_LIBRARY)")


C_PROGRAM = r"""
#include <stdio.h>
#include <telenorid.h>
int main(void) {
    char verifier[129], challenge[44];
    if (telenorid_version() != TELENORID_VERSION_NUMBER) return 2;
    if (telenorid_pkce_generate(0, verifier, sizeof verifier, challenge, sizeof challenge) != TELENORID_OK) return 3;
    printf("%s %s %s\n", telenorid_version_string(), verifier, challenge);
    return 0;
}
"""


def check_c(tarball: Path, work: Path) -> Path:
    with tarfile.open(tarball) as archive:
        names = sorted(archive.getnames())
        archive.extractall(work / "c")
    top = f"telenorid-{VERSION}-linux-x86_64"
    lib = work / "c" / top / "lib"
    want = {f"{top}/{name}" for name in ("include/telenorid.h", f"lib/libtelenorid.so.{VERSION}", "lib/libtelenorid.so.0",
                                        "lib/libtelenorid.so", "lib/pkgconfig/telenorid.pc", "LICENSE", "CHANGELOG.md",
                                        "README", "share/doc/telenorid/c-api.html")}
    assert want <= set(names), f"the C tarball lacks {sorted(want - set(names))}"
    assert os.readlink(lib / "libtelenorid.so.0") == f"libtelenorid.so.{VERSION}"
    assert os.readlink(lib / "libtelenorid.so") == "libtelenorid.so.0"
    assert "Library soname: [libtelenorid.so.0]" in run(["readelf", "-d", str(lib / f"libtelenorid.so.{VERSION}")],
                                                         work, clean_env())
    (work / "app.c").write_text(C_PROGRAM)

    def build_and_run(prefix: Path) -> None:
        env = clean_env(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
        flags = run(["pkg-config", "--cflags", "--libs", "telenorid"], work, env).split()
        libdir = run(["pkg-config", "--variable=libdir", "telenorid"], work, env).strip()
        assert Path(libdir).resolve() == (prefix / "lib").resolve(), libdir
        assert run(["pkg-config", "--modversion", "telenorid"], work, env).strip() == VERSION
        run(["cc", "-std=c99", "-Wall", "-Werror", "app.c", "-o", "app", *flags, f"-Wl,-rpath,{libdir}"], work, env)
        version, verifier, challenge = run([str(work / "app")], work, env).split()
        assert version == VERSION and len(verifier) == 64 and challenge == s256(verifier), (version, verifier, challenge)

    build_and_run(work / "c" / top)
    moved = work / "elsewhere" / "telenorid"
    moved.parent.mkdir()
    shutil.move(str(work / "c" / top), moved)
    build_and_run(moved)
    ok("the C tarball alone: SONAME links, pkg-config, a program built and run calling telenorid_version and "
       "telenorid_pkce_generate (S256 right); again after the tree was moved")
    return moved / "lib" / "libtelenorid.so.0"


JAVA_PROGRAM = f"""
import no.telenor.id.*;
public final class UseRelease {{
    public static void main(String[] args) throws Exception {{
        String json = "{{\\"issuer\\": \\"https://id.example.com\\", \\"client_id\\": \\"release-test\\", "
            + "\\"redirect_uri\\": \\"{REDIRECT}\\", \\"authorization_endpoint\\": \\"https://id.example.com/authorize\\"}}";
        try (Config config = Config.fromJson(json);
             AuthorizationRequest request = config.newAuthorizationRequest();
             PendingAuthorization pending = request.build()) {{
            System.out.println(Telenorid.version());
            System.out.println(pending.url());
            System.out.println(pending.codeVerifier());
            System.out.println(pending.state());
        }}
    }}
}}
"""


def check_jars(api: Path, natives: Path, work: Path) -> None:
    java_dir = work / "java"
    java_dir.mkdir()
    shutil.copy(api, java_dir / api.name)
    shutil.copy(natives, java_dir / natives.name)
    (java_dir / "UseRelease.java").write_text(JAVA_PROGRAM)
    (java_dir / "tmp").mkdir()
    classpath = f"{api.name}:{natives.name}"
    env = clean_env()
    run([str(JAVA_HOME / "bin/javac"), "-cp", classpath, "UseRelease.java"], java_dir, env)
    out = run([str(JAVA_HOME / "bin/java"), f"-Djava.io.tmpdir={java_dir / 'tmp'}", "-cp", f"{classpath}:.",
               "UseRelease"], java_dir, env).split("\n")
    assert out[0] == VERSION, out
    check_challenge(out[1], out[2], out[3], "jar")
    assert not list((java_dir / "tmp").iterdir()), "the natives jar left files in java.io.tmpdir"
    ok(f"the jars alone ({api.name}, {natives.name}): javac and java, the library's version and an authorization URL "
       "whose PKCE challenge is right")


def readme_install_blocks() -> List[str]:
    """The ```sh blocks of README.md's "## Install" section, in order: Python, C, Java."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("\n## Install\n"):]
    section = section[:section.index("\n## ", 1)]
    return re.findall(r"```sh\n(.*?)```", section, re.S)


def check_readme_install(found: Dict[str, Path], work: Path) -> None:
    """README's install commands run as written, `<version>` put in, each in a directory holding only the
    artifact it names (and the user's own app.c or App.java), with a HOME of its own."""
    blocks = readme_install_blocks()
    assert len(blocks) == 3, f"README's Install section has {len(blocks)} sh blocks, expected Python, C and Java"
    home = work / "readme-home"
    home.mkdir()
    env = clean_env(HOME=str(home))
    env["PATH"] = os.pathsep.join([str(JAVA_HOME / "bin"), env["PATH"]])
    python_block, c_block, java_block = (block.replace("<version>", VERSION) for block in blocks)

    def run_block(name: str, block: str, files: Dict[str, Path], text: Dict[str, str]) -> str:
        where = work / f"readme-{name}"
        where.mkdir()
        for file_name, path in files.items():
            shutil.copy(path, where / file_name)
        for file_name, content in text.items():
            (where / file_name).write_text(content)
        return run(["bash", "-euo", "pipefail", "-c", block], where, env)

    out = run_block("python", python_block, {found["wheel"].name: found["wheel"]}, {})
    assert VERSION in out, f"README's Python install printed {out!r}"
    run_block("c", c_block, {found["c"].name: found["c"]}, {"app.c": C_PROGRAM})
    version, verifier, challenge = run([str(work / "readme-c" / "a.out")], work / "readme-c", clean_env()).split()
    assert version == VERSION and challenge == s256(verifier), (version, verifier, challenge)
    api, natives = found["api"], found["-linux-x86_64"]
    out = run_block("java", java_block, {api.name: api, natives.name: natives},
                    {"App.java": JAVA_PROGRAM.replace("class UseRelease", "class App")})
    lines = out.split("\n")
    assert lines[0] == VERSION, lines
    check_challenge(lines[1], lines[2], lines[3], "README's Java install")
    ok("README's install commands as written: the wheel in a venv (telenorid --version), the C tarball with "
       "pkg-config and cc (the program runs), the two jars with javac and java")


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    dist = Path(args[0]).resolve() if args else ROOT / "dist"
    assert (dist / "SHA256SUMS").exists(), f"{dist} is no release directory: run `make release`"
    found = expected_contents(dist)
    check_sums(dist)
    check_sbom(dist)
    with tempfile.TemporaryDirectory(prefix="telenorid-release-") as temporary:
        work = Path(temporary)
        check_wheel(found["wheel"], work)
        library = check_c(found["c"], work)
        check_sdist(found["sdist"], library, work)
        check_jars(found["api"], found["-linux-x86_64"], work)
        check_readme_install(found, work)
    print("release: 8 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
