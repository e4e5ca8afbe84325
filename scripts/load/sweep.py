"""gunicorn settings for the card search load: the closed-loop card search runs of scripts/load/run.py (50
connections, `search` and `search-mix`) under several worker/thread settings, interleaved (every setting once,
then again) so that a noisy minute on this shared machine does not land on one setting only. Writes
var/load/sweep.json; scripts/bench_load.py puts its table under "Load test" in docs/performance.md.

    .venv/bin/python -m scripts.load.sweep                                   # the default settings below
    .venv/bin/python -m scripts.load.sweep --settings 3x2,5x2,3x1sync --runs 3 --duration 10
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT = "2x2,3x2,3x4,4x2,4x4,5x2,5x4,3x1sync,5x1sync"
OUT = ROOT / "var" / "load" / "sweep.json"


def parse_setting(text: str) -> tuple[int, int, str]:
    """'5x2' -> (5, 2, 'gthread'); '3x1sync' -> (3, 1, 'sync')."""
    cls = "sync" if text.endswith("sync") else "gthread"
    workers, _, threads = text.removesuffix("sync").partition("x")
    if not (workers.isdigit() and threads.isdigit() and int(workers) > 0 and int(threads) > 0):
        raise argparse.ArgumentTypeError(f'setting "{text}" is not WORKERSxTHREADS[sync], e.g. 5x2 or 3x1sync')
    return int(workers), int(threads), cls


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--settings", default=DEFAULT, help=f"comma-separated WORKERSxTHREADS[sync] (default {DEFAULT})")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--targets", default="search,search-mix")
    args = parser.parse_args(argv)
    try:
        settings = [parse_setting(s.strip()) for s in args.settings.split(",") if s.strip()]
    except argparse.ArgumentTypeError as exc:
        parser.error(str(exc))
    from scripts.load.run import TARGETS, Server

    targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    for t in targets:
        if t not in TARGETS:
            parser.error(f'unknown target "{t}"; targets are {", ".join(TARGETS)}')
    runs: dict[str, list[dict]] = {}
    load_before = os.getloadavg()[0]
    started = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    class_before = os.environ.get("GUNICORN_WORKER_CLASS")
    try:
        for _ in range(args.runs):
            for workers, threads, cls in settings:
                os.environ["GUNICORN_WORKER_CLASS"] = cls
                with Server(workers=workers, gthreads=threads) as server:
                    for target in targets:
                        row = server.load(target, duration=args.duration, connections=50, threads=2)
                        runs.setdefault(f"{workers}x{threads}{'sync' if cls == 'sync' else ''}|{target}", []).append(row)
    finally:
        if class_before is None:
            os.environ.pop("GUNICORN_WORKER_CLASS", None)
        else:
            os.environ["GUNICORN_WORKER_CLASS"] = class_before
    rows = []
    for key, found in runs.items():
        setting, target = key.split("|")
        rows.append({"setting": setting, "target": target, "runs": len(found),
                     "rps": statistics.median(r["rps"] for r in found),
                     "p50": statistics.median(r["p50"] for r in found),
                     "p95": statistics.median(r["p95"] for r in found),
                     "p95_min": min(r["p95"] for r in found), "p95_max": max(r["p95"] for r in found),
                     "p99": statistics.median(r["p99"] for r in found),
                     "errors": sum(r["errors"] for r in found)})
    report = {"started": started, "when": time.strftime("%H:%M UTC", time.gmtime()), "duration_s": args.duration,
              "runs": args.runs, "load_before": load_before, "load_after": os.getloadavg()[0],
              "command": "python -m scripts.load.sweep" + (f" --settings {args.settings}" if args.settings != DEFAULT
                                                           else "")
              + (f" --runs {args.runs}" if args.runs != 3 else "") + (
                  f" --duration {args.duration}" if args.duration != 10 else ""),
              "rows": rows}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(markdown(report))
    return 0


def markdown(report: dict) -> str:
    lines = [
        "### gunicorn settings (card search, closed loop)\n",
        f"`.venv/bin/{report['command']}` — each setting's own gunicorn, 50 "
        f"connections, {report['duration_s']} s per run, {report['runs']} runs per setting interleaved; medians over "
        f"the runs (p95: median, then the lowest and highest run). `WxT` = W gthread workers of T threads; "
        f"`sync` = W sync workers (one request per connection). Run "
        f"{(report['started'] + '–') if report.get('started') else 'at '}{report['when']}, load average "
        f"{report['load_before']:.1f} before, {report['load_after']:.1f} after."
        + (f" {report['note']}" if report.get("note") else "") + "\n",
        "| setting | target | requests/s | p50 ms | p95 ms | p99 ms | errors |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in sorted(report["rows"], key=lambda r: (r["target"], r["setting"])):
        lines.append(f"| {r['setting']} | {r['target']} | {r['rps']:.0f} | {r['p50'] / 1000:.1f} | "
                     f"{r['p95'] / 1000:.1f} ({r['p95_min'] / 1000:.1f}–{r['p95_max'] / 1000:.1f}) | "
                     f"{r['p99'] / 1000:.1f} | {r['errors']} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
