#!/usr/bin/env bash
# The shipped libtelenorid.so, built in Embedded Swift: the standard library compiled into the object, no
# Swift runtime to load. SwiftPM has no product type for Embedded mode, so this script is its one home
# (the Makefile's `build` and `build-arm64` call it); Package.swift builds the same sources in the standard
# mode for the Swift tests.
#
#   bash scripts/embedded.sh x86_64|aarch64 OUTDIR
#
# TELENORID_LINK_MAP=FILE writes the linker's map there (scripts/size_map.sh).
# Writes OUTDIR/libtelenorid.so (unstripped, with its SONAME) and OUTDIR/obj/ (the modules and objects).
set -euo pipefail
cd "$(dirname "$0")/.."
arch=${1:?usage: embedded.sh x86_64|aarch64 OUTDIR}
out=${2:?usage: embedded.sh x86_64|aarch64 OUTDIR}
obj=$out/obj
mkdir -p "$obj"

# The toolchain this build was checked with. Embedded Swift is an experimental mode: another version may
# build a library that behaves differently, so say so loudly (and go on: a newer patch release is likely fine).
checked_with="6.3.1"
toolchain=$(swiftc --version 2>&1 | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)
if [ "$toolchain" != "$checked_with" ]; then
    echo "embedded.sh: WARNING: built with Swift $toolchain; the Embedded build is checked with Swift $checked_with" >&2
fi

case $arch in
x86_64)
    swift_target=x86_64-unknown-linux-gnu
    clang_target=x86_64-linux-gnu
    cc_flags=()
    ;;
aarch64)
    # The toolchain has no embedded standard library for aarch64-unknown-linux-gnu; the bare-metal one is
    # the same code for the same CPU, and everything platform-specific comes from Debian's arm64 headers.
    swift_target=aarch64-none-none-elf
    clang_target=aarch64-linux-gnu
    # The C headers are read for that bare-metal target too, so they get Linux's predefined macros and
    # Debian's arm64 include directories by hand.
    cc_flags=(-Xcc -D__linux__ -Xcc -D__linux -Xcc -Dlinux -Xcc -D__unix__ -Xcc -D__unix -Xcc -Dunix
              -Xcc -D__gnu_linux__ -Xcc -D__ELF__
              -Xcc -isystem -Xcc /usr/include/aarch64-linux-gnu -Xcc -isystem -Xcc /usr/include)
    ;;
*) echo "embedded.sh: unknown architecture $arch" >&2; exit 2 ;;
esac

common=(-target "$swift_target" -swift-version 6 -enable-experimental-feature Embedded -wmo -parse-as-library -Osize
        -Xcc -fPIC -Xfrontend -disable-reflection-metadata
        -I Sources/CPlatform -I Sources/COpenSSL -I Sources/CCurl -I include -I "$obj" "${cc_flags[@]}")
core_sources=$(find Sources/TelenoridCore -name '*.swift' | sort)
export_sources=$(find Sources/Telenorid -name '*.swift' | sort)

# Each module twice: once for its interface, once for its object with each function in a section of its
# own (swiftc drops -function-sections when -emit-module is in the same invocation: ~300 KB). A module is
# compiled again only when something it is made of is newer than its object (a whole-module build of the
# core takes minutes; `make test` and `make bench` ask for the library more than once).
stale() { # stale OBJECT FILE...: true when OBJECT is missing or older than any FILE
    local object=$1
    shift
    [ ! -e "$object" ] && return 0
    [ -n "$(find "$@" -newer "$object" -print -quit)" ]
}
inputs=(scripts/embedded.sh Sources/CPlatform Sources/COpenSSL Sources/CCurl include/telenorid.h)
# shellcheck disable=SC2086
if stale "$obj/TelenoridCore.o" "${inputs[@]}" $core_sources; then
    swiftc "${common[@]}" -module-name TelenoridCore -emit-module -emit-module-path "$obj/TelenoridCore.swiftmodule" \
        $core_sources
    swiftc "${common[@]}" -module-name TelenoridCore -c -o "$obj/TelenoridCore.o" -Xfrontend -function-sections \
        $core_sources
fi
# shellcheck disable=SC2086
if stale "$obj/Telenorid.o" "${inputs[@]}" "$obj/TelenoridCore.o" $export_sources; then
    swiftc "${common[@]}" -module-name Telenorid -c -o "$obj/Telenorid.o" -Xfrontend -function-sections $export_sources
fi

# What the embedded standard library asks of its platform, or gets wrong (Sources/EmbeddedSupport/README.md).
support_objects=()
for source in Sources/EmbeddedSupport/*.c; do
    object=$obj/$(basename "$source" .c).o
    clang --target="$clang_target" -O2 -fPIC -g -Wall -Wextra -Werror -c "$source" -o "$object"
    support_objects+=("$object")
done

# The link: only the C API exported (exports.map), the old names as aliases (old_names.ld), every reference
# resolved at link time (-z defs), unused sections dropped and identical ones folded. The Unicode tables are
# the embedded standard library's (String comparison and lowercasing need them). No libm: its one function the
# library called, ceil, is Sources/EmbeddedSupport/ceil.c.
unicode_tables=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/embedded/$swift_target/libswiftUnicodeDataTables.a
clang --target="$clang_target" ${sysroot_flags[@]+"${sysroot_flags[@]}"} -shared -fuse-ld=lld -o "$out/libtelenorid.so" \
    "$obj/TelenoridCore.o" "$obj/Telenorid.o" "${support_objects[@]}" "$unicode_tables" Sources/Telenorid/old_names.ld \
    -Wl,--gc-sections -Wl,--icf=all -Wl,-z,defs \
    -Wl,--version-script=Sources/Telenorid/exports.map -Wl,-soname=libtelenorid.so.0 \
    ${TELENORID_LINK_MAP:+-Wl,-Map="$TELENORID_LINK_MAP"} -lcurl -lcrypto
