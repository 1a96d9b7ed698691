#!/usr/bin/env bash
# The C tests: header/export checks, the API tests linked (plain, under valgrind, under ASan/UBSan), and
# the dlopen test.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=out/tests
mkdir -p "$out"
cflags=(-std=c99 -Wall -Wextra -Werror -pedantic -Iinclude)
link=(-Lout/lib -ltelenorid -lpthread -Wl,-rpath,"$PWD/out/lib")
bash Tests/c/check_symbols.sh
gcc "${cflags[@]}" Tests/c/test_api.c "${link[@]}" -o "$out/test_api"
gcc "${cflags[@]}" -g -fsanitize=address,undefined -fno-omit-frame-pointer Tests/c/test_api.c "${link[@]}" -o "$out/test_api_asan"
# POSIX allows converting dlsym's result to a function pointer; ISO C (and so -pedantic) does not.
gcc -std=gnu99 -Wall -Wextra -Werror -Iinclude Tests/c/test_dlopen.c -ldl -o "$out/test_dlopen"
echo "== test_api"; "$out/test_api"
echo "== test_api under ASan/UBSan"; ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 "$out/test_api_asan"
if command -v valgrind >/dev/null; then
    echo "== test_api under valgrind"
    valgrind --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=1 -q "$out/test_api"
fi
echo "== test_dlopen"; "$out/test_dlopen" "$PWD/out/lib/libtelenorid.so.0"
