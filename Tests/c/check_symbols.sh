#!/usr/bin/env bash
# The header is the contract (libcurl's tests 1119/1175 keep header, symbols and docs in sync the same way):
#  - the functions include/telenorid.h declares and the functions libtelenorid.so exports are the same set;
#  - the library needs no libswift* at load time and every library it needs is found;
#  - its SONAME is the ABI's, libtelenorid.so.0;
#  - the header compiles alone as C99 and C++11 with -Wall -Wextra -Werror -pedantic (gcc, clang);
#  - every status code (TELENORID_OK, TELENORID_E_*) has a distinct value and a distinct name of its own
#    from telenorid_status_str(), not the "unknown" one.
# Prints one line per check and exits non-zero when any fails. Works from any directory.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
header=${TELENORID_HEADER:-include/telenorid.h}  # overridable to test this script itself
so=${1:-out/lib/libtelenorid.so.0}
work=out/tests/check_symbols
mkdir -p "$work"
failures=0
pass() { echo "check_symbols: ok    $*"; }
fail() { echo "check_symbols: FAIL  $*"; failures=$((failures + 1)); }

[ -f "$so" ] || { fail "$so does not exist (run make build)"; exit 1; }

# Declared functions, two independent ways that must agree:
#  1. the compiler's own list of prototypes (gcc -aux-info), so comments, macros and line breaks can't fool it;
#     the list goes to a file of its own, never /dev/stdout: gcc deletes its -aux-info output when the header
#     does not compile, and run as root that deleted /dev/stdout itself (seen on the build machine);
#  2. a regex over the preprocessed header (comments and #defines gone, lines joined): a name followed by
#     "(" is a function declaration; "(*name)(" is a function-pointer type and doesn't match.
aux_info=$(mktemp)
gcc -x c -std=c99 -fsyntax-only -aux-info "$aux_info" "$header" 2>/dev/null || true
declared_aux=$(grep -oE '\btelenorid_[a-z0-9_]+ \(' "$aux_info" | tr -d ' (' | sort)
rm -f "$aux_info"
declared_re=$(gcc -x c -std=c99 -E -P "$header" | tr '\n' ' ' |
    grep -oE '\btelenorid_[a-z0-9_]+[[:space:]]*\(' | tr -d ' \t(' | sort)
if [ -z "$declared_aux" ] || [ "$declared_aux" != "$declared_re" ]; then
    fail "the two ways of listing the header's functions disagree:"
    diff <(echo "$declared_aux") <(echo "$declared_re") | head -20
fi
duplicates=$(echo "$declared_re" | uniq -d)
[ -z "$duplicates" ] || fail "declared more than once: $duplicates"
declared=$(echo "$declared_re" | sort -u)

# Exported: defined dynamic symbols, minus the linker's own.
exported_all=$(nm -D --defined-only "$so" | awk 'NF >= 3 {print $2, $3}' |
    grep -vE ' (_init|_fini|_edata|_end|__bss_start)$')
exported=$(echo "$exported_all" | awk '{print $2}' | sort -u)
if [ "$declared" = "$exported" ]; then
    pass "$(echo "$exported" | wc -l) exported functions, exactly those declared in $header"
else
    fail "header and exports differ (< declared only, > exported only):"
    diff <(echo "$declared") <(echo "$exported") | grep '^[<>]' | head -40
fi
# The old names (the header's "Old names (aliases until 1.0)" block) are the same functions as their new
# names: each old type's line there names its new type, and telenorid_<old>_<verb> must be exported at the
# address of telenorid_<new>_<verb>, so a binary linked against 0.4 calls exactly what the new name does.
addresses=$(nm -D --defined-only "$so" | awk 'NF >= 3 {print $3, $1}' | sort)
old_block=$(sed -n '/Old names (aliases until 1.0)/,$p' "$header")
old_functions=$(echo "$old_block" | tr '\n' ' ' | grep -oE '\btelenorid_[a-z0-9_]+[[:space:]]*\(' | tr -d ' (' | sort -u)
aliases=0
while read -r old new; do
    for name in $(echo "$old_functions" | grep -E "^${old}_"); do
        aliases=$((aliases + 1))
        at_old=$(echo "$addresses" | awk -v n="$name" '$1 == n {print $2}')
        at_new=$(echo "$addresses" | awk -v n="${new}${name#"$old"}" '$1 == n {print $2}')
        [ -n "$at_old" ] && [ "$at_old" = "$at_new" ] || fail "$name is not at the address of ${new}${name#"$old"}"
    done
done < <(echo "$old_block" | sed -nE 's/^typedef struct (telenorid_[a-z0-9_]+) \1;[[:space:]]*\/\* = (telenorid_[a-z0-9_]+) \*\/$/\1 \2/p')
unmatched=$(echo "$old_functions" | wc -l)
[ "$aliases" = "$unmatched" ] || fail "$((unmatched - aliases)) old functions without an old type's prefix"
[ "$aliases" -gt 0 ] && pass "$aliases old names, each at the address of its new name" ||
    fail "no old names found in $header's \"Old names (aliases until 1.0)\" block"
not_functions=$(echo "$exported_all" | awk '$1 != "T" && $1 != "i"' | head -5)
[ -z "$not_functions" ] && pass "every export is a function" || fail "exports that are not functions: $not_functions"

# Load-time dependencies.
deps=$(ldd "$so" 2>&1)
if echo "$deps" | grep -q 'libswift'; then
    fail "$so needs libswift* at load time:"; echo "$deps" | grep libswift
else
    pass "ldd lists no libswift*"
fi
if echo "$deps" | grep -q 'not found'; then fail "unresolved dependencies: $(echo "$deps" | grep 'not found')"; fi
# The Embedded build needs nothing beyond the C library, libcrypto and libcurl (no libstdc++, no runtime of
# Swift's, no libm: a library less for every dlopen to map, which libcurl does not load), and exports nothing
# of the runtime it carries (swift_retain...): the export check above sees only telenorid_*.
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
[ "$needed" = "libc.so.6 libcrypto.so.3 libcurl.so.4 " ] && pass "needs only libc, libcrypto, libcurl" ||
    fail "needs $needed"
# The glibc floor the wheel may promise (manylinux_2_35 at the most): no symbol version above GLIBC_2.35 (glibc 2.36's
# arc4random_buf, which the embedded standard library calls, is the library's own: Sources/EmbeddedSupport).
newest=$(objdump -T "$so" | grep -oE 'GLIBC_[0-9]+\.[0-9]+' | sort -u -V | tail -1)
if [ -n "$newest" ] && [ "$(printf '%s\nGLIBC_2.35\n' "$newest" | sort -V | tail -1)" = "GLIBC_2.35" ]; then
    pass "newest glibc symbol version $newest (floor GLIBC_2.35)"
else
    fail "needs $newest, above the manylinux_2_35 floor"
fi

soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libtelenorid.so.0" ] && pass "SONAME is libtelenorid.so.0" || fail "SONAME is '$soname', not libtelenorid.so.0"

# The header alone, as the first and only include.
compiled=""
for compiler in gcc g++ clang clang++; do
    command -v "$compiler" >/dev/null || continue
    case $compiler in
        *++) lang=(-x c++ -std=c++11) ;;
        *) lang=(-x c -std=c99 -Wstrict-prototypes) ;;
    esac
    if printf '#include "%s"\nint main(void) { return telenorid_version() == 0; }\n' "$(basename "$header")" |
        "$compiler" "${lang[@]}" -Wall -Wextra -Werror -pedantic -I"$(dirname "$header")" -fsyntax-only -; then
        compiled="$compiled $compiler(${lang[*]:1:1})"
    else
        fail "the header does not compile alone with $compiler ${lang[*]}"
    fi
done
[ -n "$compiled" ] && pass "the header compiles alone with -Wall -Wextra -Werror -pedantic:$compiled"

# Status codes: parse every TELENORID_OK / TELENORID_E_* from the header, then ask the library for names.
codes=$(sed -nE 's/^#define[[:space:]]+(TELENORID_OK|TELENORID_E_[A-Z0-9_]+)[[:space:]]+(-?[0-9]+).*/\1 \2/p' "$header")
count=$(echo "$codes" | grep -c .)
values=$(echo "$codes" | awk '{print $2}' | sort -n)
if [ "$(echo "$values" | uniq -d)" != "" ]; then fail "status codes share a value: $(echo "$values" | uniq -d | tr '\n' ' ')"; fi
if [ "$values" != "$(seq 0 $((count - 1)))" ]; then fail "status codes are not 0..$((count - 1)) without gaps"; fi
{
    echo '#include <stdio.h>'
    echo "#include \"$(basename "$header")\""
    echo 'int main(void) {'
    echo "$codes" | awk '{printf "    printf(\"%s\\t%%s\\n\", telenorid_status_str(%s));\n", $1, $1}'
    echo "    printf(\"UNKNOWN\\t%s\\n\", telenorid_status_str($count));"
    echo '    printf("UNKNOWN\t%s\n", telenorid_status_str(-1));'
    echo '    return 0;'
    echo '}'
} > "$work/status_names.c"
if gcc -std=c99 -Wall -Wextra -Werror -pedantic -I"$(dirname "$header")" "$work/status_names.c" -L"$(dirname "$so")" -ltelenorid \
        -Wl,-rpath,"$PWD/$(dirname "$so")" -o "$work/status_names" && names=$("$work/status_names"); then
    unknown=$(echo "$names" | awk -F'\t' '$1 == "UNKNOWN" {print $2}' | sort -u)
    [ "$(echo "$unknown" | grep -c .)" = 1 ] || fail "unknown codes get different names: $unknown"
    known=$(echo "$names" | awk -F'\t' '$1 != "UNKNOWN"')
    same=$(echo "$known" | awk -F'\t' -v u="$unknown" '$2 == u || $2 == "" {print $1}')
    [ -z "$same" ] || fail "status codes without a name of their own: $same"
    shared=$(echo "$known" | cut -f2 | sort | uniq -d)
    [ -z "$shared" ] || fail "status names used twice: $shared"
    [ -z "$same$shared" ] && pass "$count status codes, 0..$((count - 1)), each with its own name (unknown: \"$unknown\")"
else
    fail "could not build or run the status name check"
fi


if [ "$failures" -ne 0 ]; then echo "check_symbols: $failures check(s) failed"; exit 1; fi
echo "check_symbols: all checks passed"
