#!/usr/bin/env bash
# `make jni`: the JNI bridge for the host JDK, out/jni/libtelenorid_jni.so, compiled from every
# bindings/jni/src/main/c/*.c (the same glob CMakeLists.txt reads, so the two builds cannot list different
# sources) with -fvisibility=hidden -Wall -Wextra -Werror, linked against out/lib/libtelenorid.so with rpath
# $ORIGIN/../lib. Then checks that it exports only JNI_OnLoad, needs libtelenorid.so.0, uses only functions
# the header declares and binds every one of them. Runs `make build` first when the library is missing.
# JAVA_HOME defaults to the Debian JDK 17, CC to gcc. Works from any directory.
#
#   --arch aarch64   the same bridge cross-compiled for aarch64 Linux (`make test-arm64` runs it):
#                    out/jni-arm64/libtelenorid_jni.so, compiled by `clang --target=aarch64-linux-gnu` and
#                    linked by lld against out/lib-arm64/libtelenorid.so (`make build-arm64`; rpath
#                    $ORIGIN/../lib-arm64) and Debian's arm64 libc (multiarch, scripts/setup.sh). The JDK's
#                    jni.h and include/linux/jni_md.h are the same for every Linux architecture, so the host
#                    JDK's serve. The same checks follow, read with aarch64-linux-gnu-nm, and `file` must say
#                    "ARM aarch64". No JVM runs it here (see README.md, "aarch64 Linux").
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
arch=x86_64
case "${1:-}" in
    "") ;;
    --arch)
        arch=${2:?usage: build_bridge.sh [--arch aarch64]}
        [ "$arch" = aarch64 ] || [ "$arch" = x86_64 ] || { echo "build_bridge.sh: unknown architecture $arch" >&2; exit 2; }
        ;;
    *) echo "usage: build_bridge.sh [--arch aarch64]" >&2; exit 2 ;;
esac
if [ "$arch" = aarch64 ]; then
    lib=out/lib-arm64
    out=out/jni-arm64
    cc=(clang --target=aarch64-linux-gnu -fuse-ld=lld)
    nm=aarch64-linux-gnu-nm
    rpath='$ORIGIN/../lib-arm64'
    make_target=build-arm64
else
    lib=out/lib
    out=out/jni
    # shellcheck disable=SC2206 # CC may carry flags, as make's does
    cc=($CC)
    nm=nm
    rpath='$ORIGIN/../lib'
    make_target=build
fi
bridge="$out/libtelenorid_jni.so"

if [ ! -e "$lib/libtelenorid.so" ]; then
    make -C "$root" "$make_target"
fi
readelf -d "$lib/libtelenorid.so" | grep -q 'SONAME.*libtelenorid\.so\.0' || { echo "build_bridge.sh: $lib/libtelenorid.so has no SONAME libtelenorid.so.0" >&2; exit 1; }

echo "== bridge: $bridge"
mkdir -p "$out"
"${cc[@]}" -std=c11 -O2 -g -fPIC -fvisibility=hidden -fstack-protector-strong -D_FORTIFY_SOURCE=2 \
    -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wconversion -Wno-sign-conversion \
    -I"$JAVA_HOME/include" -I"$JAVA_HOME/include/linux" -Iinclude \
    -shared -o "$bridge" bindings/jni/src/main/c/*.c \
    -Wl,-soname,libtelenorid_jni.so -Wl,-z,defs -Wl,-z,relro,-z,now -Wl,--as-needed \
    -L"$lib" -ltelenorid -Wl,-rpath,"$rpath"
if [ "$arch" = aarch64 ]; then
    echo "== file $bridge"
    file "$bridge"
    file "$bridge" | grep -q 'ELF 64-bit LSB shared object, ARM aarch64' || { echo "build_bridge.sh: $bridge is not an aarch64 shared object" >&2; exit 1; }
fi

echo "== $nm -D --defined-only $bridge"
exports="$("$nm" -D --defined-only "$bridge")"
echo "$exports"
names="$(awk '{print $NF}' <<<"$exports" | sort -u | tr '\n' ' ')"
if [ "$names" != "JNI_OnLoad " ]; then
    echo "build_bridge.sh: the bridge must export only JNI_OnLoad, it exports: $names" >&2
    exit 1
fi
if "$nm" -D "$bridge" | grep -q 'Java_'; then
    echo "build_bridge.sh: the bridge has Java_* symbols" >&2
    exit 1
fi
readelf -d "$bridge" | grep -E 'NEEDED|RUNPATH|RPATH|SONAME'
readelf -d "$bridge" | grep -q 'NEEDED.*\[libtelenorid\.so\.0\]' || { echo "build_bridge.sh: the bridge does not need libtelenorid.so.0" >&2; exit 1; }
# Only the public API: every libtelenorid symbol the bridge uses must be declared in the header.
for symbol in $("$nm" -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_'); do
    grep -q "\b${symbol}(" include/telenorid.h || { echo "build_bridge.sh: $symbol is not in include/telenorid.h" >&2; exit 1; }
done
# And all of it: every function the header declares has a binding (the bridge calls it), the old names of the
# header's last block, "Old names (aliases until 1.0)", aside: they are the same functions as the new ones.
unbound="$(comm -23 <(sed '/Old names (aliases until 1.0)/q' include/telenorid.h | grep -oE 'telenorid_[a-z0-9_]+\(' |
    tr -d '(' | sort -u) \
    <("$nm" -D --undefined-only "$bridge" | awk '{print $NF}' | grep '^telenorid_' | sort -u))"
if [ -n "$unbound" ]; then
    echo "build_bridge.sh: header functions the bridge does not bind: $unbound" >&2
    exit 1
fi
echo "ok: the bridge binds all $(grep -oE 'telenorid_[a-z0-9_]+\(' include/telenorid.h | sort -u | wc -l) header functions"

