#!/usr/bin/env bash
# `make install` into a temporary prefix (with DESTDIR, as a package build does), then a program compiled
# with nothing but `pkg-config --cflags --libs telenorid` must build, find the library through its SONAME
# link and report the installed version. Uses the already built out/lib (make -o build: no rebuild).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix=/opt/telenorid
make -s -o build install PREFIX="$prefix" DESTDIR="$tmp/stage"
root="$tmp/stage$prefix"
version="$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)"
for file in include/telenorid.h "lib/libtelenorid.so.$version" lib/pkgconfig/telenorid.pc; do
    [ -f "$root/$file" ] || { echo "test_install: $file not installed" >&2; exit 1; }
done
[ "$(readlink "$root/lib/libtelenorid.so")" = libtelenorid.so.0 ] || { echo "test_install: bad libtelenorid.so link" >&2; exit 1; }
[ "$(readlink "$root/lib/libtelenorid.so.0")" = "libtelenorid.so.$version" ] || { echo "test_install: bad .so.0 link" >&2; exit 1; }
# The .pc names the final prefix, not the staging directory; point pkg-config's sysroot at the stage.
grep -qx "prefix=$prefix" "$root/lib/pkgconfig/telenorid.pc"
export PKG_CONFIG_PATH="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp/stage"
[ "$(pkg-config --modversion telenorid)" = "$version" ]
cat > "$tmp/version.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <telenorid.h>
int main(void)
{
    if (telenorid_version() != TELENORID_VERSION_NUMBER || strcmp(telenorid_version_string(), TELENORID_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s, library %s\n", TELENORID_VERSION_STRING, telenorid_version_string());
        return 1;
    }
    printf("installed libtelenorid %s\n", telenorid_version_string());
    return 0;
}
C
# shellcheck disable=SC2046
${CC:-gcc} -std=c99 -Wall -Wextra -Werror -pedantic "$tmp/version.c" -o "$tmp/version" $(pkg-config --cflags --libs telenorid)
readelf -d "$tmp/version" | grep -q 'NEEDED.*\[libtelenorid\.so\.0\]' || { echo "test_install: not linked by SONAME" >&2; exit 1; }
LD_LIBRARY_PATH="$root/lib" "$tmp/version"
