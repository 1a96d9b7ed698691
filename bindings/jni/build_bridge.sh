#!/usr/bin/env bash
# `make jni`: the JNI bridge for the host JDK, out/jni/libtelenorid_jni.so, compiled from every
# bindings/jni/src/main/c/*.c (the same glob CMakeLists.txt reads, so the two builds cannot list different
# sources) with -fvisibility=hidden -Wall -Wextra -Werror, linked against out/lib/libtelenorid.so with rpath
# $ORIGIN/../lib. Then checks that it exports only JNI_OnLoad, needs libtelenorid.so.0, uses only functions
# the header declares and binds every one of them. Runs `make build` first when the library is missing.
# JAVA_HOME defaults to the Debian JDK 17, CC to gcc. Works from any directory.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
lib=out/lib
out=out/jni
bridge="$out/libtelenorid_jni.so"

if [ ! -e "$lib/libtelenorid.so" ]; then
    make -C "$root" build
fi
readelf -d "$lib/libtelenorid.so" | grep -q 'SONAME.*libtelenorid\.so\.0' || { echo "build_bridge.sh: $lib/libtelenorid.so has no SONAME libtelenorid.so.0" >&2; exit 1; }

echo "== bridge: $bridge"
mkdir -p "$out"
"$CC" -std=c11 -O2 -g -fPIC -fvisibility=hidden -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
    -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion -Wno-sign-conversion \
    -I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux" -Iinclude \
    -shared -o "$bridge" bindings/jni/src/main/c/*.c \
    -Wl,-soname,libtelenorid_jni.so -Wl,-z,defs -Wl,-z,relro,-z,now -Wl,--as-needed \
    -L"$lib" -ltelenorid -Wl,-rpath,'$ORIGIN/../lib'

echo "== nm -D --defined-only $bridge"
exports="$(nm -D --defined-only "$bridge")"
echo "$exports"
names="$(awk '{print $NF}' <<<"$exports" | sort -u | tr '\n' ' ')"
if [ "$names" != "JNI_OnLoad " ]; then
    echo "build_bridge.sh: the bridge must export only JNI_OnLoad, it exports: $names" >&2
    exit 1
fi
if nm -D "$bridge" | grep -q 'Java_'; then
    echo "build_bridge.sh: the bridge has Java_* symbols" >&2
    exit 1
fi
readelf -d "$bridge" | grep -E 'NEEDED|RUNPATH|RPATH|SONAME'
readelf -d "$bridge" | grep -q 'NEEDED.*\[libtelenorid\.so\.0\]' || { echo "build_bridge.sh: the bridge does not need libtelenorid.so.0" >&2; exit 1; }
# Only the public API: every libtelenorid symbol the bridge uses must be declared in the header.
for symbol in $(nm -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_'); do
    grep -q "\b${symbol}(" include/telenorid.h || { echo "build_bridge.sh: $symbol is not in include/telenorid.h" >&2; exit 1; }
done
# And all of it: every function the header declares has a binding (the bridge calls it), the old names of the
# header's last block, "Old names (aliases until 1.0)", aside: they are the same functions as the new ones.
unbound="$(comm -23 <(sed '/Old names (aliases until 1.0)/q' include/telenorid.h | grep -oE 'telenorid_[a-z0-9_]+\(' |
    tr -d '(' | sort -u) \
    <(nm -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_' | sort -u))"
if [ -n "$unbound" ]; then
    echo "build_bridge.sh: header functions the bridge does not bind: $unbound" >&2
    exit 1
fi
echo "ok: the bridge binds all $(grep -oE 'telenorid_[a-z0-9_]+\(' include/telenorid.h | sort -u | wc -l) header functions"

