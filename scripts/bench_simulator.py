"""Simulator benchmarks: exact hand probabilities, 100,000 hands with exact setups, goldfish games
through the queue with 1 and 2 worker processes, and a worker's memory through a long run.

The deck is the core set's Camelot starter (cards/data/starters/camelot.txt). Queue runs use a scratch SQLite
database and var/ folder under /tmp (never the site's), real `celery -A roc_site worker` processes, and each
broker in turn: the embedded filesystem transport (the default) and Redis when one answers on 127.0.0.1:6379.

How a queued run is timed: a submitter process (this module's `submit`, with Django already set up, as a web
process would be) notes the time, builds the run from the decklist text, stores and dispatches it, and polls
the database every 20 ms until the run is done: wall-clock from submission to the finished result. "Warm" runs
are sent to workers that are already up and idle; the "cold" figure starts the clock when the worker process is
launched (its start-up included). The machine's load average is noted before each measurement, and the
workers' CPU time (main process and pool, from /proc) shows what the queue path costs beyond the games.

    .venv/bin/python -m scripts.bench simulator      # rewrites this section of docs/performance.md
    BENCH_SIM_MEMORY_GAMES=40000 .venv/bin/python -m scripts.bench simulator   # a shorter memory run
"""
from __future__ import annotations

import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
CORE = ROOT / "cards" / "data" / "core.json"
DECK = ROOT / "cards" / "data" / "starters" / "camelot.txt"
EXACT_RUNS = 25
HANDS = 100_000
HAND_RUNS = 3
QUEUE_GAMES = 10_000
QUEUE_RUNS = 3
MEMORY_GAMES = int(os.environ.get("BENCH_SIM_MEMORY_GAMES", "1000000"))
POLL_S = 0.02


def _draw():
    from cards.cardfile import parse_card_file
    from decks.decklist import parse_decklist
    from decks.pool import CardPool

    pool = CardPool.from_cards(parse_card_file(CORE.read_text(encoding="utf-8")).cards)
    counts = parse_decklist(DECK.read_text(encoding="utf-8"), pool).counts
    entries = [(pool.get(code), n) for code, n in counts.items()]
    faction = next(c["faction"] for c, _ in entries if c["type"] == "faction")
    draw = [(c, n) for c, n in entries if c["type"] in ("unit", "location", "attachment", "deed")]
    return draw, faction


def bench_exact(draw) -> tuple[float, int]:
    from simulator.hands import card_targets, exact_rows, query_target

    deck_size = sum(n for _, n in draw)
    times = []
    for _ in range(EXACT_RUNS):
        started = time.perf_counter()
        targets = card_targets(draw) + [query_target(draw, "units costing 2 or less", lambda c: c["type"] == "unit"
                                                     and isinstance(c.get("cost"), int) and c["cost"] <= 2, k=2)]
        rows = exact_rows(targets, deck_size, rounds=10)
        times.append(time.perf_counter() - started)
    return statistics.median(times), len(rows)


def bench_hands(draw, faction) -> dict:
    from simulator.engines.r1.setup import SetupSolver
    from simulator.hands import HandsDeck, MulliganPolicy, hands_chunk

    cards = [c for c, _ in draw]
    pile = [i for i, (_, n) in enumerate(draw) for _ in range(n)]
    solver_wall, solver_cpu, chunk_wall, chunk_cpu, distinct = [], [], [], [], []
    for run in range(HAND_RUNS):
        rng = random.Random(run)
        hands = [rng.sample(pile, 7) for _ in range(HANDS)]
        solver = SetupSolver(cards, faction)  # fresh caches: every distinct hand is solved from scratch
        wall, cpu = time.perf_counter(), time.process_time()
        for hand in hands:
            solver.best(hand)
        solver_wall.append(time.perf_counter() - wall)
        solver_cpu.append(time.process_time() - cpu)
        distinct.append(solver.cache_size())
        deck = HandsDeck.build(draw, faction)
        wall, cpu = time.perf_counter(), time.process_time()
        hands_chunk(deck, HANDS, random.Random(run), MulliganPolicy())
        chunk_wall.append(time.perf_counter() - wall)
        chunk_cpu.append(time.process_time() - cpu)
    return {"solver_wall": statistics.median(solver_wall), "solver_cpu": statistics.median(solver_cpu),
            "chunk_wall": statistics.median(chunk_wall), "chunk_cpu": statistics.median(chunk_cpu),
            "distinct": int(statistics.median(distinct))}


# ---- queue ----------------------------------------------------------------------------------------------
def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5):
            return True
    except OSError:
        return False


def _env(tmp: Path, broker: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DATABASE_URL", "DJANGO_"))}
    env.update({"DJANGO_SETTINGS_MODULE": "roc_site.settings.dev", "ROC_VAR_DIR": str(tmp / "var"),
                "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "CELERY_BROKER_URL": broker})
    return env


def _manage(env, *args, timeout=900):
    done = subprocess.run([PY, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {done.stderr[-2000:]}")
    return done.stdout


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of a process and its live children."""
    total = 0
    for p in [pid] + _children(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


class _Worker:
    def __init__(self, env, concurrency):
        self.launched = time.perf_counter()
        self.proc = subprocess.Popen(
            [PY, "-m", "celery", "-A", "roc_site", "worker", f"--concurrency={concurrency}", "--loglevel=WARNING",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"bench{concurrency}@%h"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def wait_idle(self, concurrency):
        """Until the pool processes are up and the worker has stopped using CPU (start-up finished)."""
        deadline = time.monotonic() + 60
        while len(_children(self.proc.pid)) < concurrency and time.monotonic() < deadline:
            time.sleep(0.1)
        before = _cpu_s(self.proc.pid)
        while time.monotonic() < deadline:
            time.sleep(0.5)
            now = _cpu_s(self.proc.pid)
            if now - before < 0.05:
                return
            before = now

    def stop(self):
        import signal

        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


class _Submitter:
    """A process with Django set up on the scratch database, waiting for runs to submit (see `submit`)."""

    def __init__(self, env):
        self.proc = subprocess.Popen([PY, "-m", "scripts.bench_simulator", "submit"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout.readline().strip() == "ready"

    def run(self, games: int, seed: int, watch: int | None = None, sample_s: float = 2.0) -> dict:
        self.proc.stdin.write(json.dumps({"games": games, "seed": seed, "watch": watch, "sample_s": sample_s}) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the submitter died")
        out = json.loads(line)
        if out.get("error"):
            raise RuntimeError(out["error"])
        return out

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def submit_loop() -> None:
    """`python -m scripts.bench_simulator submit`: read {"games", "seed", "watch", "sample_s"} lines, answer
    each with the timings of one queued goldfish run of the Camelot starter."""
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from simulator import services
    from simulator.deckinput import build_spec
    from simulator.models import RunStatus, SimulationRun

    text = DECK.read_text(encoding="utf-8")
    print("ready", flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        samples = []
        next_sample = 0.0
        started = time.perf_counter()
        spec = build_spec(mode="goldfish", text=text, games=ask["games"], seed=ask["seed"], deck_name=DECK.name)
        run = services.run_from_spec(spec)
        services.run_dispatch(run)
        while True:
            status, done, total = SimulationRun.objects.filter(pk=run.pk).values_list(
                "status", "chunks_done", "chunks_total").get()
            now = time.perf_counter()
            if ask.get("watch") and now >= next_sample:
                next_sample = now + ask["sample_s"]
                pids = [ask["watch"]] + _children(ask["watch"])
                samples.append({"t": round(now - started, 2), "done": done / max(total, 1),
                                "rss_kb": [_rss_kb(p) for p in pids]})
            if status in (RunStatus.DONE, RunStatus.FAILED):
                break
            time.sleep(POLL_S)
        wall = time.perf_counter() - started
        run.refresh_from_db()
        compute = sum(run.chunks.values_list("elapsed_s", flat=True))
        print(json.dumps({"wall_s": wall, "elapsed_s": run.elapsed_s, "status": run.status, "error": run.error,
                          "chunks": run.chunks_total, "chunk_compute_s": compute, "samples": samples}), flush=True)


def bench_in_process() -> dict:
    """The same 10,000 games in this process, chunk by chunk as a worker runs them: the pure compute."""
    from cards.cardfile import parse_card_file
    from decks.pool import CardPool
    from simulator import runner
    from simulator.deckinput import build_spec

    pool = CardPool.from_cards(parse_card_file(CORE.read_text(encoding="utf-8")).cards)
    spec = build_spec(mode="goldfish", text=DECK.read_text(encoding="utf-8"), games=QUEUE_GAMES, seed=1, pool=pool)
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    runner.run_in_process(spec)
    return {"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "load": load}


def _queue_broker(broker: str) -> dict:
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="roc-bench-sim-") as tmp:
        env = _env(Path(tmp), broker)
        if broker.startswith("redis://"):
            env["CELERY_BROKER_URL"] = broker
        _manage(env, "migrate", "--noinput", "-v0")
        _manage(env, "loadcards", str(CORE))
        submitter = _Submitter(env)
        try:
            for workers in (1, 2):
                worker = _Worker(env, workers)
                try:
                    worker.wait_idle(workers)
                    runs = []
                    for run in range(QUEUE_RUNS):
                        load = os.getloadavg()[0]
                        cpu = _cpu_s(worker.proc.pid)
                        got = submitter.run(QUEUE_GAMES, seed=100 * workers + run)
                        got["worker_cpu_s"] = _cpu_s(worker.proc.pid) - cpu
                        got["load"] = load
                        runs.append(got)
                    out[workers] = runs
                finally:
                    worker.stop()
            # Cold: the clock starts when the worker process is launched.
            load = os.getloadavg()[0]
            worker = _Worker(env, 2)
            try:
                got = submitter.run(QUEUE_GAMES, seed=300)
                got["cold_s"] = time.perf_counter() - worker.launched
                got["load"] = load
                out["cold"] = got
            finally:
                worker.stop()
        finally:
            submitter.close()
    return out


def bench_queue() -> dict:
    brokers = ["filesystem://"] + (["redis://127.0.0.1:6379/15"] if _redis_up() else [])
    return {b.split(":")[0]: _queue_broker(b) for b in brokers}


def bench_memory() -> dict:
    with tempfile.TemporaryDirectory(prefix="roc-bench-sim-") as tmp:
        env = _env(Path(tmp), "filesystem://")
        _manage(env, "migrate", "--noinput", "-v0")
        _manage(env, "loadcards", str(CORE))
        submitter = _Submitter(env)
        worker = _Worker(env, 2)
        try:
            worker.wait_idle(2)
            idle = [_rss_kb(p) for p in [worker.proc.pid] + _children(worker.proc.pid)]
            load = os.getloadavg()[0]
            got = submitter.run(MEMORY_GAMES, seed=7, watch=worker.proc.pid, sample_s=2.0)
            got["idle_kb"] = idle
            got["load"] = load
            got["load_end"] = os.getloadavg()[0]
        finally:
            worker.stop()
            submitter.close()
    return got


def _median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def _queue_lines(name: str, q: dict, in_process: dict) -> list[str]:
    lines = []
    for workers in (1, 2):
        runs = q[workers]
        walls = ", ".join(f"{r['wall_s']:.1f}" for r in runs)
        loads = ", ".join(f"{r['load']:.1f}" for r in runs)
        cores = statistics.median(r["worker_cpu_s"] / r["wall_s"] for r in runs)
        lines.append(
            f"| {name}, {workers} worker process{'es' if workers > 1 else ''}, warm | {_median(runs, 'wall_s'):.1f} s "
            f"({walls}) | {_median(runs, 'worker_cpu_s'):.1f} s ({cores:.2f}) | {_median(runs, 'chunk_compute_s'):.1f} s | "
            f"{loads} | {'< 10 s' if workers == 2 else ''} |")
    cold = q["cold"]
    lines.append(f"| {name}, 2 worker processes, cold: from launching the worker to the result, 1 run "
                 f"| {cold['cold_s']:.1f} s | | {cold['chunk_compute_s']:.1f} s | {cold['load']:.1f} | |")
    return lines


def _memory_lines(m: dict) -> list[str]:
    samples = m["samples"]
    by_step = []
    for step in range(0, 11):
        want = step / 10
        s = min(samples, key=lambda x: abs(x["done"] - want))
        by_step.append(s)
    rows = ["| progress | " + " | ".join(f"{s['done']:.0%}" for s in by_step) + " |",
            "| --- |" + " --- |" * len(by_step),
            "| main process RSS (MB) | " + " | ".join(f"{s['rss_kb'][0] / 1024:.0f}" for s in by_step) + " |",
            "| largest pool process RSS (MB) | " + " | ".join(
                f"{max(s['rss_kb'][1:] or [0]) / 1024:.0f}" for s in by_step) + " |"]
    peak_main = max(s["rss_kb"][0] for s in samples)
    peak_child = max(max(s["rss_kb"][1:] or [0]) for s in samples)
    quarter = max(1, len(samples) // 4)
    first = max(max(s["rss_kb"][1:] or [0]) for s in samples[:quarter])
    last = max(max(s["rss_kb"][1:] or [0]) for s in samples[-quarter:])
    return [
        f"Worker memory through one {MEMORY_GAMES:,}-game goldfish run (filesystem broker, 2 worker processes, "
        f"{m['chunks']} chunks, {m['wall_s']:.0f} s, load average {m['load']:.1f} at the start and "
        f"{m['load_end']:.1f} at the end; RSS from /proc every 2 s, {len(samples)} samples). Idle before the run: "
        f"main {m['idle_kb'][0] / 1024:.0f} MB, pool {' / '.join(f'{k / 1024:.0f}' for k in m['idle_kb'][1:])} MB. "
        f"Peak: main process {peak_main / 1024:.0f} MB, pool process {peak_child / 1024:.0f} MB (target < 300 MB); "
        f"largest pool process in the first quarter of the run {first / 1024:.0f} MB, in the last quarter "
        f"{last / 1024:.0f} MB.",
        "",
        *rows,
    ]


def main() -> str:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.dev")
    import django

    django.setup()
    from simulator.engines.r1 import ENGINE_VERSION

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "?"
    draw, faction = _draw()
    exact_s, rows = bench_exact(draw)
    hands = bench_hands(draw, faction)
    in_process = bench_in_process()
    queue = bench_queue()
    memory = bench_memory()
    lines = [
        "## Simulator",
        "",
        "`.venv/bin/python -m scripts.bench simulator` — the core set's Camelot starter "
        f"({sum(n for _, n in draw)} draw cards), engine {ENGINE_VERSION} at commit {commit}, on this shared "
        "2-core machine (wall-clock figures include other people's load; CPU figures are this process only).",
        "",
        "| what | median | target |",
        "| --- | --- | --- |",
        f"| exact probabilities, whole deck ({rows} rows × opening, mulligan, 10 rounds), {EXACT_RUNS} runs "
        f"| {exact_s * 1000:.1f} ms | < 50 ms |",
        f"| {HANDS:,} hands, exact best setup of each (fresh solver, {hands['distinct']:,} distinct hands solved), "
        f"{HAND_RUNS} runs | {hands['solver_cpu']:.2f} s CPU ({hands['solver_wall']:.2f} s wall) | < 5 s, one core |",
        f"| {HANDS:,}-hand report chunk (setup + mulligan policy re-solve + histograms), {HAND_RUNS} runs "
        f"| {hands['chunk_cpu']:.2f} s CPU ({hands['chunk_wall']:.2f} s wall) | |",
        "",
        f"### {QUEUE_GAMES:,} goldfish games through the queue",
        "",
        f"In-process, one core, chunk by chunk as a worker runs them (the games alone): "
        f"{in_process['cpu']:.1f} s CPU, {in_process['wall']:.1f} s wall (load average {in_process['load']:.1f}). "
        f"Through the queue, wall-clock from submission to the finished result, {QUEUE_RUNS} runs each:",
        "",
        "| broker, workers | median (each run) | worker CPU (cores used) | chunks' wall time, summed | load average before each | target |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, q in queue.items():
        lines += _queue_lines(name, q, in_process)
    lines += [
        "",
        "Worker CPU is the worker's main process and pool (from /proc) during the run; cores used = worker CPU ÷ "
        "wall-clock. The games themselves are the in-process CPU above, so worker CPU beyond it is the queue path's "
        "own cost (task handling, the chunk's database writes). A chunk's wall time summed over the run exceeds "
        "the worker CPU when the pool processes were ready to run but other processes had the cores.",
        "",
        "Scaling from 1 to 2 worker processes (ratio of the warm medians; target ≥ 1.8×): " + ", ".join(
            f"{name} **{_median(q[1], 'wall_s') / _median(q[2], 'wall_s'):.2f}×**" for name, q in queue.items())
        + ". The work is CPU-bound, so two processes can only go twice as fast if they get both cores: the figure "
        "is the ratio of the cores used (column above) times the ratio of CPU per game, and on this shared machine "
        "the first factor is set by the other jobs running at the time (the load average column; these "
        "benchmarks run at nice 10, below everyone else).",
        ""]
    lines += _memory_lines(memory)
    lines.append("")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:2] == ["submit"]:
        submit_loop()
    else:
        print(main())
