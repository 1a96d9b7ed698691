"""Benchmark, not a test: what `import telenorid` adds to a Python program's start, loading libtelenorid.so
(and its libcurl and OpenSSL) included: the best of N fresh `python3 -c "import telenorid"` runs minus the
best of N `python3 -c "pass"` runs, wall clock, the runs interleaved. Best-of, because outside load only
ever adds time. The package imports its modules on first use, so beside the bare import (the goal's row) it
also times what the first real call adds: a configuration made, the library loaded and checked (for scale).

The package's bytecode is compiled first (compileall, into its __pycache__), as pip does when it installs a
wheel: an installed package never compiles its modules at import. Without it, an environment that sets
PYTHONDONTWRITEBYTECODE (this one does) makes every fresh interpreter compile the package from source, and
the figure would be mostly the compiler's.

Usage: PYTHONPATH=bindings/python python3 bench/bench_import.py [runs]
"""
from __future__ import annotations

import compileall
import os
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
    import telenorid  # the package the timed interpreters import (PYTHONPATH), only located here

    package = os.path.dirname(telenorid.__file__)
    if not compileall.compile_dir(package, quiet=1):
        raise SystemExit(f"bench_import: could not compile {package}")
    bare = importing = using = float("inf")
    for _ in range(runs):
        bare = min(bare, run_ms("pass"))
        importing = min(importing, run_ms("import telenorid"))
        using = min(using, run_ms(FIRST_USE))
    print(f"import telenorid: {importing - bare:.1f} ms beyond a bare interpreter's {bare:.1f} ms; with a first "
          f"Config (the library loaded): {using - bare:.1f} ms (best of {runs} fresh interpreters each, wall clock)")
    record("py_import", importing - bare, bare)
    record("py_import_first_use", using - bare, bare)


FIRST_USE = ("import telenorid; telenorid.Config.from_settings(issuer='https://id.example.com', client_id='c', "
             "redirect_uri='com.example.app:/cb').close()")


if __name__ == "__main__":
    main()
