"""The Java release that `make jar` writes (scripts/jar.sh), checked the way Maven, Gradle and a user meet it:
- out/jar is a Maven repository: no/telenor/id/telenorid/maven-metadata.xml names the version, and <version>/
  holds exactly the API jar, -sources.jar, -javadoc.jar, the natives jars (linux-x86_64; linux-aarch64 when
  out/lib-arm64 exists) and the .pom, each with a .sha1 and .md5 that match it;
- the POM is well-formed XML (Python's parser) with the coordinates, the name and the licence (LICENSE's),
  and names every natives classifier in its description and in its comment's dependency snippet; what else
  Maven Central requires (url, developers, scm) is there exactly as TELENORID_URL and TELENORID_DEVELOPERS
  gave it to `make jar`, and without them not at all (nothing guessed), which is said;
- the API jar holds the classes and no native code, with its version in the manifest; the sources jar every
  .java file of bindings/jni/src/main/java; the javadoc jar index.html and a page per public class;
- each natives jar holds no class: only no/telenor/id/native/<platform>/ (libtelenorid.so.0 and
  libtelenorid_jni.so, ELF files of that platform's machine, and natives.sha256 with their digests, in load
  order) beside its manifest and LICENSE;
- Maven's own resolver (Tests/java/MavenResolve.java, with the libraries of Debian's maven package) takes the
  API jar at the version range [0,) and the linux-x86_64 natives from the file:// repository, checksums
  enforced, the POM read and validated by Maven's model builder; and refuses a file whose .sha1 does not match;
- where an arm64 JVM is at hand (ARM64_JAVA_HOME, as for bindings/jni/build_bridge_arm64.sh), a program run by it
  under qemu-aarch64 with the API jar and the linux-aarch64 natives jar loads the library from them;
- a program with only the API jar on its class path (compiled and run in a new directory, outside the
  repository) fails with an UnsatisfiedLinkError that names each java.library.path entry it tried, the
  natives resource of this platform, and the jar to add; so does one given another platform's natives jar.
Exits non-zero on any failure."""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

from maven_release import artifact, java_home, release_dir, repository, root, version

POM = "{http://maven.apache.org/POM/4.0.0}"
MAVEN_LIB = Path("/usr/share/maven/lib")
ARM64_JAVA_HOME = Path(os.environ.get("ARM64_JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-arm64"))
# ELF e_machine (the System V ABI's gABI, "e_machine"): EM_X86_64 62, EM_AARCH64 183.
MACHINES = {"linux-x86_64": 62, "linux-aarch64": 183}


def platforms() -> list[str]:
    arm64 = (root / "out" / "lib-arm64" / "libtelenorid.so.0").exists()
    return ["linux-x86_64"] + (["linux-aarch64"] if arm64 else [])


def check_layout() -> None:
    v = version()
    expected = {f"telenorid-{v}.jar", f"telenorid-{v}-sources.jar", f"telenorid-{v}-javadoc.jar", f"telenorid-{v}.pom"}
    expected |= {f"telenorid-{v}-{platform}.jar" for platform in platforms()}
    files = {path.name for path in release_dir().iterdir()}
    assert files == expected | {f"{name}.{digest}" for name in expected for digest in ("sha1", "md5")}, sorted(files)
    metadata = release_dir().parent / "maven-metadata.xml"
    for path in [metadata] + [release_dir() / name for name in expected]:
        data = path.read_bytes()
        for digest in ("sha1", "md5"):
            recorded = Path(f"{path}.{digest}").read_text().strip()
            assert recorded == hashlib.new(digest, data).hexdigest(), f"{path.name}.{digest} does not match"
    tree = ElementTree.parse(metadata).getroot()
    assert (tree.findtext("groupId"), tree.findtext("artifactId")) == ("no.telenor.id", "telenorid"), metadata
    assert [e.text for e in tree.iter("version")] == [v] and tree.findtext("versioning/release") == v, metadata
    tops = sorted(path.name for path in repository.iterdir())
    assert tops == ["no"], f"out/jar holds more than the repository: {tops}"
    print(f"ok: out/jar is a Maven repository of no.telenor.id:telenorid:{v}: {len(expected)} files with checksums")


def check_pom() -> None:
    v = version()
    # Comments kept: the classifier snippet is in one.
    parser = ElementTree.XMLParser(target=ElementTree.TreeBuilder(insert_comments=True))
    pom = ElementTree.parse(artifact(extension="pom"), parser).getroot()
    assert pom.tag == f"{POM}project", pom.tag
    fields = {name: pom.findtext(f"{POM}{name}") for name in ("modelVersion", "groupId", "artifactId", "version",
                                                               "packaging")}
    assert fields == {"modelVersion": "4.0.0", "groupId": "no.telenor.id", "artifactId": "telenorid",
                      "version": v, "packaging": "jar"}, fields
    assert pom.findtext(f"{POM}name") == "telenorid"
    licence = (root / "LICENSE").read_text()
    assert "Apache License" in licence and "Version 2.0, January 2004" in licence, "LICENSE is not Apache-2.0"
    assert [(node.findtext(f"{POM}name"), node.findtext(f"{POM}url"))
            for node in pom.iterfind(f"{POM}licenses/{POM}license")] == [
        ("Apache-2.0", "https://www.apache.org/licenses/LICENSE-2.0.txt")]
    check_central_fields(pom)
    description = pom.findtext(f"{POM}description") or ""
    comments = [node.text or "" for node in pom if node.tag is ElementTree.Comment]
    assert len(comments) == 1, comments
    # The snippet in the comment is XML a user pastes: parse it as such.
    snippet = comments[0][comments[0].index("<dependencies>"):comments[0].index("</dependencies>") + 15]
    dependencies = ElementTree.fromstring(snippet)
    named = [(d.findtext("groupId"), d.findtext("artifactId"), d.findtext("version"), d.findtext("classifier"))
             for d in dependencies]
    assert named == [("no.telenor.id", "telenorid", v, platform) for platform in platforms()], named
    for platform in platforms():
        assert platform in description, description
    assert f'runtimeOnly("no.telenor.id:telenorid:{v}:linux-x86_64")' in comments[0], comments[0]
    print(f"ok: the POM is well-formed, no.telenor.id:telenorid:{v}, names the classifiers {', '.join(platforms())}")


def check_central_fields(pom: ElementTree.Element) -> None:
    """url, developers and scm, which Maven Central requires of a POM
    (https://central.sonatype.org/publish/requirements/#required-pom-metadata): the ones `make jar` was given
    (scripts/jar.sh: TELENORID_URL, TELENORID_DEVELOPERS "Name <email>; ..."), else none of them."""
    url = os.environ.get("TELENORID_URL", "").rstrip("/")
    developers = [(entry.split("<")[0].strip(), entry.split("<", 1)[1].split(">")[0])
                  for entry in os.environ.get("TELENORID_DEVELOPERS", "").split(";") if entry.strip()]
    found = {"url": pom.findtext(f"{POM}url"),
             "developers": [(node.findtext(f"{POM}name"), node.findtext(f"{POM}email"))
                            for node in pom.iterfind(f"{POM}developers/{POM}developer")],
             "scm": [pom.findtext(f"{POM}scm/{POM}{name}") for name in ("url", "connection", "developerConnection")]}
    if not (url and developers):
        assert found == {"url": None, "developers": [], "scm": [None, None, None]}, found
        print("note: the POM has no url, developers or scm (TELENORID_URL and TELENORID_DEVELOPERS unset): "
              "Maven Central refuses it as it is")
        return
    assert found == {"url": url, "developers": developers,
                     "scm": [url, f"scm:git:{url}.git", f"scm:git:{url}.git"]}, found
    print(f"ok: the POM has what Maven Central requires: url {url}, {len(developers)} developer(s), scm")


def check_jars() -> None:
    v = version()
    sources = sorted(str(path.relative_to(root / "bindings/jni/src/main/java"))
                     for path in (root / "bindings/jni/src/main/java").rglob("*.java"))
    with zipfile.ZipFile(artifact()) as api:
        names = api.namelist()
        manifest = api.read("META-INF/MANIFEST.MF").decode()
    assert "no/telenor/id/Client.class" in names and "no/telenor/id/NativeLoader.class" in names, names[:20]
    assert not [name for name in names if ".so" in name or "/native/" in name], "the API jar holds native code"
    assert f"Implementation-Version: {v}" in manifest, manifest
    with zipfile.ZipFile(artifact("sources")) as jar:
        assert sorted(name for name in jar.namelist() if name.endswith(".java")) == sources
    with zipfile.ZipFile(artifact("javadoc")) as jar:
        pages = set(jar.namelist())
    assert "index.html" in pages, sorted(pages)[:20]
    for page in ("no/telenor/id/Client.html", "no/telenor/id/AuthState.html", "no/telenor/id/Telenorid.html"):
        assert page in pages, page
    for platform in platforms():
        base = f"no/telenor/id/native/{platform}/"
        with zipfile.ZipFile(artifact(platform)) as jar:
            files = sorted(name for name in jar.namelist() if not name.endswith("/"))
            assert files == sorted(["META-INF/MANIFEST.MF", "LICENSE", base + "libtelenorid.so.0",
                                    base + "libtelenorid_jni.so", base + "natives.sha256"]), files
            digests = [line.split() for line in jar.read(base + "natives.sha256").decode().splitlines()]
            assert [name for _, name in digests] == ["libtelenorid.so.0", "libtelenorid_jni.so"], digests
            for digest, name in digests:
                data = jar.read(base + name)
                assert hashlib.sha256(data).hexdigest() == digest, f"{platform}/{name}: digest"
                assert data[:4] == b"\x7fELF" and int.from_bytes(data[18:20], "little") == MACHINES[platform], \
                    f"{platform}/{name} is not an ELF file of that machine"
    print(f"ok: the API jar has no native code; sources; javadoc with index.html; natives jars "
          f"({', '.join(platforms())}) hold only their natives")


def check_maven_resolves() -> None:
    if not (MAVEN_LIB / "maven-resolver-provider-3.x.jar").exists():
        print(f"skipped: Maven's resolver: {MAVEN_LIB} has no maven-resolver-provider (Debian's maven package)")
        return
    v = version()
    with tempfile.TemporaryDirectory(prefix="telenorid-maven-") as work:
        work_dir = Path(work)
        classpath = f"{work_dir}:{MAVEN_LIB}/*"
        subprocess.run([str(java_home / "bin" / "javac"), "-Xlint:all,-path", "-Werror", "-cp", f"{MAVEN_LIB}/*",
                        "-d", str(work_dir), str(Path(__file__).with_name("MavenResolve.java"))], check=True)

        def resolve(remote: Path, local: str) -> subprocess.CompletedProcess:
            return subprocess.run([str(java_home / "bin" / "java"), "-cp", classpath, "MavenResolve", str(remote), v,
                                   str(work_dir / local)], capture_output=True, text=True, timeout=120)

        result = resolve(repository, "local")
        assert result.returncode == 0, result.stdout + result.stderr
        resolved = dict(line.split(" ", 1) for line in result.stdout.splitlines())
        assert sorted(resolved) == [f"no.telenor.id:telenorid:jar:{v}", f"no.telenor.id:telenorid:jar:linux-x86_64:{v}"], \
            result.stdout
        assert Path(resolved[f"no.telenor.id:telenorid:jar:{v}"]).read_bytes() == artifact().read_bytes()
        assert Path(resolved[f"no.telenor.id:telenorid:jar:linux-x86_64:{v}"]).read_bytes() == \
            artifact("linux-x86_64").read_bytes()
        # The same repository with one checksum wrong: the resolver refuses the file.
        tampered = work_dir / "tampered"
        shutil.copytree(repository, tampered)
        sha1 = tampered / artifact("linux-x86_64").relative_to(repository).with_suffix(".jar.sha1")
        sha1.write_text("0" * 40 + "\n")
        result = resolve(tampered, "local-tampered")
        assert result.returncode != 0 and "Checksum validation failed" in result.stderr, result.stdout + result.stderr
    print(f"ok: Maven's resolver takes no.telenor.id:telenorid:[0,) and :linux-x86_64:{v} from the file:// "
          "repository (checksums enforced), and refuses a jar whose .sha1 does not match")


def check_aarch64_natives_load() -> None:
    if "linux-aarch64" not in platforms():
        return
    java = ARM64_JAVA_HOME / "bin" / "java"
    if not java.exists() or shutil.which("qemu-aarch64") is None:
        print(f"skipped: the linux-aarch64 natives jar is not run: no arm64 JVM at {ARM64_JAVA_HOME} or no qemu-aarch64 "
              "(scripts/setup.sh unpacks one into .jvm-arm64; the Makefile passes it as ARM64_JAVA_HOME)")
        return
    with tempfile.TemporaryDirectory(prefix="telenorid-aarch64-") as work:
        work_dir = Path(work)
        api, natives = artifact().name, artifact("linux-aarch64").name
        shutil.copy(artifact(), work_dir / api)
        shutil.copy(artifact("linux-aarch64"), work_dir / natives)
        (work_dir / "Version.java").write_text(
            "public final class Version {\n"
            "    public static void main(String[] args) {\n"
            "        System.out.println(no.telenor.id.Telenorid.version() + \" \" + System.getProperty(\"os.arch\"));\n"
            "    }\n"
            "}\n")
        subprocess.run([str(java_home / "bin" / "javac"), "--release", "8", "-Xlint:-options", "-cp", api,
                        "Version.java"], cwd=work_dir, check=True)
        result = subprocess.run(["qemu-aarch64", "-L", "/", str(java), "-cp", f"{api}:{natives}:.", "Version"],
                                cwd=work_dir, capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        assert result.stdout.strip() == f"{version()} aarch64", result.stdout + result.stderr
    print(f"ok: an arm64 JVM under qemu-aarch64 loads libtelenorid {version()} from the API jar and {natives}")


def check_api_jar_alone() -> None:
    v = version()
    with tempfile.TemporaryDirectory(prefix="telenorid-api-alone-") as work:
        work_dir = Path(work)
        api = Path(artifact()).name
        (work_dir / api).write_bytes(artifact().read_bytes())
        (work_dir / "Load.java").write_text(
            "public final class Load {\n"
            "    public static void main(String[] args) {\n"
            "        no.telenor.id.Telenorid.load();\n"
            "    }\n"
            "}\n")
        env = {"PATH": "/usr/bin:/bin", "HOME": str(work_dir), "LANG": "C.UTF-8"}
        subprocess.run([str(java_home / "bin" / "javac"), "-cp", api, "Load.java"], cwd=work_dir, env=env, check=True)
        library_path = [work_dir / "lib-a", work_dir / "lib-b"]
        runs = {"the API jar alone": api}
        if "linux-aarch64" in platforms():
            other = Path(artifact("linux-aarch64")).name
            (work_dir / other).write_bytes(artifact("linux-aarch64").read_bytes())
            runs["the API jar and the linux-aarch64 natives"] = f"{api}:{other}"
        for what, classpath in runs.items():
            result = subprocess.run(
                [str(java_home / "bin" / "java"), "-Djava.library.path=" + ":".join(map(str, library_path)),
                 "-cp", f"{classpath}:.", "Load"], cwd=work_dir, env=env, capture_output=True, text=True, timeout=60)
            assert result.returncode != 0, result.stdout
            message = result.stderr
            assert "java.lang.UnsatisfiedLinkError: telenorid_jni: the JNI bridge libtelenorid_jni.so was not found" \
                in message, message
            for directory in library_path:
                assert f"{directory}/libtelenorid_jni.so (java.library.path)" in message, message
            assert "no/telenor/id/native/linux-x86_64/natives.sha256 on the class path" in message, message
            assert f"telenorid-{v}-linux-x86_64.jar (Maven: no.telenor.id:telenorid:{v}:linux-x86_64)" in message, \
                message
            print(f"ok: {what}: the UnsatisfiedLinkError names what was tried and telenorid-{v}-linux-x86_64.jar")


def main() -> int:
    check_layout()
    check_pom()
    check_jars()
    check_maven_resolves()
    check_aarch64_natives_load()
    check_api_jar_alone()
    return 0


if __name__ == "__main__":
    sys.exit(main())
