#!/usr/bin/env bash
# The last step of `make install` (scripts/install_loader.sh LIBDIR DESTDIR LDCONFIG): whether a program linked with
# `pkg-config --libs telenorid` (a -L, no rpath) finds libtelenorid.so.0 when it starts. The dynamic loader looks
# in its own directories (built in, and those /etc/ld.so.conf names) through the cache ldconfig writes: an install
# into one of them, by root and without DESTDIR, runs ldconfig; every other install prints one line saying what
# a program needs. Tests/c/test_install.sh checks each case.
set -euo pipefail
libdir=$1 destdir=$2 ldconfig=$3
# `ldconfig -v -N` lists the directories the loader searches ("dir: (from ...)"), each followed by its
# libraries (tab-indented), without writing the cache; it leaves out a directory that does not exist yet.
target=$(realpath -m "$libdir")
searched=no
while IFS= read -r line; do
    case $line in $'\t'* | '') continue ;; esac
    [ "$(realpath -m "${line%%:*}")" = "$target" ] && searched=yes
done < <("$ldconfig" -v -N 2>/dev/null || true)
if [ $searched = no ]; then
    echo "libtelenorid: $libdir is not a directory the dynamic loader searches: link programs with" \
        "-Wl,-rpath,$libdir beside \`pkg-config --libs telenorid\`, or run them with LD_LIBRARY_PATH=$libdir"
elif [ -n "$destdir" ]; then
    echo "libtelenorid: staged under DESTDIR: run ldconfig once the files are in $libdir" \
        "(a package's post-install step)"
elif [ "$(id -u)" = 0 ]; then
    "$ldconfig"
else
    echo "libtelenorid: run ldconfig as root, so that programs find libtelenorid.so.0 in $libdir"
fi
