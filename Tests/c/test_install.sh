#!/usr/bin/env bash
# `make install` into a temporary prefix (with DESTDIR, as a package build does), then a program compiled
# with nothing but `pkg-config --cflags --libs telenorid` must build, find the library through its SONAME
# link and report the installed version. Then what install says about the dynamic loader: into a prefix without
# DESTDIR, the program linked with the rpath its message names starts with no LD_LIBRARY_PATH; into one of the
# loader's directories (a stand-in ldconfig says which), install runs ldconfig as root or says to.
# Uses the already built out/lib (make -o build: no rebuild).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix=/opt/telenorid
make -s -o build install PREFIX="$prefix" DESTDIR="$tmp/stage" > "$tmp/staged.out"
expect_line() {  # expect_line FILE TEXT: FILE is exactly one line, and it contains TEXT
    [ "$(wc -l < "$1")" = 1 ] && grep -qF -- "$2" "$1" ||
        { echo "test_install: expected one line with \"$2\", got:" >&2; cat "$1" >&2; exit 1; }
}
expect_line "$tmp/staged.out" "-Wl,-rpath,$prefix/lib"
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

# A prefix outside the loader's directories, no DESTDIR: linked as the message says, the program starts alone.
unset PKG_CONFIG_SYSROOT_DIR
make -s -o build install PREFIX="$tmp/prefix" > "$tmp/prefix.out"
expect_line "$tmp/prefix.out" "-Wl,-rpath,$tmp/prefix/lib"
rpath=$(grep -o -- "-Wl,-rpath,[^ ]*" "$tmp/prefix.out")
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
${CC:-gcc} -std=c99 "$tmp/version.c" -o "$tmp/bare" $(pkg-config --cflags --libs telenorid)
# shellcheck disable=SC2046
${CC:-gcc} -std=c99 "$tmp/version.c" -o "$tmp/rpath" $(pkg-config --cflags --libs telenorid) "$rpath"
if ! ldconfig -p 2>/dev/null | grep -q 'libtelenorid\.so\.0 '; then
    # What the issue saw, unless this machine has a libtelenorid installed for the loader already.
    if env -u LD_LIBRARY_PATH "$tmp/bare" 2> "$tmp/bare.err"; then
        echo "test_install: a program without the rpath started" >&2; exit 1
    fi
    grep -q 'libtelenorid.so.0: cannot open shared object file' "$tmp/bare.err"
fi
env -u LD_LIBRARY_PATH "$tmp/rpath"

# One of the loader's directories: a stand-in ldconfig lists $tmp/system/lib and logs every other call.
cat > "$tmp/ldconfig" <<SH
#!/bin/sh
if [ "\$*" = "-v -N" ]; then printf '%s: (from test)\\n\\tlibc.so.6 -> libc.so.6\\n' "$tmp/system/lib"
else echo "\$*" >> "$tmp/ldconfig.log"; fi
SH
chmod +x "$tmp/ldconfig"
LDCONFIG="$tmp/ldconfig" make -s -o build install PREFIX="$tmp/system" DESTDIR="$tmp/stage2" > "$tmp/system-staged.out"
expect_line "$tmp/system-staged.out" "run ldconfig once the files are in $tmp/system/lib"
[ ! -e "$tmp/ldconfig.log" ] || { echo "test_install: ldconfig ran for a DESTDIR install" >&2; exit 1; }
LDCONFIG="$tmp/ldconfig" make -s -o build install PREFIX="$tmp/system" > "$tmp/system.out"
if [ "$(id -u)" = 0 ]; then
    [ ! -s "$tmp/system.out" ] || { echo "test_install: unexpected output:" >&2; cat "$tmp/system.out" >&2; exit 1; }
    [ -e "$tmp/ldconfig.log" ] && [ "$(cat "$tmp/ldconfig.log")" = "" ] || {
        echo "test_install: ldconfig did not run (or ran with arguments) as root" >&2; exit 1; }
else
    expect_line "$tmp/system.out" "run ldconfig as root"
    [ ! -e "$tmp/ldconfig.log" ] || { echo "test_install: ldconfig ran without root" >&2; exit 1; }
fi
echo "test_install: ok"
