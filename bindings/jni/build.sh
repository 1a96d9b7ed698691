#!/usr/bin/env bash
# Builds and tests the JNI binding on the host JDK:
#   1. the C bridge → out/jni/libtelenorid_jni.so (build_bridge.sh, also `make jni`; it runs `make build`
#      when out/lib/libtelenorid.so is missing), checked to export only JNI_OnLoad;
#   2. the Java classes (javac --release 8, the level Android's toolchain takes) → out/jni/classes;
#   3. a host build of CMakeLists.txt, the Android build's (same sources, same single export);
#   4. the tests → out/jni/test-classes, run with the JUnit 5 console launcher under -Xcheck:jni
#      (a JNI misuse warning fails the run): every class but LineAuthenticatorTest in one JVM, then
#      LineAuthenticatorTest in a JVM of its own started inside a private mount namespace whose /etc/hosts
#      names aloha.test (its resolver tests; needs root, else they are skipped and a line says so).
# Arguments, optional: test class names (e.g. LineAuthenticatorTest) to run only those.
# Prints the launcher's summary and a last line "N passed, M failed"; exits non-zero on any failure.
# Works from any directory. JAVA_HOME defaults to the Debian JDK 17; JUNIT_JAR to Debian's junit5 package.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
JUNIT_JAR="${JUNIT_JAR:-/usr/share/java/junit-platform-console-standalone.jar}"
java="$JAVA_HOME/bin/java"
javac="$JAVA_HOME/bin/javac"

out=out/jni
bridge="$out/libtelenorid_jni.so"

rm -rf "$out"
mkdir -p "$out/classes" "$out/test-classes"
bash bindings/jni/build_bridge.sh

echo "== javac (main, --release 8)"
"$javac" --release 8 -encoding UTF-8 -Xlint:all,-options -Werror -d "$out/classes" \
    $(find bindings/jni/src/main/java -name '*.java' | sort)

echo "== javac (tests)"
"$javac" --release 17 -encoding UTF-8 -Xlint:all -Werror -cp "$out/classes:$JUNIT_JAR" -d "$out/test-classes" \
    $(find bindings/jni/src/test/java -name '*.java' | sort)

# The Android build's CMakeLists.txt, built here for the host against the JDK's JNI headers: the same
# sources (one glob), the same flags, the same single export. cmake comes from `make setup`.
command -v cmake >/dev/null 2>&1 || { echo "build.sh: cmake is not installed (make setup installs it)" >&2; exit 1; }
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
# Both builds compile every source of the tree: the same undefined telenorid_* symbols in each.
if ! diff <(nm -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_' | sort) \
        <(nm -D --undefined-only "$out/cmake/libtelenorid_jni.so" | awk '{print $NF}' | grep '^telenorid_' | sort); then
    echo "build.sh: the CMake-built bridge calls other library functions than build_bridge.sh's" >&2
    exit 1
fi
echo "ok: $out/cmake/libtelenorid_jni.so exports only JNI_OnLoad and binds what the bridge binds"

echo "== tests"
classpath="$root/$out/classes:$root/$out/test-classes"
log="$out/junit.log"
: >"$log"
# One launcher run, its output added to $log; its exit status. Arguments: the JVM's command line, "--", the
# launcher's selection.
junit() {
    local status
    local -a command=()
    while [ "$1" != "--" ]; do
        command+=("$1")
        shift
    done
    shift
    set +e
    "${command[@]}" -jar "$JUNIT_JAR" --class-path "$classpath" --disable-banner \
        --details=tree --details-theme=ascii --disable-ansi-colors --fail-if-no-tests "$@" 2>&1 | tee -a "$log"
    status=${PIPESTATUS[0]}
    set -e
    return "$status"
}
jvm=("$java" -Xcheck:jni -Djava.library.path="$root/$out"
     -Dtelenorid.test.bridge="$root/$bridge" -Dtelenorid.test.classpath="$classpath")
line_auth_class=no.telenor.id.LineAuthenticatorTest
# Which classes: all (one scan without LineAuthenticatorTest, then it), or those named as arguments.
scan=1
run_line_auth=1
selected=()
if [ "$#" -gt 0 ]; then
    scan=0
    run_line_auth=0
    for name in "$@"; do
        case "$name" in
            LineAuthenticatorTest | "$line_auth_class") run_line_auth=1 ;;
            *.*) selected+=(--select-class "$name") ;;
            *) selected+=(--select-class "no.telenor.id.$name") ;;
        esac
    done
fi
status=0
if [ "$scan" -eq 1 ]; then
    junit "${jvm[@]}" -- --scan-class-path --exclude-classname "^${line_auth_class//./\\.}\$" || status=$?
elif [ "${#selected[@]}" -gt 0 ]; then
    junit "${jvm[@]}" -- "${selected[@]}" || status=$?
fi
# LineAuthenticatorTest's resolver tests reach the Aloha stand-in under the name aloha.test, which only a
# private /etc/hosts can give (127.0.0.2): the JVM starts inside `unshare -m` (a new mount namespace, mounts
# private) with a file bind-mounted over /etc/hosts there; its subprocesses (the stand-in) inherit it. A
# mount namespace can't be entered from inside a running JVM (setns refuses a multithreaded process), so
# this is the only way in. Without root the class runs as it is and those tests are skipped.
if [ "$run_line_auth" -eq 1 ]; then
    hosts="$root/$out/hosts"
    printf '127.0.0.1 localhost\n::1 localhost\n127.0.0.2 aloha.test\n' >"$hosts"
    if [ "$(id -u)" -eq 0 ] && unshare -m --propagation private true 2>/dev/null; then
        echo "== $line_auth_class, with a private /etc/hosts (aloha.test 127.0.0.2)"
        junit unshare -m --propagation private sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' "$hosts" \
            "${jvm[@]}" -Dtelenorid.test.privateHosts=aloha.test -- --select-class "$line_auth_class" || status=$?
    else
        echo "== $line_auth_class; its tests under a host name are skipped: a private /etc/hosts needs root and mount namespaces (unshare -m)"
        junit "${jvm[@]}" -- --select-class "$line_auth_class" || status=$?
    fi
fi

# The launcher runs' summaries added up.
passed="$(sed -n 's/^\[ *\([0-9][0-9]*\) tests successful *\]$/\1/p' "$log" | awk '{n += $1} END {print n + 0}')"
failed="$(sed -n 's/^\[ *\([0-9][0-9]*\) tests failed *\]$/\1/p' "$log" | awk '{n += $1} END {print n + 0}')"
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
