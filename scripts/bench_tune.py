"""Timing a card-swap search on 1 and 2 Celery workers: wall time, the workers' CPU time, the games
spent, and the machine's load average (the figures in docs/performance.md, "Tuning").

    DATABASE_URL=... CELERY_BROKER_URL=redis://... python -m scripts.bench_tune [--deck FILE] [--target T]
        [--workers 1 2] [--repeat N]

Needs a migrated database with the core set loaded. Each run is a fresh run (`tune --queue` never reuses a
stored result), so every repeat plays every game. The JSON of every run is compared: it must be identical.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and all its descendants so far (from /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        todo += [int(c) for c in children]
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deck", default=str(ROOT / "cards/data/starters/camelot.txt"))
    parser.add_argument("--target", default="goldfish")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    results = []
    for n in args.workers:
        worker = subprocess.Popen([PY, "-m", "celery", "-A", "roc_site", "worker", "--concurrency", str(n),
                                   "-l", "warning"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        try:
            time.sleep(8)  # start-up (outside the timing)
            for _ in range(args.repeat):
                cpu0, load0 = cpu_seconds(worker.pid), os.getloadavg()[0]
                t0 = time.perf_counter()
                out = subprocess.run([PY, "manage.py", "tune", args.deck, "--target", args.target, "--queue",
                                      "--json"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
                wall = time.perf_counter() - t0
                report = json.loads(out)
                row = {"workers": n, "wall_s": round(wall, 2), "worker_cpu_s": round(cpu_seconds(worker.pid) - cpu0, 2),
                       "games": report["games_spent"], "load": round((load0 + os.getloadavg()[0]) / 2, 1),
                       "best": report["best"]["label"] if report["best"] else None, "candidates": report["candidates"],
                       "rounds": [[r["candidates"], r["games"]] for r in report["rounds"]]}
                row["_json"] = {k: v for k, v in report.items() if k != "elapsed_s"}
                results.append(row)
                print(json.dumps({k: v for k, v in row.items() if k != "_json"}), flush=True)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=60)
    same = all(r["_json"] == results[0]["_json"] for r in results)
    print(json.dumps({"identical_json": same}))


if __name__ == "__main__":
    main()
