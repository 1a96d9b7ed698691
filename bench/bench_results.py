"""Where the Python benchmarks leave their figures for bench/report.py, which prints the one table of goals:
a JSON line per row appended to the file named by $BENCH_RESULTS (nothing when it is unset, so a benchmark
still runs on its own)."""
from __future__ import annotations

import json
import os
from typing import Optional


def record(row: str, telenorid: float, reference: Optional[float] = None) -> None:
    path = os.environ.get("BENCH_RESULTS")
    if path:
        with open(path, "a") as results:
            results.write(json.dumps({"row": row, "telenorid": telenorid, "reference": reference}) + "\n")
