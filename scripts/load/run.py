"""Load test: gunicorn with the production settings on 127.0.0.1, wrk at 50 connections for 60 s on each of
the card search API, a card page, a decklist page and deck validation (CONTRACTS §4). Zero errors expected.

    .venv/bin/python -m scripts.load.run                         # `make load`; SQLite under var/load/
    DATABASE_URL=postgres://... .venv/bin/python -m scripts.load.run --duration 60
    .venv/bin/python -m scripts.load.run --duration 10 --connections 20 search   # one scenario, shorter

Needs Debian's wrk (`make load-deps`). Writes var/load/last.json and prints a Markdown table;
scripts/bench_load.py puts that table in docs/performance.md. Errors counted: connection/read/write errors,
timeouts (> 5 s) and any answer that is not 2xx/3xx.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable
LUA = Path(__file__).with_name("report.lua")
SEARCH_Q = "f:camelot t:unit c<=3"
TARGETS = {"search": "card search API", "card": "card page", "decklist": "decklist page",
           "validate": "deck validation API"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_env(var_dir: Path, database_url: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "roc_site.settings.production", "SECRET_KEY": secrets.token_urlsafe(50),
        "SECURE_SSL_REDIRECT": "false", "ALLOWED_HOSTS": "127.0.0.1,localhost", "ROC_VAR_DIR": str(var_dir),
        "STATIC_ROOT": str(var_dir / "static"), "LOG_LEVEL": "ERROR", "PYTHONUNBUFFERED": "1",
        "DATABASE_URL": database_url or f"sqlite:///{var_dir / 'db.sqlite3'}",
    })
    return env


def prepare(env: dict) -> dict:
    done = subprocess.run([PY, "-m", "scripts.load.setup_data"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"preparing the database failed:\n{done.stderr[-3000:]}")
    static = subprocess.run([PY, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=600)
    if static.returncode != 0:
        sys.exit(f"collectstatic failed:\n{static.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


class Gunicorn:
    def __init__(self, env: dict, port: int, workers: int | None, threads: int | None, log: Path):
        env = dict(env, GUNICORN_BIND=f"127.0.0.1:{port}")
        if workers:
            env["GUNICORN_WORKERS"] = str(workers)
        if threads:
            env["GUNICORN_THREADS"] = str(threads)
        self.base = f"http://127.0.0.1:{port}"
        self.log = open(log, "w")
        self.proc = subprocess.Popen([str(Path(PY).with_name("gunicorn")), "roc_site.wsgi:application",
                                      "--config", "roc_site/gunicorn.conf.py"], cwd=ROOT, env=env,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}; see {self.log.name}")
            try:
                with urllib.request.urlopen(self.base + "/api/cards/?page_size=1", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError("gunicorn did not answer within a minute")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def wrk(url: str, *, connections: int, duration: int, threads: int, body: str | None = None) -> dict:
    wrk_bin = shutil.which("wrk")
    if wrk_bin is None:
        sys.exit("wrk is not installed: run `make load-deps` (Debian package wrk)")
    env = dict(os.environ)
    body_file = None
    if body is not None:
        body_file = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
        body_file.write(body)
        body_file.close()
        env["WRK_BODY_FILE"] = body_file.name
    try:
        out = subprocess.run([wrk_bin, f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
                              "-s", str(LUA), url], env=env, capture_output=True, text=True,
                             timeout=duration + 120)
    finally:
        if body_file is not None:
            os.unlink(body_file.name)
    line = next((ln for ln in out.stdout.splitlines() if ln.startswith("JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no summary:\n{out.stdout}\n{out.stderr}")
    data = json.loads(line[5:])
    data["errors"] = sum(data[k] for k in ("connect", "read", "write", "status", "timeout"))
    data["rps"] = data["requests"] / (data["duration_us"] / 1e6)
    return data


def check_answer(base: str, path: str, body: str | None) -> int:
    req = urllib.request.Request(base + path, data=body.encode() if body else None,
                                 headers={"Content-Type": "application/json"} if body else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.status


def run(*, targets: list[str], duration: int, connections: int, threads: int, workers: int | None,
        gthreads: int | None, database_url: str | None) -> dict:
    var_dir = ROOT / "var" / "load"
    var_dir.mkdir(parents=True, exist_ok=True)
    env = load_env(var_dir, database_url)
    info = prepare(env)
    paths = {
        "search": (f"/api/cards/?q={quote(SEARCH_Q)}", None),
        "card": (info["card_page"], None),
        "decklist": (info["decklist_page"], None),
        "validate": ("/api/decks/validate/", json.dumps({"text": info["deck_text"]})),
    }
    port = free_port()
    server = Gunicorn(env, port, workers, gthreads, var_dir / "gunicorn.log")
    results = []
    try:
        server.wait_ready()
        for name in targets:
            path, body = paths[name]
            status = check_answer(server.base, path, body)  # and warms this worker's caches
            row = wrk(server.base + path, connections=connections, duration=duration, threads=threads, body=body)
            row.update({"target": name, "what": TARGETS[name], "path": path, "method": "POST" if body else "GET",
                        "first_status": status})
            results.append(row)
            print(f"{name:9} {row['rps']:8.0f} req/s  p50 {row['p50'] / 1000:6.1f} ms  p95 {row['p95'] / 1000:6.1f} ms"
                  f"  p99 {row['p99'] / 1000:6.1f} ms  errors {row['errors']}", flush=True)
    finally:
        server.stop()
    report = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "duration_s": duration,
              "connections": connections, "wrk_threads": threads,
              "gunicorn_workers": workers or os.cpu_count() * 2 + 1, "gunicorn_threads": gthreads or 2,
              "database": "PostgreSQL" if (database_url or "").startswith("postgres") else "SQLite",
              "cpus": os.cpu_count(), "load_before": os.getloadavg()[0], "results": results}
    (var_dir / "last.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    return report


def markdown_table(report: dict) -> str:
    lines = ["| target | request | requests/s | p50 ms | p95 ms | p99 ms | max ms | requests | errors |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in report["results"]:
        lines.append(f"| {r['what']} | `{r['method']} {r['path'][:60]}` | {r['rps']:.0f} | {r['p50'] / 1000:.1f} | "
                     f"{r['p95'] / 1000:.1f} | {r['p99'] / 1000:.1f} | {r['max'] / 1000:.0f} | {r['requests']:,} | "
                     f"{r['errors']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", choices=[*TARGETS, []], help="default: all four")
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: 2 x CPUs + 1)")
    parser.add_argument("--threads", type=int, default=None, help="gunicorn threads per worker (default 2)")
    args = parser.parse_args(argv)
    report = run(targets=args.targets or list(TARGETS), duration=args.duration, connections=args.connections,
                 threads=args.wrk_threads, workers=args.workers, gthreads=args.threads,
                 database_url=os.environ.get("DATABASE_URL"))
    print()
    print(markdown_table(report))
    return 1 if any(r["errors"] for r in report["results"]) else 0


if __name__ == "__main__":
    sys.exit(main())
