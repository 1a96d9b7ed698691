#!/usr/bin/env bash
# `make jar`: the Java API of bindings/jni as a Maven-style artifact in out/jar:
#   telenorid-<version>.jar          the classes, compiled with javac --release 8 (the level Android's
#                                    toolchain takes, as bindings/jni/build.sh compiles them);
#   telenorid-<version>-sources.jar  the .java files;
#   telenorid-<version>.pom          coordinates no.telenor.id:telenorid:<version> (the group of
#                                    bindings/jni/android/build.gradle), licence and description;
#   telenorid-<version>-<platform>.jar  the same classes plus, under no/telenor/id/native/<platform>/,
#                                    libtelenorid.so.0 and libtelenorid_jni.so (stripped) and natives.sha256
#                                    (their digests, in load order): a desktop JVM needs nothing else
#                                    (NativeLoader.java extracts and checks them). <platform> is this
#                                    machine's, linux-x86_64 here; the natives need the system's libcurl4
#                                    and libssl3, as the system-libs wheel does.
# The plain jar holds no native code: a host loads libtelenorid_jni.so and libtelenorid.so itself (see
# bindings/jni/README.md); the Android module links them into its AAR. Needs out/lib and out/jni
# (`make jar` builds both first). JAVA_HOME defaults to the Debian JDK 17.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
[ -x "$JAVA_HOME/bin/javac" ] || JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
version="$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)"
[ -n "$version" ] || { echo "jar.sh: no TELENORID_VERSION_STRING in include/telenorid.h" >&2; exit 1; }
src=bindings/jni/src/main/java
out=out/jar
name="telenorid-$version"

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x86_64 ;;
    Linux-aarch64) platform=linux-aarch64 ;;
    *) echo "jar.sh: no platform jar for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
for native in out/lib/libtelenorid.so.0 out/jni/libtelenorid_jni.so; do
    [ -e "$native" ] || { echo "jar.sh: $native is missing: run \`make jar\` (it builds it)" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/classes"
"$JAVA_HOME/bin/javac" --release 8 -encoding UTF-8 -Xlint:all,-options -Werror -d "$out/classes" \
    $(find "$src" -name '*.java' | sort)
cp LICENSE "$out/classes/LICENSE"
"$JAVA_HOME/bin/jar" --create --file "$out/$name.jar" -C "$out/classes" .
"$JAVA_HOME/bin/jar" --create --file "$out/$name-sources.jar" -C "$src" . -C . LICENSE

cat > "$out/$name.pom" <<POM
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>no.telenor.id</groupId>
  <artifactId>telenorid</artifactId>
  <version>$version</version>
  <packaging>jar</packaging>
  <name>telenorid</name>
  <description>OpenID Connect / OAuth 2.0 client for native apps: the Java API over libtelenorid (JNI). The native libraries are not in this jar.</description>
  <licenses>
    <license>
      <name>Apache-2.0</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
      <distribution>repo</distribution>
    </license>
  </licenses>
  <properties>
    <maven.compiler.release>8</maven.compiler.release>
  </properties>
</project>
POM
natives="$out/natives/no/telenor/id/native/$platform"
mkdir -p "$natives"
strip -o "$natives/libtelenorid.so.0" "$(readlink -f out/lib/libtelenorid.so.0)"
strip --strip-unneeded -o "$natives/libtelenorid_jni.so" out/jni/libtelenorid_jni.so
# Load order: libtelenorid first, so the bridge's DT_NEEDED libtelenorid.so.0 is already in the process.
(cd "$natives" && sha256sum libtelenorid.so.0 libtelenorid_jni.so > natives.sha256)
"$JAVA_HOME/bin/jar" --create --file "$out/$name-$platform.jar" -C "$out/classes" . -C "$out/natives" .

rm -rf "$out/classes" "$out/natives"
ls -l "$out"
