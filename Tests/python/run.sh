#!/usr/bin/env bash
# The Python binding's tests against the library in out/lib; then again under valgrind (memcheck) with
# CPython's own allocator off, so every error in libtelenorid reached through ctypes is reported.
# Extra arguments go to the first pytest run (e.g. `Tests/python/run.sh -k smoke`); SKIP_VALGRIND=1 skips
# the second pass. `mypy --strict` runs on the package first. Exits non-zero when any test fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The Python of `make setup`'s .venv when there is one (the Makefile exports it as PYTHON), else python3.
PYTHON="${PYTHON:-$([ -x .venv/bin/python ] && echo "$PWD/.venv/bin/python" || echo python3)}"
"$PYTHON" -c "import pytest" 2>/dev/null || "$PYTHON" -m pip install -q pytest
export PYTHONPATH=bindings/python
# This checkout's library, whatever else the loader could find first (an installed libtelenorid.so.0).
export TELENORID_LIBRARY="${TELENORID_LIBRARY:-$PWD/out/lib/libtelenorid.so.0}"
# The package ships py.typed: its annotations are checked, strictly, before its behaviour.
"$PYTHON" -c "import mypy" 2>/dev/null || "$PYTHON" -m pip install -q mypy
(cd bindings/python && "$PYTHON" -m mypy --strict --no-error-summary telenorid) && echo "mypy --strict: ok"
"$PYTHON" -m pytest -q -p no:cacheprovider Tests/python "$@"
if [ "${SKIP_VALGRIND:-0}" != 1 ] && command -v valgrind >/dev/null; then
    # The real interpreter, not a launcher script (pyenv shim) that valgrind would stop at.
    python=$("$PYTHON" -c "import sys; print(sys.executable)")
    # The binding and fault tests: every library path the integration test takes, without waiting on a
    # real provider at valgrind's pace; and the thread tests, where a handle freed under a call in flight
    # would show as an invalid read. Timeouts are stretched, and the stalled-server test (which waits
    # them out) and the 10,000-cycle memory test (RSS under valgrind means nothing) skipped.
    echo "== Python tests under valgrind"
    TELENORID_TEST_TIMEOUT_MS=30000 PYTHONMALLOC=malloc valgrind -q --error-exitcode=1 \
        --suppressions=Tests/python/valgrind-python.supp --leak-check=no \
        "$python" -m pytest -q -p no:cacheprovider Tests/python/test_smoke.py Tests/python/test_faults.py Tests/python/test_dpop_faults.py \
        Tests/python/test_threads.py \
        -k "not 10000 and not stall"
fi
