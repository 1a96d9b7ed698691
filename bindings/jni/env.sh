# Sourced by build.sh and build_bridge.sh: the repository root as the working directory, and the JDK.
# JAVA_HOME defaults to Debian's JDK 17 (also where the given one has no javac); CC to gcc.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
[ -x "$JAVA_HOME/bin/javac" ] || JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
CC="${CC:-gcc}"
