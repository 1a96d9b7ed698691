#!/usr/bin/env bash
# The header is the contract: the functions it declares and the symbols the .so exports are the same
# set; the library needs no Swift runtime at load time; its SONAME is the ABI's; the header compiles alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
so=out/lib/libtelenorid.so.0
fail=0
declared=$(grep -oE '\btelenorid_[a-z0-9_]+[[:space:]]*\(' include/telenorid.h | grep -v '^telenorid_auth_state_callback' | tr -d '( ' | sort -u)
# Function-pointer typedefs name a type, not a function.
declared=$(comm -23 <(echo "$declared") <(grep -oE '\(\*telenorid_[a-z0-9_]+\)' include/telenorid.h | tr -d '(*)' | sort -u))
exported=$(nm -D --defined-only "$so" | awk '{print $NF}' | grep -vE '^(_init|_fini|_edata|_end|__bss_start)$' | sort -u)
if [ "$declared" != "$exported" ]; then
    echo "check_symbols: header and exports differ:"; diff <(echo "$declared") <(echo "$exported") | head -20 || true; fail=1
else
    echo "check_symbols: $(echo "$exported" | wc -l) exported functions, exactly those declared in include/telenorid.h"
fi
if ldd "$so" | grep -q libswift; then echo "check_symbols: $so needs libswift* at load time"; fail=1; fi
soname=$(readelf -d "$so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libtelenorid.so.0" ] || { echo "check_symbols: SONAME is '$soname'"; fail=1; }
for compiler in gcc clang; do
    command -v $compiler >/dev/null || continue
    for std in "-x c -std=c99" "-x c++ -std=c++11"; do
        printf '#include "telenorid.h"\nint main(void){return 0;}\n' |
            $compiler $std -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only - ||
            { echo "check_symbols: header does not compile alone with $compiler $std"; fail=1; }
    done
done
# Size guard: Foundation or the regex engine (pulled in by String APIs such as contains("...")) would add
# megabytes to the library; the unstripped build still has the symbols to tell.
if [ -f .build/release/libtelenorid.so ] && nm .build/release/libtelenorid.so | grep -qE '_RegexParser|Foundation'; then
    echo "check_symbols: libtelenorid.so links Foundation or _RegexParser"; fail=1
fi
exit $fail
