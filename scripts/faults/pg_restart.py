"""Fault: restart PostgreSQL under load. The site must answer errors only while the database is down and
recover by itself (no restart of gunicorn): Django's persistent connections are health-checked
(CONN_HEALTH_CHECKS) so a connection broken by the restart is replaced at the next request.

    .venv/bin/python -m scripts.faults.pg_restart [--duration 40] [--restart-at 12] [--clients 8]

Starts a private PostgreSQL 15 cluster (initdb in a scratch directory, its own port, run as the `postgres`
user; the machine's own cluster is never touched), prepares it like the load test (scripts/load), runs
gunicorn with the production settings, and drives it with --clients threads in a loop (card search API, card
page, decklist page, deck validation) while `pg_ctl restart -m fast` runs at --restart-at seconds.
Prints a per-second table and a verdict; exits 1 if any error happened outside the outage (+2 s grace) or if the
site did not recover. The output is recorded in docs/reliability.md.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import defaultdict
from pathlib import Path

from scripts.load.run import SEARCH_Q, Gunicorn, free_port, load_env, prepare

ROOT = Path(__file__).resolve().parents[2]
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
GRACE_S = 2.0


def as_postgres(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    cmd = ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else list(args)
    return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)


class Cluster:
    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="roc-pg-"))
        self.port = free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"

    def init(self) -> None:
        as_postgres(str(PG_BIN / "initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres", "-E", "UTF8")
        self.ctl("start")
        as_postgres(str(PG_BIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                    "roc_faults")

    def ctl(self, action: str, *extra: str) -> float:
        started = time.monotonic()
        as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                    "-o", f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir}", *extra, action)
        return time.monotonic() - started

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/roc_faults"

    def destroy(self) -> None:
        as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


def drive(base: str, paths: list[tuple[str, bytes | None]], stop: threading.Event, log: list, t0: float,
          k: int) -> None:
    i = k
    while not stop.is_set():
        path, body = paths[i % len(paths)]
        i += 1
        req = urllib.request.Request(base + path, data=body,
                                     headers={"Content-Type": "application/json"} if body else {})
        started = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        except OSError as e:
            status = f"{e.__class__.__name__}"
        log.append((started - t0, time.monotonic() - started, path.split("?")[0], status))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=40)
    parser.add_argument("--restart-at", type=float, default=12)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args(argv)
    if not (PG_BIN / "initdb").exists():
        sys.exit(f"PostgreSQL binaries not found in {PG_BIN} (set PG_BIN)")
    cluster = Cluster()
    server = None
    try:
        cluster.init()
        var_dir = ROOT / "var" / "faults"
        var_dir.mkdir(parents=True, exist_ok=True)
        env = load_env(var_dir, cluster.url)
        info = prepare(env)
        paths = [(f"/api/cards/?q={urllib.request.quote(SEARCH_Q)}", None), (info["card_page"], None),
                 (info["decklist_page"], None),
                 ("/api/decks/validate/", json.dumps({"text": info["deck_text"]}).encode())]
        server = Gunicorn(env, free_port(), None, None, var_dir / "gunicorn.log")
        server.wait_ready()
        log: list = []
        stop = threading.Event()
        t0 = time.monotonic()
        threads = [threading.Thread(target=drive, args=(server.base, paths, stop, log, t0, k), daemon=True)
                   for k in range(args.clients)]
        for t in threads:
            t.start()
        time.sleep(args.restart_at)
        outage_start = time.monotonic() - t0
        restart_s = cluster.ctl("restart", "-m", "fast")
        outage_end = time.monotonic() - t0
        time.sleep(max(0.0, args.duration - outage_end))
        stop.set()
        for t in threads:
            t.join(timeout=15)
        gunicorn_pid_alive = server.proc.poll() is None
    finally:
        if server is not None:
            server.stop()
        cluster.destroy()

    per_second = defaultdict(lambda: [0, 0])
    for started, _, _, status in log:
        per_second[int(started)][0] += 1
        if status != 200:
            per_second[int(started)][1] += 1
    errors = [(s, p, st) for s, _, p, st in log if st != 200]
    outside = [e for e in errors if not (outage_start - 0.5 <= e[0] <= outage_end + GRACE_S)]
    after = [(s, st) for s, _, _, st in log if s > outage_end + GRACE_S]
    recovered = bool(after) and all(st == 200 for _, st in after)
    first_ok_after = min((s for s, _, _, st in log if s > outage_start and st == 200), default=None)
    kinds = defaultdict(int)
    for _, _, st in errors:
        kinds[str(st)] += 1

    print(f"PostgreSQL restart under load: {args.clients} clients for {args.duration:.0f} s, "
          f"`pg_ctl restart -m fast` at {outage_start:.1f} s (took {restart_s:.1f} s, database down "
          f"{outage_start:.1f}–{outage_end:.1f} s)")
    print()
    print("| second | requests | errors |")
    print("| ---: | ---: | ---: |")
    for sec in sorted(per_second):
        n, e = per_second[sec]
        mark = " ← restart" if int(outage_start) <= sec <= int(outage_end) else ""
        print(f"| {sec} | {n} | {e}{mark} |")
    print()
    print(f"Requests: {len(log):,}; errors: {len(errors)} ({', '.join(f'{k}: {v}' for k, v in kinds.items()) or 'none'})"
          f", of which outside the outage window (+{GRACE_S:.0f} s): {len(outside)}.")
    if first_ok_after is not None:
        print(f"First success after the restart began: {first_ok_after - outage_start:.2f} s after it began; "
              f"every request after {outage_end + GRACE_S:.1f} s succeeded: {recovered}; "
              f"gunicorn never restarted: {gunicorn_pid_alive}.")
    ok = not outside and recovered and gunicorn_pid_alive
    print("VERDICT:", "OK — errors bounded to the outage, recovered without a restart" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
