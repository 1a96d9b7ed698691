#!/usr/bin/env bash
# `make jar`: the Java binding as one Maven release, laid out as a Maven repository under out/jar, so that
# Maven or Gradle take it from a file:// repository (and `make release` copies it whole). In
# out/jar/no/telenor/id/telenorid/<version>/, for no.telenor.id:telenorid:<version>:
#   telenorid-<version>.jar               the API: the classes of bindings/jni/src/main/java, compiled with
#                                         javac --release 8 (the level Android's toolchain takes), no native
#                                         code; Implementation-Version in its manifest (NativeLoader names the
#                                         natives jar to add with it);
#   telenorid-<version>-sources.jar       the .java files;
#   telenorid-<version>-javadoc.jar       the API reference, made by the JDK's javadoc with -Xdoclint: an error
#                                         or warning of doclint fails the build, except a missing @param,
#                                         @return or @throws tag (the doc comments say those in prose); a
#                                         public or protected element without a doc comment fails it too;
#   telenorid-<version>-<platform>.jar    the natives for one platform, as classifier jars (netty-tcnative's
#                                         and lwjgl's `natives-*` split): only no/telenor/id/native/<platform>/
#                                         libtelenorid.so.0, libtelenorid_jni.so (stripped) and natives.sha256
#                                         (their SHA-256, in load order; NativeLoader.java extracts and checks
#                                         them), no classes, so the API jar and one natives jar never put a
#                                         class twice on a class path. linux-x86_64 from out/lib and out/jni;
#                                         linux-aarch64 from out/lib-arm64 (`make build-arm64`) when it is
#                                         there, with its bridge built again here into out/jni-arm64
#                                         (build_bridge.sh --arch aarch64, seconds), so that it is the bridge
#                                         of these sources and Native.java: a library older than the header
#                                         fails that link, one of another version the check below. They need
#                                         the system's libcurl4 and libssl3, as the system-libs wheel does;
#   telenorid-<version>.pom               the coordinates, name, licence (LICENSE's, checked), and
#                                         (description and a comment) which classifier a desktop program adds;
#                                         the natives are not dependencies of the POM, since which one a
#                                         program needs is its platform's (Android takes neither: the AAR links
#                                         its own). Maven Central also asks for url, developers and scm
#                                         (central.sonatype.org/publish/requirements): this tree states neither
#                                         the project's public address nor its developers, so they are given
#                                         when a release is made, never guessed here:
#                                           TELENORID_URL         the project's web page, a git repository's
#                                                                 (its clone URL is that address with .git)
#                                           TELENORID_DEVELOPERS  "Name <email>", several separated by ";"
#                                         Without both the POM has none of the three, and jar.sh says that
#                                         Central will refuse it;
#   each with .sha1 and .md5 beside it (what Maven's resolver checks, and Maven Central asks for);
# and out/jar/no/telenor/id/telenorid/maven-metadata.xml (with checksums) listing the version, as
# `mvn deploy` writes it. Needs out/lib and out/jni (`make jar` builds both first). JAVA_HOME defaults to
# the Debian JDK 17.
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
[ -x "$JAVA_HOME/bin/javac" ] || JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
version="$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)"
[ -n "$version" ] || { echo "jar.sh: no TELENORID_VERSION_STRING in include/telenorid.h" >&2; exit 1; }
src=bindings/jni/src/main/java
repository=out/jar
artifact_dir="$repository/no/telenor/id/telenorid"
out="$artifact_dir/$version"
name="telenorid-$version"
work=out/jar-work

case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) host_platform=linux-x86_64 ;;
    Linux-aarch64) host_platform=linux-aarch64 ;;
    *) echo "jar.sh: no natives jar for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
for native in out/lib/libtelenorid.so.0 out/jni/libtelenorid_jni.so; do
    [ -e "$native" ] || { echo "jar.sh: $native is missing: run \`make jar\` (it builds it)" >&2; exit 1; }
done

rm -rf "$repository" "$work"
mkdir -p "$out" "$work/classes" "$work/javadoc"

echo "== javac (--release 8)"
"$JAVA_HOME/bin/javac" --release 8 -encoding UTF-8 -Xlint:all,-options -Werror -d "$work/classes" \
    $(find "$src" -name '*.java' | sort)
cp LICENSE "$work/classes/LICENSE"
printf 'Implementation-Title: telenorid\nImplementation-Version: %s\n' "$version" >"$work/api.mf"
"$JAVA_HOME/bin/jar" --create --file "$out/$name.jar" --manifest "$work/api.mf" -C "$work/classes" .
"$JAVA_HOME/bin/jar" --create --file "$out/$name-sources.jar" -C "$src" . -C . LICENSE

# doclint's groups are accessibility, html, missing, reference and syntax; all of them are on. Of the
# "missing" group only the per-tag warnings are let through (counted below); "no comment" is not.
echo "== javadoc (-Xdoclint:all)"
status=0
"$JAVA_HOME/bin/javadoc" -quiet -Xdoclint:all -Xmaxwarns 100000 -Xmaxerrs 100000 --release 8 \
    -encoding UTF-8 -docencoding UTF-8 -charset UTF-8 -notimestamp \
    -doctitle "telenorid $version API" -windowtitle "telenorid $version" \
    -d "$work/javadoc" -sourcepath "$src" no.telenor.id >"$work/javadoc.log" 2>&1 || status=$?
# A diagnostic is a "file:line: error|warning: text" line, followed by the source line and a caret.
tag='^[^ ]+:[0-9]+: warning: no (@param for .*|@return|@throws for .*)$'
tags="$(grep -cE "$tag" "$work/javadoc.log" || true)"
if [ "$status" -ne 0 ] || grep -E '^[^ ]+:[0-9]+: (error|warning): ' "$work/javadoc.log" | grep -vE "$tag" >"$work/doclint.log"; then
    grep -A2 -F -f "$work/doclint.log" "$work/javadoc.log" >&2 || true
    grep -E '^javadoc: error' "$work/javadoc.log" >&2 || true
    echo "jar.sh: javadoc found $(wc -l <"$work/doclint.log") broken or missing doc comments (above; the whole log is $work/javadoc.log)" >&2
    exit 1
fi
[ -f "$work/javadoc/index.html" ] || { echo "jar.sh: javadoc wrote no index.html" >&2; exit 1; }
echo "ok: javadoc -Xdoclint:all: no errors, no undocumented element ($tags missing @param/@return/@throws tags)"
"$JAVA_HOME/bin/jar" --create --file "$out/$name-javadoc.jar" -C "$work/javadoc" . -C . LICENSE

# The natives jar of one platform. Arguments: the platform, libtelenorid.so.0, the bridge, the strip to use,
# what `file` says of that machine's ELF files.
natives_jar() {
    local platform="$1" library="$2" bridge="$3" strip="$4" machine="$5"
    local dir="$work/natives-$platform/no/telenor/id/native/$platform"
    mkdir -p "$dir"
    "$strip" -o "$dir/libtelenorid.so.0" "$(readlink -f "$library")"
    "$strip" --strip-unneeded -o "$dir/libtelenorid_jni.so" "$bridge"
    for file in "$dir"/*.so*; do
        [[ "$(file -L "$file")" == *"$machine"* ]] || { echo "jar.sh: $file is not $machine: $(file -L "$file")" >&2; exit 1; }
    done
    # Load order: libtelenorid first, so the bridge's DT_NEEDED libtelenorid.so.0 is already in the process.
    (cd "$dir" && sha256sum libtelenorid.so.0 libtelenorid_jni.so >natives.sha256)
    cp LICENSE "$work/natives-$platform/LICENSE"
    printf 'Implementation-Title: telenorid natives for %s\nImplementation-Version: %s\n' "$platform" "$version" \
        >"$work/natives-$platform.mf"
    "$JAVA_HOME/bin/jar" --create --file "$out/$name-$platform.jar" --manifest "$work/natives-$platform.mf" \
        -C "$work/natives-$platform" .
}
platforms=("$host_platform")
if [ "$host_platform" = linux-x86_64 ]; then
    natives_jar linux-x86_64 out/lib/libtelenorid.so.0 out/jni/libtelenorid_jni.so strip x86-64
    if [ -e out/lib-arm64/libtelenorid.so.0 ]; then
        remedy="run \`make build-arm64\`, or remove out/lib-arm64 for a release without linux-aarch64"
        if [ "$(basename "$(readlink -f out/lib-arm64/libtelenorid.so.0)")" != "libtelenorid.so.$version" ]; then
            echo "jar.sh: out/lib-arm64 is not libtelenorid $version: $remedy" >&2
            exit 1
        fi
        if ! bash bindings/jni/build_bridge.sh --arch aarch64 >"$work/bridge-arm64.log" 2>&1; then
            cat "$work/bridge-arm64.log" >&2
            echo "jar.sh: the linux-aarch64 bridge does not build against out/lib-arm64 (older than the header?): $remedy" >&2
            exit 1
        fi
        natives_jar linux-aarch64 out/lib-arm64/libtelenorid.so.0 out/jni-arm64/libtelenorid_jni.so \
            aarch64-linux-gnu-strip 'ARM aarch64'
        platforms+=(linux-aarch64)
    else
        echo "jar.sh: no linux-aarch64 natives jar: out/lib-arm64 is missing (\`make build-arm64\` makes it)"
    fi
else
    natives_jar linux-aarch64 out/lib/libtelenorid.so.0 out/jni/libtelenorid_jni.so strip 'ARM aarch64'
fi

classifiers=""
for platform in "${platforms[@]}"; do
    classifiers="$classifiers
      <dependency>
        <groupId>no.telenor.id</groupId>
        <artifactId>telenorid</artifactId>
        <version>$version</version>
        <classifier>$platform</classifier>
        <scope>runtime</scope>
      </dependency>"
done
# The licence the POM names is the one LICENSE holds.
grep -q "Apache License" LICENSE && grep -q "Version 2.0, January 2004" LICENSE ||
    { echo "jar.sh: LICENSE is not the Apache License 2.0 the POM names" >&2; exit 1; }
xml() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' <<<"$1"; }
central=""
if [ -n "${TELENORID_URL:-}" ] && [ -n "${TELENORID_DEVELOPERS:-}" ]; then
    url=$(xml "${TELENORID_URL%/}")
    central="
  <url>$url</url>
  <developers>"
    IFS=';' read -ra developers <<<"$TELENORID_DEVELOPERS"
    for developer in "${developers[@]}"; do
        developer_name=$(sed -e 's/<.*//' -e 's/^ *//' -e 's/ *$//' <<<"$developer")
        developer_email=$(sed -n 's/.*<\(.*\)>.*/\1/p' <<<"$developer")
        [ -n "$developer_name" ] && [ -n "$developer_email" ] ||
            { echo "jar.sh: TELENORID_DEVELOPERS: \"$developer\" is not \"Name <email>\"" >&2; exit 1; }
        central+="
    <developer>
      <name>$(xml "$developer_name")</name>
      <email>$(xml "$developer_email")</email>
    </developer>"
    done
    central+="
  </developers>
  <scm>
    <url>$url</url>
    <connection>scm:git:$url.git</connection>
    <developerConnection>scm:git:$url.git</developerConnection>
  </scm>"
else
    echo "jar.sh: TELENORID_URL and TELENORID_DEVELOPERS are not both set: the POM has no url, developers or scm," \
        "which Maven Central requires (this tree states neither)" >&2
fi
cat >"$out/$name.pom" <<POM
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
  <description>OpenID Connect / OAuth 2.0 client for native apps: the Java API over libtelenorid (JNI). This jar holds no native code. On a desktop JVM add the natives of your platform too, the same coordinates with a classifier: $(printf '%s, ' "${platforms[@]}" | sed 's/, $//') (they need the system's libcurl4 and libssl3). On Android the AAR carries its own.</description>$central
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
  <!--
    The natives are classifier jars of this artifact, one per platform, each holding only
    no/telenor/id/native/<platform>/ (the bridge, libtelenorid.so.0 and their SHA-256). A desktop program
    depends on this jar and on the natives of its platform:
      <dependencies>$classifiers
      </dependencies>
    Gradle: implementation("no.telenor.id:telenorid:$version") and
            runtimeOnly("no.telenor.id:telenorid:$version:linux-x86_64").
  -->
</project>
POM

# Maven's repository metadata for the artifact (the version list `mvn deploy` keeps; version ranges and
# LATEST/RELEASE read it), and the checksums Maven's resolver verifies for every file it downloads.
cat >"$artifact_dir/maven-metadata.xml" <<METADATA
<?xml version="1.0" encoding="UTF-8"?>
<metadata>
  <groupId>no.telenor.id</groupId>
  <artifactId>telenorid</artifactId>
  <versioning>
    <latest>$version</latest>
    <release>$version</release>
    <versions>
      <version>$version</version>
    </versions>
    <lastUpdated>$(date -u +%Y%m%d%H%M%S)</lastUpdated>
  </versioning>
</metadata>
METADATA
for file in "$artifact_dir/maven-metadata.xml" "$out"/*; do
    sha1sum "$file" | cut -d' ' -f1 >"$file.sha1"
    md5sum "$file" | cut -d' ' -f1 >"$file.md5"
done

rm -rf "$work"
echo "== $repository (a Maven repository: no.telenor.id:telenorid:$version)"
ls -l "$out"
