"""Prints the one table of the benchmark goals from the figures the benchmarks recorded (bench_results.h,
bench_results.py): for every row the library's figure, the reference's, the ratio the goal is about, the
goal and whether it is met. A row no benchmark recorded says so rather than passing.

Usage: python3 bench/report.py <results file>
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Callable, Dict, NamedTuple, Optional

# The size budget's one home is the Makefile (SIZE_BUDGET, which `make build` enforces); the goal row is
# issue 36's, tighter.
SIZE_BUDGET = int(re.search(r"^SIZE_BUDGET := (\d+)$", (Path(__file__).parent.parent / "Makefile").read_text(),
                            re.M).group(1))


class Goal(NamedTuple):
    operation: str
    unit: str
    goal: str
    # The ratio shown ("" when the goal is absolute) and whether the goal is met, from (telenorid, reference);
    # None for a row shown for scale beside the row its goal is measured on.
    ratio: Callable[[float, Optional[float]], str]
    met: Optional[Callable[[float, Optional[float]], bool]]


def slower(t: float, r: Optional[float]) -> str:
    return f"{t / r:.2f}x time" if r else ""


def faster(t: float, r: Optional[float]) -> str:
    return f"{r / t:.2f}x speed" if r else ""


def none(t: float, r: Optional[float]) -> str:
    return ""


def beyond(t: float, r: Optional[float]) -> str:
    return f"+{t - r:,.0f} B" if r is not None else ""


# The goals of issue 36 ("Speed II"), each against a floor measured in the same run; rows without a goal
# (met None) are shown for scale beside the row the goal is measured on.
GOALS: Dict[str, Goal] = {
    "c_pkce": Goal("PKCE pair from C, handle API (43-char verifier)", "µs", "(scale: one-call row below)", slower, None),
    "c_pkce_generate": Goal("PKCE pair from C, one call, vs C floor", "µs", "≤ 1.3x C floor", slower,
                            lambda t, r: t <= 1.3 * r),
    "c_url": Goal("authorization URL from C vs C floor (same sizes)", "µs", "≤ 1.3x C floor", slower,
                  lambda t, r: t <= 1.3 * r),
    "c_callback": Goal("callback parse + state check from C (constant-time)", "µs", "≤ 1 µs", slower,
                       lambda t, r: t <= 1),
    "py_pkce": Goal("PKCE pair through Python, Pkce object", "µs", "(scale: one-call row below)", faster, None),
    "py_pkce_generate": Goal("PKCE pair through Python, pkce.generate", "µs", "≥ 25x Authlib", faster,
                             lambda t, r: r >= 25 * t),
    "py_url": Goal("authorization URL through Python", "µs", "≥ 30x Authlib", faster, lambda t, r: r >= 30 * t),
    "py_cb": Goal("callback through Python (Authlib for scale)", "µs", "≤ 3 µs", faster, lambda t, r: t <= 3),
    "c_id_token": Goal("ID token RS256, 2-key JWKS, from C vs OpenSSL verify", "µs", "≤ 1.1x OpenSSL verify + 1 µs",
                       slower, lambda t, r: t <= 1.1 * r + 1),
    "py_id_token_joserfc": Goal("ID token through Python vs joserfc", "µs", "(scale: ceiling below)", faster, None),
    "py_id_token_authlib": Goal("ID token through Python vs Authlib parse_id_token", "µs", "(scale: ceiling below)",
                                faster, None),
    "c_refresh": Goal("refresh, client+server CPU, from C vs libcurl", "µs", "≥ 0.7x libcurl", faster,
                      lambda t, r: r >= 0.7 * t),
    "py_refresh": Goal("refresh, client+server CPU, Python vs pycurl+json", "µs", "(scale: row below)", faster,
                       None),
    "py_refresh_above_libcurl": Goal("refresh through Python, CPU above its own libcurl", "µs",
                                     "≥ 1.3x less than pycurl+json", faster, lambda t, r: r >= 1.3 * t),
    "py_import": Goal("Python import telenorid, beyond a bare start", "ms", "≤ 12 ms", none, lambda t, r: t <= 12),
    "py_import_first_use": Goal("Python import telenorid + a first Config (library loaded)", "ms",
                                "(scale: what first use adds)", none, None),
    "memory_client": Goal("client after one refresh vs a libcurl easy handle", "bytes", "≤ 1 KiB beyond libcurl",
                          beyond, lambda t, r: t - r <= 1024),
    "memory_auth_state": Goal("auth state with ID token and claims", "bytes", "≤ 2 KiB (2,048)", none,
                              lambda t, r: t <= 2048),
    "dlopen": Goal("dlopen, fresh process, vs libcurl.so.4 alone", "ms", "≤ 1.05x libcurl", slower,
                   lambda t, r: t <= 1.05 * r),
    "library_size": Goal("stripped library", "bytes", "≤ 1.3 MB (1,300,000)", none, lambda t, r: t <= 1_300_000),
}


def figure(value: Optional[float], unit: str) -> str:
    if value is None:
        return "—"
    if unit == "bytes":
        return f"{value:,.0f} B"
    return f"{value:.3f} {unit}" if value < 10 else f"{value:.1f} {unit}"


def main() -> None:
    results: Dict[str, dict] = {}
    with open(sys.argv[1]) as lines:
        for line in lines:
            result = json.loads(line)
            results[result["row"]] = result
    header = ("operation", "telenorid", "floor / reference", "ratio", "goal", "met?")
    rows = [header]
    goals = passed = 0
    for key, goal in GOALS.items():
        result = results.get(key)
        if result is None:
            rows.append((goal.operation, "not measured", "", "", goal.goal, "MISS" if goal.met else ""))
            if goal.met is not None:
                goals += 1
            continue
        ours, theirs = result["telenorid"], result.get("reference")
        met = None if goal.met is None else goal.met(ours, theirs)
        goals += met is not None
        passed += met is True
        rows.append((goal.operation, figure(ours, goal.unit), figure(theirs, goal.unit), goal.ratio(ours, theirs),
                     goal.goal, "" if met is None else "PASS" if met else "MISS"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for index, row in enumerate(rows):
        print("| " + " | ".join(cell.ljust(width) for cell, width in zip(row, widths)) + " |")
        if index == 0:
            print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    print("(time rows: best round, thread CPU time; refresh rows: this process's plus the server's CPU per round trip;"
          " \"x time\": telenorid's time / the reference's, \"x speed\": the reference's time / telenorid's)")
    print(f"(stripped library: `make build` refuses one over SIZE_BUDGET, {SIZE_BUDGET:,} bytes; the goal is tighter)")
    print_id_token_ceiling(results)
    print(f"{passed} of {goals} goals PASS")


def print_id_token_ceiling(results: Dict[str, dict]) -> None:
    """The most any client that checks the signature could reach on the Python ID token rows: the
    reference's time over the cheapest RS256 signature check OpenSSL does (bench_id_token.c's floor: a
    SHA-256 and EVP_PKEY_verify with a kept context, this run), since that is part of every validation."""
    verify = (results.get("rsa_verify_floor") or {}).get("telenorid")
    if not verify:
        return
    ceilings = []
    for key, name in (("py_id_token_joserfc", "joserfc"), ("py_id_token_authlib", "Authlib")):
        reference = (results.get(key) or {}).get("reference")
        if reference:
            ceilings.append(f"{reference / verify:.2f}x {name}")
    if ceilings:
        print(f"(ceiling of the Python ID token rows: the RS256 signature check alone takes {verify:.1f} µs here"
              f" (SHA-256 + EVP_PKEY_verify, context kept), so a client that checks the signature can be at most"
              f" {' and '.join(ceilings)})")


if __name__ == "__main__":
    main()
