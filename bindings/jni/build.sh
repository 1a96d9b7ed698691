#!/usr/bin/env bash
# Builds and tests the JNI binding on the host JDK:
#   1. out/lib/libtelenorid.so (runs `make build` if it is missing);
#   2. the C bridge → out/jni/libtelenorid_jni.so, -fvisibility=hidden, -Wall -Wextra -Werror, linked
#      against out/lib/libtelenorid.so with rpath $ORIGIN/../lib; checks it exports only JNI_OnLoad;
#   3. the Java classes (javac --release 8, the level Android's toolchain takes) → out/jni/classes;
#   4. if cmake is installed, a host build of CMakeLists.txt (a check that it still configures and builds);
#   5. the tests → out/jni/test-classes, run with the JUnit 5 console launcher under -Xcheck:jni
#      (a JNI misuse warning fails the run).
# Prints the launcher's summary and a last line "N passed, M failed"; exits non-zero on any failure.
# Works from any directory. JAVA_HOME defaults to the Debian JDK 17; JUNIT_JAR to Debian's junit5 package.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
[ -x "$JAVA_HOME/bin/javac" ] || JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
JUNIT_JAR="${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}"
CC="${CC:-gcc}"
java="$JAVA_HOME/bin/java"
javac="$JAVA_HOME/bin/javac"

lib=out/lib
out=out/jni
bridge="$out/libtelenorid_jni.so"

echo "== libtelenorid"
if [ ! -e "$lib/libtelenorid.so" ]; then
    make -C "$root" build
fi
readelf -d "$lib/libtelenorid.so" | grep -q 'SONAME.*libtelenorid\.so\.0' || { echo "build.sh: $lib/libtelenorid.so has no SONAME libtelenorid.so.0" >&2; exit 1; }

echo "== bridge: $bridge"
rm -rf "$out"
mkdir -p "$out/classes" "$out/test-classes"
"$CC" -std=c11 -O2 -g -fPIC -fvisibility=hidden -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
    -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion -Wno-sign-conversion \
    -I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux" -Iinclude \
    -shared -o "$bridge" $(ls bindings/jni/src/main/c/*.c | sort) \
    -Wl,-soname,libtelenorid_jni.so -Wl,-z,defs -Wl,-z,relro,-z,now -Wl,--as-needed \
    -L"$lib" -ltelenorid -Wl,-rpath,'$ORIGIN/../lib'

echo "== nm -D --defined-only $bridge"
exports="$(nm -D --defined-only "$bridge")"
echo "$exports"
names="$(awk '{print $NF}' <<<"$exports" | sort -u | tr '\n' ' ')"
if [ "$names" != "JNI_OnLoad " ]; then
    echo "build.sh: the bridge must export only JNI_OnLoad, it exports: $names" >&2
    exit 1
fi
if nm -D "$bridge" | grep -q 'Java_'; then
    echo "build.sh: the bridge has Java_* symbols" >&2
    exit 1
fi
readelf -d "$bridge" | grep -E 'NEEDED|RUNPATH|RPATH|SONAME'
readelf -d "$bridge" | grep -q 'NEEDED.*\[libtelenorid\.so\.0\]' || { echo "build.sh: the bridge does not need libtelenorid.so.0" >&2; exit 1; }
# Only the public API: every libtelenorid symbol the bridge uses must be declared in the header.
for symbol in $(nm -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_'); do
    grep -q "\b${symbol}(" include/telenorid.h || { echo "build.sh: $symbol is not in include/telenorid.h" >&2; exit 1; }
done
# And all of it: every function the header declares has a binding (the bridge calls it).
unbound="$(comm -23 <(grep -oE 'telenorid_[a-z0-9_]+\(' include/telenorid.h | tr -d '(' | sort -u) \
    <(nm -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_' | sort -u))"
if [ -n "$unbound" ]; then
    echo "build.sh: header functions the bridge does not bind: $unbound" >&2
    exit 1
fi
echo "ok: the bridge binds all $(grep -oE 'telenorid_[a-z0-9_]+\(' include/telenorid.h | sort -u | wc -l) header functions"

echo "== javac (main, --release 8)"
"$javac" --release 8 -encoding UTF-8 -Xlint:all,-options -Werror -d "$out/classes" \
    $(find bindings/jni/src/main/java -name '*.java' | sort)

echo "== javac (tests)"
"$javac" --release 17 -encoding UTF-8 -Xlint:all -Werror -cp "$out/classes:$JUNIT_JAR" -d "$out/test-classes" \
    $(find bindings/jni/src/test/java -name '*.java' | sort)

if command -v cmake >/dev/null 2>&1; then
    echo "== cmake: host build of bindings/jni/CMakeLists.txt"
    if ! { JAVA_HOME="$JAVA_HOME" cmake -S bindings/jni -B "$out/cmake" -DCMAKE_BUILD_TYPE=Release \
            -DCMAKE_C_COMPILER="$CC" && cmake --build "$out/cmake"; } >"$out/cmake.log" 2>&1; then
        cat "$out/cmake.log" >&2
        echo "build.sh: the CMake build failed" >&2
        exit 1
    fi
    cmake_names="$(nm -D --defined-only "$out/cmake/libtelenorid_jni.so" | awk '{print $NF}' | sort -u | tr '\n' ' ')"
    if [ "$cmake_names" != "JNI_OnLoad " ]; then
        echo "build.sh: the CMake-built bridge exports: $cmake_names" >&2
        exit 1
    fi
    echo "ok: $out/cmake/libtelenorid_jni.so exports only JNI_OnLoad"
else
    echo "== cmake: not installed; CMakeLists.txt not checked"
fi

echo "== tests"
classpath="$root/$out/classes:$root/$out/test-classes"
log="$out/junit.log"
set +e
"$java" -Xcheck:jni -Djava.library.path="$root/$out" \
    -Dtelenorid.test.bridge="$root/$bridge" -Dtelenorid.test.classpath="$classpath" \
    -jar "$JUNIT_JAR" --class-path "$classpath" --scan-class-path --disable-banner \
    --details=tree --details-theme=ascii --disable-ansi-colors --fail-if-no-tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

passed="$(sed -n 's/^\[ *\([0-9][0-9]*\) tests successful *\]$/\1/p' "$log" | tail -1)"
failed="$(sed -n 's/^\[ *\([0-9][0-9]*\) tests failed *\]$/\1/p' "$log" | tail -1)"
passed="${passed:-0}"
failed="${failed:-0}"
# -Xcheck:jni reports misuse (a JNI call with an exception pending, a leaked local reference ...) as a
# warning and carries on; here it fails the run.
if grep -q 'WARNING in native method' "$log"; then
    echo "build.sh: -Xcheck:jni reported JNI misuse (see above)" >&2
    status=1
fi
if [ "$status" -eq 0 ] && [ "$failed" -ne 0 ]; then
    status=1
fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1 # the launcher failed without a failed test (no tests found, a crash, a JNI warning)
fi
# CI keeps only the end of the output: name the failed tests (tree lines marked [X], with their message)
# after the launcher's long stack traces, where that tail can show them.
if [ "$failed" -ne 0 ]; then
    echo "== failed"
    grep -E '\[X\]' "$log" | grep -vE '^\+-- JUnit|^\| \+-- [A-Za-z]+Test \[X\]' | head -20 || true
fi
echo "$passed passed, $failed failed"
exit "$status"
