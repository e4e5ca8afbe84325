"""Load test: gunicorn with the production settings on 127.0.0.1, wrk at 50 connections for 60 s on each of
the card search API, a card page, a decklist page and deck validation (CONTRACTS §4). Zero errors expected.

    .venv/bin/python -m scripts.load.run                         # `make load`; SQLite under var/load/
    DATABASE_URL=postgres://... .venv/bin/python -m scripts.load.run --duration 60
    .venv/bin/python -m scripts.load.run --duration 10 search search-mix      # card search only, shorter
    .venv/bin/python -m scripts.load.run --duration 10 --rate 300 search-mix  # paced: 300 requests/s offered

Targets: `search` (one query, the headline target), `search-mix` (the ten typical queries of the cards benchmark,
round-robin, so the card API cache holds ten answers rather than one), `search-uncached` (the one query with
`&u=N` appended, a different N every request, so every answer is computed: the cost without the cache),
`card`, `decklist`, `validate`.

Two ways to load: closed loop (default; every connection sends its next request as soon as the answer came,
so the server is saturated and mean latency = connections / throughput), or paced (`--rate N`: the
connections together offer N requests/s on a fixed schedule, through wrk's Lua delay(); Debian has no wrk2).
In a paced run wrk times each request from the moment it is sent; a send that could not leave on schedule
(every connection still waiting for an answer) is counted as late, so "late 0" means the latencies are the
whole story, and achieved requests/s below the rate means the server did not keep up.

Needs Debian's wrk (`make load-deps`). Writes var/load/last.json and prints a Markdown table;
scripts/bench_load.py puts the tables in docs/performance.md. Errors counted: connection/read/write errors,
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
TARGETS = {"search": "card search API", "search-mix": "card search API, 10 queries",
           "search-uncached": "card search API, every request new", "card": "card page",
           "decklist": "decklist page", "validate": "deck validation API"}
ISSUE_TARGETS = ["search", "card", "decklist", "validate"]  # the four load targets the site is held to


def mix_paths() -> list[str]:
    """The ten typical searches of the cards benchmark (scripts/bench_cards.py), as API paths."""
    from scripts.bench_cards import QUERIES

    paths = []
    for q, sort, _what in QUERIES:
        path = f"/api/cards/?q={quote(q)}"
        paths.append(path + (f"&sort={sort}" if sort else ""))
    return paths


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


def _temp_file(text: str, suffix: str) -> str:
    f = tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False, encoding="utf-8")
    f.write(text)
    f.close()
    return f.name


def wrk(url: str, *, connections: int, duration: int, threads: int, body: str | None = None,
        paths: list[str] | None = None, rate: int | None = None, unique: bool = False) -> dict:
    wrk_bin = shutil.which("wrk")
    if wrk_bin is None:
        sys.exit("wrk is not installed: run `make load-deps` (Debian package wrk)")
    env = dict(os.environ, WRK_THREADS=str(threads))
    temp = []
    if body is not None:
        temp.append(_temp_file(body, ".json"))
        env["WRK_BODY_FILE"] = temp[-1]
    if paths:
        temp.append(_temp_file("\n".join(paths) + "\n", ".txt"))
        env["WRK_PATHS_FILE"] = temp[-1]
    if rate:
        env["WRK_RATE"] = str(rate)
    if unique:
        env["WRK_UNIQUE"] = "1"
    try:
        out = subprocess.run([wrk_bin, f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", "5s",
                              "-s", str(LUA), url], env=env, capture_output=True, text=True,
                             timeout=duration + 120)
    finally:
        for name in temp:
            os.unlink(name)
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


class Server:
    """The database prepared and gunicorn started once, for several wrk runs (`with Server(...) as s:`)."""

    def __init__(self, *, workers: int | None = None, gthreads: int | None = None, database_url: str | None = None):
        self.var_dir = ROOT / "var" / "load"
        self.var_dir.mkdir(parents=True, exist_ok=True)
        self.env = load_env(self.var_dir, database_url)
        self.database = "PostgreSQL" if (database_url or "").startswith("postgres") else "SQLite"
        self.workers, self.gthreads = workers, gthreads
        self.info = None
        self.gunicorn = None

    def __enter__(self) -> Server:
        self.info = prepare(self.env)
        self.gunicorn = Gunicorn(self.env, free_port(), self.workers, self.gthreads, self.var_dir / "gunicorn.log")
        try:
            self.gunicorn.wait_ready()
        except BaseException:
            self.gunicorn.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.gunicorn.stop()

    def settings(self) -> dict:
        """gunicorn's workers and threads as roc_site/gunicorn.conf.py resolves them for this run."""
        env = dict(self.gunicorn_env())
        code = ("import runpy, json; c = runpy.run_path('roc_site/gunicorn.conf.py'); "
                "print(json.dumps([c['workers'], c['threads']]))")
        out = subprocess.run([PY, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        workers, threads = json.loads(out.stdout)
        return {"gunicorn_workers": workers, "gunicorn_threads": threads}

    def gunicorn_env(self) -> dict:
        env = dict(self.env)
        if self.workers:
            env["GUNICORN_WORKERS"] = str(self.workers)
        if self.gthreads:
            env["GUNICORN_THREADS"] = str(self.gthreads)
        return env

    def load(self, name: str, *, duration: int, connections: int, threads: int, rate: int | None = None) -> dict:
        """One wrk run on one target; returns its figures."""
        info = self.info
        targets = {
            "search": (f"/api/cards/?q={quote(SEARCH_Q)}", None, None),
            "search-mix": (mix_paths()[0], None, mix_paths()),
            "search-uncached": (f"/api/cards/?q={quote(SEARCH_Q)}", None, None),
            "card": (info["card_page"], None, None),
            "decklist": (info["decklist_page"], None, None),
            "validate": ("/api/decks/validate/", json.dumps({"text": info["deck_text"]}), None),
        }
        path, body, paths = targets[name]
        for each in paths or [path]:
            status = check_answer(self.gunicorn.base, each, body)  # and warms this worker's caches
        load_before = os.getloadavg()[0]
        row = wrk(self.gunicorn.base + path, connections=connections, duration=duration, threads=threads, body=body,
                  paths=paths, rate=rate, unique=name == "search-uncached")
        row.update({"target": name, "what": TARGETS[name], "path": path, "paths": paths,
                    "method": "POST" if body else "GET", "first_status": status, "rate": rate,
                    "connections": connections, "duration_s": duration, "load_before": load_before,
                    "load_after": os.getloadavg()[0]})
        paced = f"  offered {rate}/s, late {row['late']}" if rate else ""
        print(f"{name:10} {row['rps']:8.0f} req/s  p50 {row['p50'] / 1000:6.1f} ms  p95 {row['p95'] / 1000:6.1f} ms"
              f"  p99 {row['p99'] / 1000:6.1f} ms  errors {row['errors']}{paced}  load {load_before:.1f}",
              flush=True)
        return row


def run(*, targets: list[str], duration: int, connections: int, threads: int, workers: int | None,
        gthreads: int | None, database_url: str | None, rate: int | None = None) -> dict:
    load_before = os.getloadavg()[0]
    with Server(workers=workers, gthreads=gthreads, database_url=database_url) as server:
        results = [server.load(name, duration=duration, connections=connections, threads=threads, rate=rate)
                   for name in targets]
        gunicorn = server.settings()
    report = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "duration_s": duration,
              "connections": connections, "wrk_threads": threads, **gunicorn, "database": server.database,
              "cpus": os.cpu_count(), "load_before": load_before, "results": results}
    (server.var_dir / "last.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    return report


def request_label(r: dict) -> str:
    if r.get("paths"):
        return f"`GET /api/cards/?q=...` × {len(r['paths'])}"
    if r["target"] == "search-uncached":
        return f"`{r['method']} {r['path'][:60]}&u=N`"
    return f"`{r['method']} {r['path'][:60]}`"


def markdown_table(report: dict) -> str:
    lines = ["| target | request | requests/s | p50 ms | p95 ms | p99 ms | max ms | requests | errors |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in report["results"]:
        lines.append(f"| {r['what']} | {request_label(r)} | {r['rps']:.0f} | {r['p50'] / 1000:.1f} | "
                     f"{r['p95'] / 1000:.1f} | {r['p99'] / 1000:.1f} | {r['max'] / 1000:.0f} | {r['requests']:,} | "
                     f"{r['errors']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", choices=[*TARGETS, []],
                        help=f"default: the four load targets ({', '.join(ISSUE_TARGETS)})")
    parser.add_argument("--duration", type=int, default=60)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: 2 x CPUs + 1)")
    parser.add_argument("--threads", type=int, default=None, help="gunicorn threads per worker (default 2)")
    parser.add_argument("--rate", type=int, default=None,
                        help="paced run: total requests/s the connections offer (default: closed loop)")
    args = parser.parse_args(argv)
    if args.rate is not None and args.rate < 1:
        parser.error("--rate must be at least 1 request/s")
    report = run(targets=args.targets or ISSUE_TARGETS, duration=args.duration, connections=args.connections,
                 threads=args.wrk_threads, workers=args.workers, gthreads=args.threads,
                 database_url=os.environ.get("DATABASE_URL"), rate=args.rate)
    print()
    print(markdown_table(report))
    return 1 if any(r["errors"] for r in report["results"]) else 0


if __name__ == "__main__":
    sys.exit(main())
