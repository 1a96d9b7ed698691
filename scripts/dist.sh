#!/usr/bin/env bash
# `make dist`: dist/telenorid-<version>.tar.gz, the committed tree at HEAD (`git archive`, so nothing
# untracked or uncommitted goes in) under the directory telenorid-<version>/. The version is the header's
# TELENORID_VERSION_STRING, read as the Makefile reads it.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)"
[ -n "$version" ] || { echo "dist.sh: no TELENORID_VERSION_STRING in include/telenorid.h" >&2; exit 1; }
if ! git diff --quiet HEAD --; then
    echo "dist.sh: note: uncommitted changes are not in the tarball (it is HEAD, $(git rev-parse --short HEAD))" >&2
fi
mkdir -p dist
tarball="dist/telenorid-$version.tar.gz"
git archive --format=tar.gz --prefix="telenorid-$version/" -o "$tarball" HEAD
echo "$tarball: $(stat -c %s "$tarball") bytes, $(tar -tzf "$tarball" | grep -vc '/$') files"
