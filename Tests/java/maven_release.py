"""Where `make jar` (scripts/jar.sh) puts the Java release, shared by the tests of Tests/java: out/jar is a Maven
repository, the release of no.telenor.id:telenorid:<version> is its no/telenor/id/telenorid/<version>/."""
import os
import re
from pathlib import Path

root = Path(__file__).resolve().parents[2]
java_home = Path(os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64"))
repository = root / "out" / "jar"


def version() -> str:
    header = (root / "include" / "telenorid.h").read_text()
    match = re.search(r'^#define TELENORID_VERSION_STRING "([^"]+)"$', header, re.M)
    assert match, "no TELENORID_VERSION_STRING in include/telenorid.h"
    return match.group(1)


def release_dir() -> Path:
    directory = repository / "no" / "telenor" / "id" / "telenorid" / version()
    assert directory.is_dir(), f"{directory} is missing: run `make jar`"
    return directory


def artifact(classifier: str = "", extension: str = "jar") -> Path:
    """telenorid-<version>[-<classifier>].<extension> of the release."""
    name = f"telenorid-{version()}" + (f"-{classifier}" if classifier else "") + f".{extension}"
    path = release_dir() / name
    assert path.is_file(), f"{path} is missing: run `make jar`"
    return path
