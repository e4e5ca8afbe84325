"""Benchmark of the Heroes and Regions engine (simulator/engines/regions): two-player games per CPU-second with the
shipped baseline strategies, and machine instructions per game under valgrind's callgrind.

    python -m scripts.bench_regions            # measure and print the Markdown section
    python -m scripts.bench_regions --write    # ... and write it as the regions section of docs/performance.md
    python -m scripts.bench_regions --ir-only  # just the instruction counts (quick, deterministic)

`make bench` (scripts/bench.py) also runs it. Needs no database: the set and the strategies are read from the
repository. The target is 1,000 two-player games per CPU-second with the baseline bots.
"""
from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 7
GAMES = 500            # 20 x every ordered pair of the 5 shipped strategies
IR_GAMES = 100
TARGET = 1000
MARK = "<!-- bench:regions -->"


def _pairs():
    sys.path.insert(0, str(ROOT))
    from simulator.engines.regions import shipped_strategies

    ss = shipped_strategies()
    names = sorted(ss)
    return ss, [(ss[a], ss[b]) for a in names for b in names]


def play_many(n: int, offset: int = 0) -> int:
    """Play n games over every ordered pair of shipped strategies; returns the turns played."""
    from simulator.engines.regions import play_game

    _, pairs = _pairs()
    turns = 0
    for i in range(n):
        a, b = pairs[i % len(pairs)]
        turns += play_game([a, b], seed=offset + i, first_player=i % 2).turns
    return turns


def measure() -> dict:
    from simulator.engines.regions import ENGINE_BUILD, ENGINE_VERSION

    _pairs()
    play_many(50, offset=10_000)    # warm-up (strategy parsing, the set's card table)
    runs = []
    turns = 0
    for _ in range(RUNS):
        c0, w0 = time.process_time(), time.perf_counter()
        turns = play_many(GAMES)
        c1, w1 = time.process_time(), time.perf_counter()
        runs.append((GAMES / (c1 - c0), GAMES / (w1 - w0)))
    return {"version": ENGINE_VERSION, "build": ENGINE_BUILD, "load": os.getloadavg()[0], "games": GAMES,
            "turns": turns / GAMES,
            "cpu": statistics.median(r[0] for r in runs), "cpu_min": min(r[0] for r in runs),
            "cpu_max": max(r[0] for r in runs), "wall": statistics.median(r[1] for r in runs)}


_IR_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[2])
from scripts.bench_regions import play_many
play_many(20, offset=10_000)      # the same warm-up as the timed runs
play_many(int(sys.argv[1]))
"""


def _env(pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "ROC_REGIONS_PURE"}
    if pure:
        env["ROC_REGIONS_PURE"] = "1"
    return env


def measure_in(pure: bool) -> dict:
    """`measure()` in a process of its own, on the compiled build or the plain-Python modules."""
    import json

    out = subprocess.run([sys.executable, "-c", "import json; from scripts.bench_regions import measure; "
                          "print(json.dumps(measure()))"], cwd=ROOT, env=_env(pure), capture_output=True,
                         text=True, check=True, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def instructions(n: int = IR_GAMES, *, pure: bool = False) -> float | None:
    """Machine instructions per game (callgrind's count with n games minus the count with none): the same number
    on every run whatever else the machine is doing. None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_IR_SCRIPT)

    def count(k: int) -> int:
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                              f.name, str(k), str(ROOT)], capture_output=True, text=True, timeout=3600,
                             env=_env(pure))
        m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
        if not m:
            raise RuntimeError(out.stderr[-2000:])
        return int(m.group(1))

    try:
        return (count(n) - count(0)) / n
    finally:
        os.unlink(f.name)


def main() -> str:
    from simulator.engines.regions.buildinfo import COMPILED_MODULES, is_compiled, source_hash, stamp

    compiled = all(is_compiled(m) for m in COMPILED_MODULES) and stamp() == source_hash()
    rows = []
    irs = []
    for pure in ((False, True) if compiled else (True,)):
        m = measure_in(pure)
        ir = instructions(pure=pure)
        label = "plain Python (ROC_REGIONS_PURE=1)" if pure else "compiled with mypyc (`make regions-engine`)"
        rows.append((label, m, ir))
    first = rows[0][1]
    table = "".join(
        f"| {label} | {m['games']} | {m['turns']:.2f} | {m['cpu']:.0f} | {m['cpu_min']:.0f}–{m['cpu_max']:.0f} | "
        f"{m['wall']:.0f} | {ir / 1e6:.2f} M |\n" if ir else
        f"| {label} | {m['games']} | {m['turns']:.2f} | {m['cpu']:.0f} | {m['cpu_min']:.0f}–{m['cpu_max']:.0f} | "
        f"{m['wall']:.0f} | – |\n"
        for label, m, ir in rows)
    best = max(m["cpu"] for _, m, _ in rows)
    met = "meets" if best >= TARGET else "misses"
    return (
        "## Heroes and Regions engine (simulator/engines/regions)\n\n"
        "`python -m scripts.bench_regions --write` — complete two-player games on one core, engine "
        f"{first['version']}: {first['games']} games per run over every ordered pair of the five shipped strategies "
        "(simulator/engines/regions/strategies/, each playing its own Hero), seeds 0.."
        f"{first['games'] - 1}, Priority alternating; the median of {RUNS} runs after a warm-up, each build in a "
        f"process of its own; machine load average {first['load']:.1f} when it started (2 cores, shared, so "
        "CPU-seconds swing with other people's jobs). Instructions per game: valgrind callgrind, deterministic — "
        f"the count for the first {IR_GAMES} games of a run minus the count for none, after the same warm-up.\n\n"
        "| build | games per run | mean turns | games/s (CPU), median | range over runs | games/s (wall) | "
        "instructions per game |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        + table + "\n"
        + f"Target: {TARGET:,} two-player games per CPU-second with the baseline bots; the best build "
        f"{met} it. Both builds play identical games (tests/simulator/engines/regions/test_native_build.py).\n"
    )


def write_section(section: str) -> None:
    """Replace (or append, at the end) this benchmark's section of docs/performance.md, leaving the rest alone."""
    out = ROOT / "docs" / "performance.md"
    text = out.read_text(encoding="utf-8") if out.exists() else "# Performance\n"
    block = f"{MARK}\n{section.rstrip()}\n"
    if MARK in text:
        before, after = text.split(MARK, 1)
        nxt = after.find("<!-- bench:")
        text = before + block + ("\n" + after[nxt:] if nxt >= 0 else "")
    else:
        text = text.rstrip() + "\n\n" + block
    out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if "--ir-only" in sys.argv:
        ir = instructions()
        print(f"{ir / 1e6:.3f} M instructions per game" if ir else "valgrind is not installed")
    else:
        section = main()
        print(section)
        if "--write" in sys.argv:
            write_section(section)
