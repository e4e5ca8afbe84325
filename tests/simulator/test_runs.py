"""Runs as data: specs from decklists, limits, deduplication, chunk redelivery, in-process = stored-and-merged."""
import pytest
from kombu.exceptions import OperationalError

from simulator import runner, services
from simulator.deckinput import build_spec
from simulator.models import RunStatus, SimulationChunk, SimulationRun
from simulator.runner import SpecError


def strip_elapsed(result):
    return {k: v for k, v in result.items() if k != "elapsed_s"}


@pytest.fixture
def inline_queue(monkeypatch):
    """The queue runs each run at once in this process, through the same store/merge path as the workers."""
    from simulator import tasks

    def apply_async(args, **kwargs):
        services.run_execute_here(SimulationRun.objects.get(pk=args[0]))

    monkeypatch.setattr(tasks.start_run, "apply_async", apply_async)


@pytest.fixture
def broker_down(monkeypatch):
    from simulator import tasks

    def apply_async(args, **kwargs):
        raise OperationalError("[Errno 111] Connection refused")

    monkeypatch.setattr(tasks.start_run, "apply_async", apply_async)


def test_spec_reads_the_deck_and_records_legality(sim_pool, camelot_text):
    spec = build_spec(mode="hands", text=camelot_text, games=100, seed=3, pool=sim_pool)
    assert spec["deck"]["faction"] == "camelot" and spec["deck"]["legal"] is True
    assert sum(n for c, n in spec["deck"]["entries"] if c["type"] == "quest") == 7
    assert spec["settings"] == {"mulligan": {"kind": "min_units", "value": 2}, "rounds": 5, "setup_refill": 3,
                                "targets": []}


def test_an_illegal_deck_can_still_be_simulated_and_says_so(sim_pool, camelot_text):
    text = camelot_text.replace("3x Squire", "5x Squire")
    spec = build_spec(mode="hands", text=text, games=50, pool=sim_pool)
    assert spec["deck"]["legal"] is False
    assert any("Squire" in p for p in spec["deck"]["problems"])
    result = runner.run_in_process(spec)
    assert result["deck"]["legal"] is False and result["setup"]["samples"] == 50


@pytest.mark.parametrize("edit, message", [
    (lambda t: "\n".join(line for line in t.splitlines() if "Quest" not in line), "no quests"),
    (lambda t: "1x Court of Camelot\n1x Quest of the Grail\n", "draw deck is empty"),
    (lambda t: t.replace("1x Court of Camelot", ""), "exactly one faction card"),
    (lambda t: t + "\n3x Gawian\n", "unknown card 'Gawian'"),
    (lambda t: "", "empty"),
])
def test_a_deck_that_cannot_play_is_refused_with_the_reason(sim_pool, camelot_text, edit, message):
    with pytest.raises(SpecError, match=message):
        build_spec(mode="hands", text=edit(camelot_text), pool=sim_pool)


@pytest.mark.parametrize("kwargs, message", [
    ({"mode": "poker"}, "Unknown mode 'poker'"),
    ({"mode": "hands", "games": 0}, "games must be from 1"),
    ({"mode": "hands", "games": -5}, "games must be from 1"),
    ({"mode": "hands", "games": "many"}, "games must be a whole number"),
    ({"mode": "hands", "seed": -1}, "seed must be from 0"),
    ({"mode": "versus"}, "needs an opponent"),
    ({"mode": "hands", "settings": {"rounds": 99}}, "rounds must be from 1 to 20"),
    ({"mode": "hands", "settings": {"colour": "red"}}, "Unknown setting"),
    ({"mode": "hands", "settings": {"targets": [{"query": "t:unit c<=2 zz:1"}]}}, "targets\\[0\\].query"),
])
def test_bad_requests_name_what_is_wrong(sim_pool, camelot_text, kwargs, message):
    with pytest.raises(SpecError, match=message):
        build_spec(text=camelot_text, pool=sim_pool, **kwargs)


def test_query_targets_count_every_matching_card(sim_pool, camelot_text):
    spec = build_spec(mode="hands", text=camelot_text, games=10, pool=sim_pool,
                      settings={"targets": [{"query": "t:unit c<=2", "k": 2}, {"codes": ["sim-c-gawain"]}]})
    query, codes = spec["settings"]["targets"]
    # Squire, Longbow Archer, Wandering Monk, Court Spy, Sellsword, Frost Wolf: 6 names x 3 copies.
    assert (query["copies"], query["k"], query["kind"]) == (18, 2, "query")
    assert codes["copies"] == 3
    result = runner.run_in_process(spec)
    rows = {r["name"]: r for r in result["cards"]}
    assert rows["t:unit c<=2"]["p_opening"] == pytest.approx(
        sum(__import__("math").comb(18, i) * __import__("math").comb(42, 7 - i) for i in range(2, 8))
        / __import__("math").comb(60, 7))


def test_same_request_same_numbers_and_a_new_seed_changes_them(sim_pool, camelot_text):
    spec = build_spec(mode="hands", text=camelot_text, games=300, seed=5, pool=sim_pool)
    one, two = runner.run_in_process(spec), runner.run_in_process(spec)
    assert strip_elapsed(one) == strip_elapsed(two)
    other = runner.run_in_process(build_spec(mode="hands", text=camelot_text, games=300, seed=6, pool=sim_pool))
    assert other["setup"] != one["setup"]


@pytest.mark.django_db
def test_stored_chunks_merge_to_the_in_process_result(sim_db, camelot_text, inline_queue):
    run, created = services.run_request(mode="hands", text=camelot_text, games=5_000, seed=9)
    assert created and run.chunks_total == 3
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.progress == 1.0
    assert SimulationChunk.objects.filter(run=run).count() == 3
    in_process = runner.run_in_process(run.spec)
    assert strip_elapsed(run.result) == strip_elapsed(in_process)


@pytest.mark.django_db
def test_goldfish_and_versus_chunks_merge_exactly(sim_db, camelot_text, winter_text, inline_queue, fake_engine):
    run, _ = services.run_request(mode="goldfish", text=camelot_text, games=450, seed=4)
    run.refresh_from_db()
    assert run.status == RunStatus.DONE and run.chunks_total == 3
    assert strip_elapsed(run.result) == strip_elapsed(runner.run_in_process(run.spec))
    assert run.result["games"] == 450 and run.result["unsupported_cards"] == ["Ambush"]
    vs, _ = services.run_request(mode="versus", text=camelot_text, opponent_text=winter_text, games=300, seed=4)
    vs.refresh_from_db()
    result = vs.result
    assert result["wins"] + result["losses"] + result["draws"] == 300
    assert result["sample_log"]["lines"] == ["R1 Quest: embark"]
    assert strip_elapsed(result) == strip_elapsed(runner.run_in_process(vs.spec))


@pytest.mark.django_db
def test_a_redelivered_chunk_changes_nothing(sim_db, camelot_text):
    run, _ = services.run_request(mode="hands", text=camelot_text, games=3_000, seed=2, dispatch=False)
    assert services.chunk_store(run.pk, 0) is True
    first = SimulationChunk.objects.get(run=run, index=0).result
    assert services.chunk_store(run.pk, 0) is False  # acks_late redelivery: the stored row wins
    assert SimulationChunk.objects.filter(run=run).count() == 1
    assert SimulationChunk.objects.get(run=run, index=0).result == first
    run.refresh_from_db()
    assert run.chunks_done == 1 and 0 < run.progress < 1
    services.chunk_store(run.pk, 1)
    finished = services.run_finish(run.pk)
    assert finished.status == RunStatus.DONE
    assert strip_elapsed(finished.result) == strip_elapsed(runner.run_in_process(run.spec))
    assert services.run_finish(run.pk).result == finished.result  # finishing twice is harmless


@pytest.mark.django_db
def test_identical_request_is_answered_from_the_stored_run(sim_db, camelot_text, inline_queue):
    first, created = services.run_request(mode="hands", text=camelot_text, games=100, seed=1)
    again, created_again = services.run_request(mode="hands", text=camelot_text + "\n# a comment\n", games=100,
                                                seed=1)
    assert created and not created_again and again.pk == first.pk
    different, created3 = services.run_request(mode="hands", text=camelot_text, games=100, seed=2)
    assert created3 and different.pk != first.pk


@pytest.mark.django_db
def test_limits_games_per_run_and_runs_in_flight(sim_db, camelot_text, django_user_model):
    with pytest.raises(services.LimitExceeded, match="at most 10,000 games per run for goldfish"):
        services.run_request(mode="goldfish", text=camelot_text, games=10_001, session_key="s:abc")
    user = django_user_model.objects.create_user("sim", password="x")
    services.run_request(mode="hands", text=camelot_text, games=100, seed=1, user=user, dispatch=False)
    services.run_request(mode="hands", text=camelot_text, games=100, seed=2, user=user, dispatch=False)
    services.run_request(mode="hands", text=camelot_text, games=100, seed=3, user=user, dispatch=False)
    with pytest.raises(services.LimitExceeded, match="at most 3 simulation"):
        services.run_request(mode="hands", text=camelot_text, games=100, seed=4, user=user, dispatch=False)
    services.run_request(mode="hands", text=camelot_text, games=100, seed=11, session_key="s:anon", dispatch=False)
    with pytest.raises(services.LimitExceeded, match="at most 1 simulation"):
        services.run_request(mode="hands", text=camelot_text, games=100, seed=9, session_key="s:anon",
                             dispatch=False)


@pytest.mark.django_db
def test_broker_down_keeps_the_run_and_a_retry_resumes_it(sim_db, camelot_text, broker_down, monkeypatch):
    with pytest.raises(services.BrokerUnavailable, match="nothing is lost") as info:
        services.run_request(mode="hands", text=camelot_text, games=100, seed=1)
    run = SimulationRun.objects.get(pk=info.value.run.pk)
    assert run.status == RunStatus.PENDING and "could not be reached" in run.error
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kw: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))
    again, created = services.run_request(mode="hands", text=camelot_text, games=100, seed=1)
    assert again.pk == run.pk and not created
    again.refresh_from_db()
    assert again.status == RunStatus.DONE and again.error == ""


@pytest.mark.django_db
def test_a_failing_chunk_marks_the_run_failed_with_the_reason(sim_db, camelot_text, monkeypatch):
    from simulator import tasks

    run, _ = services.run_request(mode="hands", text=camelot_text, games=100, seed=1, dispatch=False)

    def boom(spec, index):
        raise MemoryError("worker ran out of memory")

    monkeypatch.setattr(runner, "run_chunk", boom)
    with pytest.raises(MemoryError):
        tasks.run_chunk(run.pk, 0)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "out of memory" in run.error


@pytest.mark.parametrize("mode, games", [("goldfish", 450), ("versus", 450), ("hands", 5000)])
def test_prepared_decks_are_rebuilt_after_their_budget_and_the_numbers_do_not_change(sim_pool, camelot_text,
                                                                                   winter_text, monkeypatch,
                                                                                   mode, games):
    """A worker rebuilds a prepared deck (and so drops its solver cache) after PREPARED_USES games or hands, so
    its memory does not grow with the games it plays; the results are the same with or without rebuilding."""
    spec = build_spec(mode=mode, text=camelot_text, opponent_text=winter_text if mode == "versus" else None,
                      games=games, seed=5, pool=sim_pool)
    runner._prepared.clear()
    kept = runner.run_in_process(spec)
    built = []
    real = runner._cached

    def counting(key, build, uses, budget):
        return real(key, lambda: built.append(key) or build(), uses, budget)

    monkeypatch.setattr(runner, "_cached", counting)
    monkeypatch.setattr(runner, "PREPARED_USES", {"hands": 1_000, "engine": 100})
    runner._prepared.clear()
    rebuilt = runner.run_in_process(spec)
    runner._prepared.clear()
    chunks = len(runner.chunk_plan(mode, games))
    assert len(built) >= chunks * (2 if mode == "versus" else 1)  # every chunk is over the small budget
    assert {k: v for k, v in rebuilt.items() if k != "elapsed_s"} == {k: v for k, v in kept.items() if k != "elapsed_s"}


@pytest.mark.django_db
@pytest.mark.parametrize("mode, games", [("hands", 1_000_000), ("goldfish", 100_000), ("versus", 100_000),
                                         ("versus", 300)])
def test_each_chunk_is_sent_with_a_time_limit_from_its_size_under_the_visibility_timeout(
        sim_db, camelot_text, winter_text, monkeypatch, django_user_model, mode, games):
    """Regression: every task had 900 s, so on Redis a killed worker's chunks came back only after 960 s. Each chunk
    now carries limits from its size, and the largest a signed-in user may ask for stays under a minute."""
    from simulator import tasks

    sent = []
    monkeypatch.setattr(tasks, "group", lambda sigs: type("G", (), {"apply_async": lambda self: None})()
                        if sent.extend(sigs) is None else None)
    user = django_user_model.objects.create_user("limits", password="limits-pw-123")
    run, _ = services.run_request(mode=mode, text=camelot_text, opponent_text=winter_text if mode == "versus"
                                  else None, games=games, seed=2, dispatch=False, user=user)
    tasks.start_run(run.pk)
    plan = runner.chunk_plan(mode, games)
    assert [s.args for s in sent] == [(run.pk, index) for index, _, _ in plan]
    for sig, (_, _, size) in zip(sent, plan):
        soft, hard = sig.options["soft_time_limit"], sig.options["time_limit"]
        assert (soft, hard) == tasks.chunk_time_limits(mode, size)
        assert 15 <= soft < hard <= 45  # far above the ~1 s a chunk takes, far below the old 900 s
    assert max(s.options["time_limit"] for s in sent) < 60  # the default visibility timeout on Redis


@pytest.mark.processes
def test_redis_gives_a_killed_workers_chunks_back_within_about_20_s():
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "DJANGO_SETTINGS"))}
    env["CELERY_BROKER_URL"] = "redis://127.0.0.1:6379/15"  # read, never connected to
    code = ("import django, json; django.setup(); from django.conf import settings as s; "
            "print(json.dumps([s.CELERY_BROKER_TRANSPORT_OPTIONS, s.CELERY_TASK_TIME_LIMIT, s.CELERY_TASK_SOFT_TIME_LIMIT,"
            " s.ROC_UNACKED_HEARTBEAT_S]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                         text=True, env={**env, "DJANGO_SETTINGS_MODULE": "roc_site.settings.dev"}, timeout=60)
    options, hard, soft, heartbeat = json.loads(out.stdout)
    # a sweep every 2 s that scans every time (kombu's default scans every 10th of 10 s sweeps: 100 s), and a
    # timeout a live worker's heartbeat (roc_site/celery.py) keeps its own messages clear of
    assert options == {"visibility_timeout": 20, "unacked_restore_interval": 2.0, "unacked_restore_throttle": 1}
    assert 0 < heartbeat * 3 <= options["visibility_timeout"]
    assert soft < hard   # the chunks' own limits are unchanged (simulator/tasks.py), longer than the timeout


@pytest.mark.django_db
def test_a_chunk_past_its_soft_time_limit_fails_the_run_with_a_readable_reason(sim_db, camelot_text, monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    from simulator import tasks

    run, _ = services.run_request(mode="hands", text=camelot_text, games=100, seed=1, dispatch=False)

    def slow(spec, index):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(runner, "run_chunk", slow)
    with pytest.raises(SoftTimeLimitExceeded):
        tasks.run_chunk(run.pk, 0)
    run.refresh_from_db()
    assert run.status == RunStatus.FAILED and "took longer than its time limit" in run.error
