"""Benchmark, not a test: what `import telenorid` adds to a Python program's start, loading libtelenorid.so
(and its libcurl and OpenSSL) included: the best of N fresh `python3 -c "import telenorid"` runs minus the
best of N `python3 -c "pass"` runs, wall clock, the two interleaved run by run. Best-of, because outside
load only ever adds time.

Usage: PYTHONPATH=bindings/python python3 bench/bench_import.py [runs]
"""
from __future__ import annotations

import subprocess
import sys
import time

from bench_results import record


def run_ms(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    bare = importing = float("inf")
    for _ in range(runs):
        bare = min(bare, run_ms("pass"))
        importing = min(importing, run_ms("import telenorid"))
    print(f"import telenorid: {importing - bare:.1f} ms beyond a bare interpreter's {bare:.1f} ms "
          f"(best of {runs} fresh interpreters each, wall clock)")
    record("py_import", importing - bare, bare)


if __name__ == "__main__":
    main()
