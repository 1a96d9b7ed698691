#!/usr/bin/env bash
# `make release`: dist/, everything a release of telenorid publishes, all of the one version in
# include/telenorid.h (TELENORID_VERSION_STRING):
#
#   dist/python/telenorid-<v>-py3-none-manylinux_2_34_x86_64.whl    scripts/wheel.sh (auditwheel-repaired)
#   dist/python/telenorid-<v>-py3-none-manylinux_2_34_aarch64.whl   scripts/wheel.sh --arch aarch64, when
#                                                                   `make build-arm64` has made out/lib-arm64
#   dist/python/telenorid-<v>.tar.gz                                the Python package's sdist (no library:
#                                                                   it finds an installed libtelenorid.so.0)
#   dist/maven/...                                                  what `make jar` (scripts/jar.sh) wrote in
#                                                                   out/jar, as it wrote it
#   dist/telenorid-<v>-linux-x86_64.tar.gz                          the C library: include/telenorid.h,
#   dist/telenorid-<v>-linux-aarch64.tar.gz (with out/lib-arm64)    lib/libtelenorid.so.<v> with its SONAME
#                                                                   links, lib/pkgconfig/telenorid.pc
#                                                                   (relocatable: its prefix is
#                                                                   ${pcfiledir}/../..), the C API reference,
#                                                                   LICENSE, CHANGELOG.md, README
#   dist/telenorid-<v>.tar.gz                                       the source: scripts/dist.sh (git archive
#                                                                   of HEAD)
#   dist/telenorid-<v>.cdx.json                                     the SBOM (CycloneDX 1.5): scripts/sbom.py,
#                                                                   from the artifacts' contents
#   dist/SHA256SUMS                                                 over every other file (`sha256sum -c`)
#
# Then scripts/check_release.py checks that every artifact carries that version and no other (names,
# metadata, POMs, every copy of the library: its version string and the header's functions exported), and
# this fails if one does not. The Makefile's `release` target first brings out/lib, out/jar, out/docs (and
# out/lib-arm64 when it exists) up to date; they are reused as they are, so a release of an unchanged tree
# takes seconds beyond the wheels' repair. The whole of dist/ is replaced. Publishing is not done here:
# README.md, "Publishing a release", says how.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
PYTHON=${PYTHON:-$([ -x .venv/bin/python ] && echo "$repo/.venv/bin/python" || command -v python3)}
version=$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)
[ -n "$version" ] || { echo "release: no TELENORID_VERSION_STRING in include/telenorid.h" >&2; exit 1; }
for needed in "out/lib/libtelenorid.so.$version" out/docs/c/index.html; do
    [ -e "$needed" ] || { echo "release: $needed is missing: run \`make release\`, which builds it" >&2; exit 1; }
done
[ -n "$(find out/jar -name "telenorid-$version*" -print -quit 2> /dev/null)" ] ||
    { echo "release: no telenorid-$version artifacts in out/jar: run \`make release\` (it runs \`make jar\`)" >&2; exit 1; }
arches=(x86_64)
[ -e "out/lib-arm64/libtelenorid.so.$version" ] && arches+=(aarch64)

stage=out/release
rm -rf "$stage"
mkdir -p "$stage/python" "$stage/maven"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The wheels. wheel.sh writes dist/ and replaces any wheel there, so each is moved out as soon as it is made.
for arch in "${arches[@]}"; do
    bash scripts/wheel.sh --arch "$arch"
    mv dist/telenorid-*.whl "$stage/python/"
done

# The sdist, from the same copy of the package wheel.sh builds from, without a library.
sdist=$work/sdist
mkdir -p "$sdist"
cp bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md LICENSE "$sdist/"
cp -r bindings/python/telenorid "$sdist/telenorid"
rm -rf "$sdist/telenorid/__pycache__" "$sdist"/telenorid/libtelenorid.so*
out/wheel-tools/bin/python -m build --sdist --no-isolation --outdir "$stage/python" "$sdist" > "$work/sdist.log" 2>&1 ||
    { cat "$work/sdist.log" >&2; exit 1; }

# The Maven artifacts: whatever scripts/jar.sh laid out (files, or a repository's directories).
cp -a out/jar/. "$stage/maven/"

# The C tarballs. Owner, group and times fixed (the commit's time), names sorted: the same tree gives the
# same bytes.
mtime=$(git log -1 --format=%ct)
for arch in "${arches[@]}"; do
    lib=out/lib
    [ "$arch" = aarch64 ] && lib=out/lib-arm64
    name=telenorid-$version-linux-$arch
    root=$work/$name
    mkdir -p "$root/include" "$root/lib/pkgconfig" "$root/share/doc/telenorid"
    install -m 644 include/telenorid.h "$root/include/telenorid.h"
    install -m 755 "$lib/libtelenorid.so.$version" "$root/lib/libtelenorid.so.$version"
    ln -s "libtelenorid.so.$version" "$root/lib/libtelenorid.so.0"
    ln -s libtelenorid.so.0 "$root/lib/libtelenorid.so"
    # Relocatable: pkg-config sets ${pcfiledir} to the directory the .pc file is read from.
    { echo "# The release tarball's: its prefix is wherever the tarball was unpacked (\${pcfiledir}/../..)."
      sed -e '/^# Generated by/d' -e 's|@PREFIX@|${pcfiledir}/../..|' -e 's|@INCLUDEDIR@|${prefix}/include|' \
          -e 's|@LIBDIR@|${prefix}/lib|' -e "s|@VERSION@|$version|" bindings/c/telenorid.pc.in
    } > "$root/lib/pkgconfig/telenorid.pc"
    install -m 644 out/docs/c/index.html "$root/share/doc/telenorid/c-api.html"
    install -m 644 LICENSE CHANGELOG.md "$root/"
    cat > "$root/README" <<README
telenorid $version for Linux $arch: the C library of an OpenID Connect / OAuth 2.0 client for native apps.

  include/telenorid.h                the API: its comments document every declaration
  lib/libtelenorid.so.$version       the library (SONAME libtelenorid.so.0), with the links
                                     libtelenorid.so.0 (for the loader) and libtelenorid.so (for the linker)
  lib/pkgconfig/telenorid.pc         for pkg-config; it finds its prefix from where it lies
  share/doc/telenorid/c-api.html     the C API reference, made from the header's comments
  CHANGELOG.md, LICENSE (Apache-2.0)

The library needs glibc 2.34 or later, libcurl (libcurl.so.4) and OpenSSL 3 (libcrypto.so.3): on Debian and
Ubuntu the packages libcurl4 and libssl3. Nothing else: no Swift runtime.

Build against it where it was unpacked:

  export PKG_CONFIG_PATH=\$PWD/$name/lib/pkgconfig
  cc app.c \$(pkg-config --cflags --libs telenorid) -Wl,-rpath,\$(pkg-config --variable=libdir telenorid)

(without the rpath, run the program with LD_LIBRARY_PATH=\$PWD/$name/lib). Or install it: copy include/ and
lib/ under a prefix such as /usr/local (cp -a keeps the links) and run ldconfig; telenorid.pc follows.
README
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$mtime" -C "$work" -czf "$stage/$name.tar.gz" "$name"
done

# The source tarball.
bash scripts/dist.sh
mv "dist/telenorid-$version.tar.gz" "$stage/"

"$PYTHON" scripts/check_release.py "$stage"

# The SBOM of every artifact, then the sums of everything.
mapfile -t artifacts < <(cd "$stage" && find . -type f \( -name '*.whl' -o -name '*.jar' -o -name '*.tar.gz' \) | sort)
(cd "$stage" && "$PYTHON" "$repo/scripts/sbom.py" --version "$version" --output "telenorid-$version.cdx.json" \
    "${artifacts[@]}")
(cd "$stage" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum > SHA256SUMS)

rm -rf dist
mv "$stage" dist
echo "release: dist/ holds telenorid $version: $(find dist -type f | wc -l) files, $(du -sh dist | cut -f1)"
(cd dist && find . -type f -printf '  %P  %s bytes\n' | LC_ALL=C sort)
