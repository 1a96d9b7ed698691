#!/usr/bin/env bash
# The JNI bridge for aarch64 Linux, run by `make test-arm64` (Tests/c/run_arm64.sh):
#   1. build_bridge.sh --arch aarch64: out/jni-arm64/libtelenorid_jni.so, cross-compiled by
#      `clang --target=aarch64-linux-gnu -fuse-ld=lld` against the JDK's jni.h and out/lib-arm64/libtelenorid.so,
#      with the host build's checks (`file` says ARM aarch64, NEEDED libtelenorid.so.0, exports only JNI_OnLoad,
#      binds every header function);
#   2. when an arm64 JVM is at hand, a JUnit smoke run of the tests that start no provider, under qemu-aarch64
#      and -Xcheck:jni: the classes are the host javac's (bytecode has no architecture), the launcher Debian's
#      junit5 jar, the JVM the arm64 one, loading the arm64 bridge and library. ARM64_JAVA_HOME names that JVM;
#      by default Debian's openjdk-17-jre-headless:arm64 where it is installed. It need not be installed: it
#      runs from an unpacked package as well (it must not be installed beside the amd64 one of another
#      version: Multi-Arch: same wants both at one version). scripts/setup.sh unpacks one into .jvm-arm64 and
#      the Makefile passes it; by hand:
#          apt-get download openjdk-17-jre-headless:arm64 && dpkg-deb -x openjdk-17-jre-headless_*_arm64.deb DIR
#          ARM64_JAVA_HOME=DIR/usr/lib/jvm/java-17-openjdk-arm64 bash bindings/jni/build_bridge_arm64.sh
#      Without one, step 2 says it is skipped, and the script still succeeds.
# Works from any directory.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
JUNIT_JAR="${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}"
ARM64_JAVA_HOME="${ARM64_JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-arm64}"
out=out/jni-arm64

bash bindings/jni/build_bridge.sh --arch aarch64

java="$ARM64_JAVA_HOME/bin/java"
if [ ! -x "$java" ] || ! file -L "$java" | grep -q 'ARM aarch64'; then
    echo "build_bridge_arm64.sh: no arm64 JVM at $ARM64_JAVA_HOME: the JUnit smoke run is skipped (bridge built and checked)"
    exit 0
fi

# The tests that need no provider, no Python and no second JVM: loading and registration, versions, strings,
# configuration, PKCE, the authorization request and its callbacks, rich authorization, DPoP signing by the
# host, serialization, handle lifecycles.
tests=(NativeRegistrationTest VersionTest StringsTest ConfigTest PkceTest AuthorizationRequestTest CallbackTest
       AppCallbackTest RichAuthorizationTest DPoPTest SerializationTest LifecycleTest)
echo "== javac (host) for the arm64 smoke run"
rm -rf "$out/classes" "$out/test-classes"
mkdir -p "$out/classes" "$out/test-classes"
"$JAVA_HOME/bin/javac" --release 8 -encoding UTF-8 -nowarn -d "$out/classes" \
    $(find bindings/jni/src/main/java -name '*.java' | sort)
"$JAVA_HOME/bin/javac" --release 17 -encoding UTF-8 -nowarn -cp "$out/classes:$JUNIT_JAR" -d "$out/test-classes" \
    $(find bindings/jni/src/test/java -name '*.java' | sort)

echo "== JUnit smoke run: $java under qemu-aarch64"
classpath="$root/$out/classes:$root/$out/test-classes"
selectors=()
for test in "${tests[@]}"; do selectors+=(--select-class "no.telenor.id.$test"); done
log="$out/junit.log"
set +e
qemu-aarch64 -L / "$java" -Xcheck:jni -Djava.library.path="$root/$out" \
    -jar "$JUNIT_JAR" --class-path "$classpath" "${selectors[@]}" --disable-banner \
    --details=summary --disable-ansi-colors --fail-if-no-tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
if grep -q 'WARNING in native method' "$log"; then
    echo "build_bridge_arm64.sh: -Xcheck:jni reported JNI misuse (see above)" >&2
    status=1
fi
passed="$(sed -n 's/^\[ *\([0-9][0-9]*\) tests successful *\]$/\1/p' "$log" | tail -1)"
failed="$(sed -n 's/^\[ *\([0-9][0-9]*\) tests failed *\]$/\1/p' "$log" | tail -1)"
echo "aarch64 JNI smoke run: ${passed:-0} passed, ${failed:-0} failed"
exit "$status"
