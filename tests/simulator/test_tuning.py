"""Tuning: compare, tune and matrix — commands, services (the workers' path), API and pages.

The planted answers (known to be right): a deck with three copies of a card that can never be played (cost "–", no way to
reveal it) is told to cut it; swapping in a strictly better card (same cost and icons, more Power) shows a positive
delta whose interval excludes 0; a matrix of a deck against itself is 50% within its interval.
"""
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from simulator import tuning
from simulator import access
from tests.simulator.conftest import own
from simulator.models import TuningRun

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
STARTERS = ROOT / "cards" / "data" / "starters"
TEST_CARDS = Path(__file__).resolve().parent / "data" / "tuning_cards.json"
CAMELOT = (STARTERS / "camelot.txt").read_text(encoding="utf-8")
WINTER = STARTERS / "winter.txt"
# The tuner's own checks play against a fixed gauntlet, so they do not move when the shipped starters are rebalanced
FROZEN_WINTER = ROOT / "tests" / "fixtures" / "starters_2026" / "winter.txt"
# The camelot starter with its 3 Hedge Knights replaced by 3 Stone Effigies (cost "–": never playable, §2.5) ...
DEAD = CAMELOT.replace("3x Hedge Knight\n", "3x Stone Effigy\n")
# ... and with its 3 Wandering Knights (cost 3, Power 3, combat) replaced by Wandering Champions (cost 3, Power 6)
BETTER = CAMELOT.replace("3x Wandering Knight\n", "3x Wandering Champion\n")


@pytest.fixture
def tuning_cards(db):
    call_command("loadcards", str(TEST_CARDS), verbosity=0)


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_command(capsys, *args):
    call_command(*args)
    return json.loads(capsys.readouterr().out)


def strip(result):
    return {k: v for k, v in result.items() if k != "elapsed_s"}


def test_planted_decks_differ_only_in_the_planted_card():
    assert DEAD != CAMELOT and BETTER != CAMELOT
    assert "Stone Effigy" in DEAD and "Wandering Champion" in BETTER


def test_compare_a_deck_with_itself_is_exactly_even_thanks_to_common_random_numbers(tmp_path, capsys):
    a = write(tmp_path, "a.txt", CAMELOT)
    out = run_command(capsys, "compare", a, a, "--gauntlet", str(WINTER), "--games", "30", "--json")
    assert out["kind"] == "compare" and out["games"] == 30 and out["seed"] == 1
    assert out["policies"] == ["greedy", "greedy"] and out["gauntlet"] == ["winter.txt"]
    assert out["goldfish"]["delta_rounds"] == 0 and out["goldfish"]["ci95"] == [0, 0]
    (row,) = out["opponents"]
    assert row["opponent"] == "winter.txt" and row["games"] == 30 and row["delta"] == 0
    assert row["a_win_rate"] == row["b_win_rate"] and out["overall"]["delta"] == 0


def test_compare_strictly_better_card_has_a_positive_delta_excluding_zero(tuning_cards, tmp_path, capsys):
    a, b = write(tmp_path, "better.txt", BETTER), write(tmp_path, "base.txt", CAMELOT)
    out = run_command(capsys, "compare", a, b, "--gauntlet", str(WINTER), "--games", "100", "--seed", "3",
                      "--json")
    row = out["overall"]
    assert row["delta"] > 0 and row["ci95"][0] > 0, row
    assert row["delta"] == pytest.approx(row["a_win_rate"] - row["b_win_rate"])
    again = run_command(capsys, "compare", a, b, "--gauntlet", str(WINTER), "--games", "100", "--seed", "3",
                        "--json")
    assert strip(again) == strip(out)


@pytest.mark.slow
def test_tune_tells_to_cut_the_card_that_can_never_be_played(tuning_cards, tmp_path, capsys):
    deck = write(tmp_path, "dead.txt", DEAD)
    out = run_command(capsys, "tune", deck, "--target", "winrate", "--gauntlet", str(FROZEN_WINTER), "--games",
                      "80", "--max-games", "20000", "--json")
    assert out["kind"] == "tune" and out["target"] == "winrate" and out["games_spent"] <= 20000
    dead = {d["name"]: d for d in out["dead_weight"]}
    assert dead["Stone Effigy"]["played_per_copy"] == 0 and dead["Stone Effigy"]["copies"] == 3
    assert out["cut_ranking"][0]["name"] == "Stone Effigy"
    best = out["best"]
    assert best["in"] and best["delta"] > 0 and best["ci95"][0] > 0
    # the dead card's best cut improves the deck with its interval above 0 (the overall best may instead swap in
    # the test set's strictly better unit, which the gauntlet rewards as much)
    effigy = [s for s in out["swaps"] if [c["code"] for c in s["out"]] == ["tst-001"]]
    assert effigy and effigy[0]["delta"] > 0 and effigy[0]["ci95"][0] > 0, effigy[:1]
    assert out["games_spent"] > 0 and out["candidates"] > 10
    for swap in out["swaps"]:  # every swap keeps the deck's size: as many copies in as out
        assert sum(c["copies"] for c in swap["out"]) == sum(c["copies"] for c in swap["in"])


def test_matrix_of_a_deck_against_itself_is_even_within_its_interval(tmp_path, capsys):
    a = write(tmp_path, "a.txt", CAMELOT)
    out = run_command(capsys, "matrix", a, a, "--games", "60", "--json")
    assert out["kind"] == "matrix" and len(out["decks"]) == 2
    cells = {(c["deck"], c["opponent"]): c for c in out["cells"]}
    cell = cells[(0, 1)]
    assert cell["games"] == 60 and "win_rate" in cell
    assert cell["ci95"][0] <= 0.5 <= cell["ci95"][1]
    assert cells[(1, 0)]["win_rate"] == pytest.approx(1 - cell["win_rate"])
    ratings = {r["deck"]: r for r in out["ratings"]}
    assert ratings[0]["ci95"][0] <= 0 <= ratings[0]["ci95"][1]


def test_bradley_terry_orders_decks_and_is_symmetric():
    ratings = tuning.bradley_terry(3, {(0, 1): (70, 100), (1, 2): (70, 100), (0, 2): (85, 100)})
    by = {r["deck"]: r for r in ratings}
    assert by[0]["rating"] > by[1]["rating"] > by[2]["rating"]
    assert sum(r["rating"] for r in ratings) == pytest.approx(0, abs=0.5)
    assert by[0]["se"] > 0 and by[0]["ci95"][0] < by[0]["rating"] < by[0]["ci95"][1]
    even = tuning.bradley_terry(2, {(0, 1): (50, 100)})
    assert [r["rating"] for r in even] == [0.0, 0.0]


def test_paired_interval():
    d = tuning.paired([2, 2, 0, 2], [0, 2, 0, 0], 0.5)
    assert d["games"] == 4 and d["delta"] == 0.5 and d["ci95"][0] < 0.5 < d["ci95"][1]


def test_halving_schedule_ends_with_the_finalists_at_the_full_games():
    schedule = tuning.halving_schedule(60, 40, 320)
    assert schedule[0] == (60, 40) and schedule[-1] == (tuning.FINALISTS, 320)
    assert all(b[0] <= a[0] and b[1] >= a[1] for a, b in zip(schedule, schedule[1:]))


@pytest.mark.parametrize("args, message", [
    (["compare", "missing.txt", "missing.txt"], "cannot read"),
    (["matrix", "DECK"], "from 2 to 12"),
    (["compare", "DECK", "DECK", "--policy", "nobody"], "Unknown policy 'nobody'"),
    (["compare", "DECK", "DECK", "--games", "0"], "--games must be at least 1"),
    (["tune", "DECK", "--owned", "nobody-here"], "no user named"),
    (["compare", "DECK", "BAD"], "cannot be read"),
])
def test_bad_input_exits_2_with_a_clear_message(tmp_path, args, message):
    deck, bad = write(tmp_path, "d.txt", CAMELOT), write(tmp_path, "bad.txt", "3x No Such Card\n")
    args = [deck if a == "DECK" else bad if a == "BAD" else a for a in args]
    with pytest.raises(CommandError) as info:
        call_command(*args)
    assert info.value.returncode == 2 and message in str(info.value)


def test_the_workers_path_gives_the_in_process_json(tuning_cards):
    """tuning_execute_here runs each stage through unit_store/stage_advance, exactly as the Celery tasks do."""
    from simulator import tuning_services as services
    from simulator.tuning_input import build_tuning_spec

    for kind, decks, extra in (("compare", [("a", BETTER), ("b", CAMELOT)], {"gauntlet": [("w", WINTER.read_text())]}),
                               ("matrix", [("a", CAMELOT), ("b", BETTER), ("c", WINTER.read_text())], {}),
                               ("tune", [("d", DEAD)], {"target": "goldfish", "budget": 3000})):
        spec = build_tuning_spec(kind=kind, decks=decks, games=45, seed=7, **extra)
        here = tuning.run_in_process(spec)
        run = services.tuning_execute_here(services.tuning_from_spec(spec))
        assert run.status == "done" and run.progress == 1.0
        assert strip(run.result) == strip(here), kind
        assert run.games_done == here["games_spent"]


@pytest.fixture
def inline_queue(monkeypatch):
    from simulator import tuning_services as services
    from simulator import tuning_tasks

    def apply_async(args, **kwargs):
        services.tuning_execute_here(TuningRun.objects.get(pk=args[0]))

    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", apply_async)


def test_api_runs_polls_and_answers_repeats_from_the_stored_result(client, inline_queue):
    body = {"kind": "matrix", "decks": [{"name": "Camelot", "text": CAMELOT}, WINTER.read_text()], "games": 20}
    r = client.post("/api/tuning/", body, content_type="application/json")
    assert r.status_code == 202, r.json()
    data = r.json()
    # an anonymous API client keeps no session, so it owns nothing: its run is shared when made, and `url` (the
    # share token's address, not the id's) is its way back (simulator/access.py)
    assert data["id"] and data["url"] == data["share_url"] and data["cached"] is False
    assert client.get(f"/api/tuning/{data['id']}/").status_code == 404
    got = client.get(data["url"]).json()
    assert got["status"] == "done" and got["progress"] == 1.0
    assert got["result"]["cells"][0]["win_rate"] is not None
    assert got["result"]["decks"][0]["name"] == "Camelot"
    again = client.post("/api/tuning/", body, content_type="application/json").json()
    assert again["id"] == data["id"] and again["cached"] is True
    listed = client.get("/api/tuning/").json()
    assert listed["count"] == 0   # nothing is listed by address


@pytest.mark.parametrize("body, message", [
    ({"kind": "nope", "decks": ["x"]}, "kind"),
    ({"kind": "compare", "decks": [CAMELOT]}, "exactly 2"),
    ({"kind": "tune", "decks": [CAMELOT], "target": "fast"}, "target"),
    ({"kind": "matrix", "decks": [CAMELOT, "3x Nobody Card"]}, "cannot be read"),
    ({"kind": "compare", "decks": [CAMELOT, CAMELOT], "policy": "psychic"}, "Unknown policy"),
    ({"kind": "compare", "decks": [CAMELOT, CAMELOT], "games": 10**9}, "games"),
    ({"kind": "compare", "decks": [CAMELOT, {"deck": 99999}]}, "no saved deck"),
    ({"kind": "tune", "decks": [CAMELOT], "owned": True}, "sign in"),
    ({"kind": "compare", "decks": [CAMELOT, [1, 2]]}, "give decklist text"),
])
def test_api_bad_input_is_a_400_with_detail(client, body, message):
    r = client.post("/api/tuning/", body, content_type="application/json")
    assert r.status_code == 400
    assert message in json.dumps(r.json())
    assert TuningRun.objects.count() == 0


def test_api_not_json_object_and_unknown_run(client):
    assert client.post("/api/tuning/", "[1]", content_type="application/json").status_code == 400
    assert client.post("/api/tuning/", "{bad", content_type="application/json").status_code == 400
    assert client.get("/api/tuning/12345/").status_code == 404


def test_cancel_stops_a_run_and_only_its_owner_may(client, django_user_model):
    from simulator import tuning_services as services

    user = django_user_model.objects.create_user("owner", password="pw-12345678")
    run, _ = services.tuning_request(kind="matrix", decks=[("a", CAMELOT), ("b", CAMELOT)], games=20, user=user,
                                     dispatch=False)
    assert client.post(f"/api/tuning/{run.pk}/cancel/").status_code == 404   # not yours: not found
    access.set_shared(run, True)
    assert client.post(f"/api/tuning/{run.share_token}/cancel/").status_code == 403   # shared: read-only
    client.force_login(user)
    r = client.post(f"/api/tuning/{run.pk}/cancel/")
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    assert services.stage_start(run.pk) is None  # nothing more is computed


def test_limits_per_user(django_user_model, settings):
    from simulator import tuning_services as services
    from simulator.services import LimitExceeded

    settings.SIMULATOR_LIMITS = {"anonymous": {"versus": 100}}
    with pytest.raises(LimitExceeded, match="about 400 games"):
        services.tuning_request(kind="compare", decks=[("a", CAMELOT), ("b", CAMELOT)], games=100,
                                gauntlet=[("w", CAMELOT)], session_key="s:x", dispatch=False)


def test_pages_form_progress_and_report(client, inline_queue):
    page = client.get("/tune/?kind=compare&starter_a=camelot&starter_b=winter")
    assert page.status_code == 200 and b"Deck A" in page.content and b"Fellowship" in page.content
    r = client.post("/tune/", {"kind": "matrix", "decks": CAMELOT + "\n---\n" + WINTER.read_text(), "games": "20",
                               "seed": "1", "policy": "greedy", "opponent_policy": "greedy"})
    assert r.status_code == 302, r.content.decode()[:2000]
    report = client.get(r["Location"])
    assert report.status_code == 200
    text = report.content.decode()
    assert "<svg" in text and "Ratings" in text and "cells/m0-1/" in text
    cell = client.get(r["Location"] + "cells/m0-1/")
    assert cell.status_code == 200 and b"seed" in cell.content and b"cells/m0-1/games/0/" in cell.content
    bad = client.post("/tune/", {"kind": "compare", "a": "3x Nobody", "b": CAMELOT, "games": "20"})
    assert bad.status_code == 400 and b"cannot be read" in bad.content


def test_progress_fragment_while_running(client):
    from simulator import tuning_services as services

    run, _ = services.tuning_request(kind="matrix", decks=[("a", CAMELOT), ("b", CAMELOT)], games=20,
                                     session_key="s:y", dispatch=False)
    own(client, run)
    page = client.get(run.get_absolute_url(), HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and b"<progress" in page.content and b'hx-trigger="every 1s"' in page.content


def test_nightly_matrix_of_the_most_liked_decklists(inline_queue):
    from django.core.management import call_command as cc

    from simulator import tuning_services as services
    from simulator.tuning_tasks import nightly_matrix

    cc("publishstarters", verbosity=0)
    run_id = nightly_matrix(decklists=3, games=10)
    run = TuningRun.objects.get(pk=run_id)
    assert run.nightly and run.status == "done" and len(run.result["decks"]) == 3
    assert services.latest_nightly() == run


def test_beat_schedules_the_nightly_matrix(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["nightly-meta-matrix"]
    assert entry["task"] == "simulator.nightly_matrix"


def test_deck_history_links_to_compare_against_the_previous_version(client, django_user_model):
    from decks.services import deck_create, deck_update

    from decks.decklist import parse_decklist
    from decks.pool import CardPool

    user = django_user_model.objects.create_user("builder", password="pw-12345678")
    client.force_login(user)
    pool = CardPool.from_db()
    deck = deck_create(owner=user, name="Knights", counts=parse_decklist(CAMELOT, pool).counts).deck
    second = CAMELOT.replace("3x Village Priest", "2x Village Priest\n1x Hedge Knight")
    deck_update(deck=deck, counts=parse_decklist(second, pool).counts)
    page = client.get(deck.get_absolute_url()).content.decode()
    link = f"/tune/?kind=compare&amp;deck_id={deck.pk}&amp;version=2"
    assert link in page
    form = client.get(link.replace("&amp;", "&"))
    assert form.status_code == 200
    text = form.content.decode()
    assert "Knights v2" in text and "Knights v1" in text  # deck A is version 2, deck B version 1
    r = client.post("/tune/", {"kind": "compare", "a": form.context["form"]["a"], "b": form.context["form"]["b"],
                               "from_deck": "1", "games": "10", "gauntlet": CAMELOT})
    assert r.status_code == 302
    assert TuningRun.objects.get().private is True


def _profiled(spec):
    """The spec's profile stage, played (the cut ranking comes from it)."""
    return [[tuning.run_unit(spec, u) for u in tuning.plan_stage(spec, [])]]


def test_candidates_cover_every_matching_card_and_mixed_two_card_swaps():
    from simulator.tuning_input import build_tuning_spec

    spec = build_tuning_spec(kind="tune", decks=[("c", CAMELOT)], target="goldfish")
    done = _profiled(spec)
    cands = tuning.candidates(spec, done)
    assert len(cands) >= 300 and len(cands) <= spec["max_candidates"]
    assert len({tuning.candidate_id(s) for s in cands}) == len(cands)
    cards = {c["code"]: c for c, _ in spec["decks"][0]["entries"]} | {c["code"]: c for c in spec["pool"]}
    cuts = [r["code"] for r in tuning.cut_ranking(spec, done)[:tuning.MAX_CUTS]]
    for swap in cands:
        assert sum(swap["out"].values()) == sum(swap["in"].values()) in (1, 2)
        assert not set(swap["out"]) & set(swap["in"]) and set(swap["out"]) <= set(cuts)
        for code, n in swap["in"].items():
            assert spec["room"][code] >= n
    mixed_both = [s for s in cands if len(s["out"]) == 2 and len(s["in"]) == 2]
    mixed_in = [s for s in cands if len(s["out"]) == 1 and len(s["in"]) == 2]
    mixed_out = [s for s in cands if len(s["out"]) == 2 and len(s["in"]) == 1]
    assert mixed_both and mixed_in and mixed_out
    # every legal card of the same type and a matching cost is an add for the least useful card
    worst = cards[cuts[0]]
    expected = {c["code"] for c in spec["pool"] if c["type"] == worst["type"] and c["code"] != worst["code"]
                and isinstance(c["cost"], int) and abs(c["cost"] - worst["cost"]) <= tuning.COST_SLACK}
    one_for_one = {next(iter(s["in"])) for s in cands if s["out"] == {worst["code"]: 1} and len(s["in"]) == 1}
    if len(expected) >= tuning.MIN_ADDS:
        assert one_for_one == expected
    # a smaller budget (an anonymous visitor's 10,000 games) races fewer candidates, the most promising first
    small = build_tuning_spec(kind="tune", decks=[("c", CAMELOT)], target="goldfish", budget=10_000)
    assert small["max_candidates"] < spec["max_candidates"]
    assert tuning.tune_bound(small, small["max_candidates"]) <= 10_000
    assert tuning.candidates(small, done) == cands[:small["max_candidates"]]


def test_a_mixed_two_card_swap_plays_the_deck_with_both_changes():
    from simulator.tuning_input import build_tuning_spec

    spec = build_tuning_spec(kind="tune", decks=[("c", CAMELOT)], target="goldfish")
    swap = next(s for s in tuning.candidates(spec, _profiled(spec)) if len(s["out"]) == 2 and len(s["in"]) == 2)
    deck = tuning._deck_for(spec, "cand:" + tuning.candidate_id(swap))
    before, after = tuning.deck_counts(spec["decks"][0]), tuning.deck_counts(deck)
    for code in swap["out"]:
        assert after.get(code, 0) == before[code] - 1
    for code in swap["in"]:
        assert after[code] == before.get(code, 0) + 1
    assert sum(after.values()) == sum(before.values())


def test_matrix_cell_lists_its_games_and_each_replays_to_the_stored_result(client, inline_queue, django_user_model):
    client.force_login(django_user_model.objects.create_user("owner"))
    r = client.post("/api/tuning/", {"kind": "matrix", "decks": [CAMELOT, WINTER.read_text()], "games": 6},
                    content_type="application/json")
    run = TuningRun.objects.get(pk=r.json()["id"])
    page = client.get(f"/tune/runs/{run.pk}/cells/m0-1/")
    assert page.status_code == 200
    games = page.context["games"]
    assert [g["number"] for g in games] == [1, 2, 3, 4, 5, 6]
    assert [g["seed"] for g in games] == [tuning.game_seed(run.seed, "m0-1", g) for g in range(6)]
    for g in (0, 3):
        url = games[g]["results"][0]["url"]
        assert url == f"/tune/runs/{run.pk}/cells/m0-1/games/{g}/"
        assert url in page.content.decode()
        replay = client.get(url + "?step=2")
        assert replay.status_code == 200 and b"replay-nav" in replay.content
        winner = replay.context["data"]["winner"]
        assert {2: 0, 1: None, 0: 1}[games[g]["results"][0]["score"]] == winner
        assert replay.context["data"]["seed"] == games[g]["seed"] and replay.context["step"] == 2
    assert client.get(f"/tune/runs/{run.pk}/cells/m0-1/games/6/").status_code == 404
    assert client.get(f"/tune/runs/{run.pk}/cells/m1-0/").status_code == 404
    assert client.get(f"/tune/runs/{run.pk}/").content.decode().count("cells/m0-1/") == 2  # (0,1) and (1,0)


def test_compare_opponent_lists_both_versions_games_and_the_ones_that_differ(client, inline_queue, tuning_cards,
                                                                           django_user_model):
    client.force_login(django_user_model.objects.create_user("owner"))
    body = {"kind": "compare", "decks": [BETTER, CAMELOT], "gauntlet": [WINTER.read_text()], "games": 12}
    run = TuningRun.objects.get(pk=client.post("/api/tuning/", body, content_type="application/json").json()["id"])
    report = client.get(run.get_absolute_url()).content.decode()
    assert "cells/g0/" in report and "cells/gf/" in report
    page = client.get(f"/tune/runs/{run.pk}/cells/g0/")
    games = page.context["games"]
    assert len(games) == 12 and all(len(g["results"]) == 2 for g in games)
    wins_a = sum(g["results"][0]["score"] for g in games) / 2 / 12
    assert wins_a == pytest.approx(run.result["opponents"][0]["a_win_rate"], abs=1e-5)
    differ = client.get(f"/tune/runs/{run.pk}/cells/g0/?differ=1").context["games"]
    assert [g["number"] for g in differ] == [g["number"] for g in games if g["differ"]]
    b = next(g for g in games)["results"][1]["url"]
    assert b.endswith("?deck=1")
    replay = client.get(b)
    assert replay.status_code == 200 and replay.context["side"] == "B"
    assert client.get(f"/tune/runs/{run.pk}/cells/gf/").status_code == 200
    assert client.get(f"/tune/runs/{run.pk}/cells/g5/").status_code == 404


def test_pages_answer_a_repeat_from_the_stored_run_and_cancel_for_its_owner(client, monkeypatch):
    from django.test import Client

    from simulator import tuning_tasks

    form = {"kind": "matrix", "decks": CAMELOT + "\n---\n" + WINTER.read_text(), "games": "20", "seed": "4",
            "policy": "greedy", "opponent_policy": "greedy"}
    sent = []
    monkeypatch.setattr(tuning_tasks.tuning_start, "apply_async", lambda args, **kw: sent.append(args[0]))
    first = client.post("/tune/", form)
    again = client.post("/tune/", form)
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert TuningRun.objects.count() == 1
    run = TuningRun.objects.get()
    page = client.get(run.get_absolute_url()).content.decode()
    assert "<progress" in page and f"/tune/runs/{run.pk}/cancel/" in page
    assert f"/tune/runs/{run.pk}/cancel/" not in Client().get(run.get_absolute_url()).content.decode()
    Client().post(f"/tune/runs/{run.pk}/cancel/")  # a stranger cannot cancel it
    run.refresh_from_db()
    assert run.status != "cancelled"
    client.post(f"/tune/runs/{run.pk}/cancel/")
    run.refresh_from_db()
    assert run.status == "cancelled"
    assert "cancelled" in client.get(run.get_absolute_url()).content.decode()


OLD_CAMELOT = (ROOT / "tests" / "decks" / "data" / "camelot_old.txt").read_text(encoding="utf-8")


def test_goldfish_swaps_never_cut_a_card_only_an_opponent_makes_playable_and_each_says_why():
    """The deck doctor's distinction (docs/decks.md, needs_opponent): against the goldfish nothing defends, is
    targeted or discards, so Arthur Pendragon (his text adds Power) and Trial by Combat (a struggle trick) are
    never played there; the goldfish cannot judge them, so the search never offers to cut them."""
    from simulator.tuning_input import build_tuning_spec

    spec = build_tuning_spec(kind="tune", decks=[("c", OLD_CAMELOT)], target="goldfish", budget=10_000)
    done = _profiled(spec)
    codes = {c["name"]: c["code"] for c, _ in spec["decks"][0]["entries"]}
    apart = {r["name"]: r for r in tuning.opponent_only_cards(spec, done)}
    assert {"Arthur Pendragon", "Trial by Combat"} <= set(apart)
    assert "struggle" in apart["Trial by Combat"]["opponent_only"]
    ranked = {r["code"] for r in tuning.cut_ranking(spec, done)}
    assert codes["Arthur Pendragon"] not in ranked and codes["Trial by Combat"] not in ranked
    for swap in tuning.candidates(spec, done):
        assert not {codes["Arthur Pendragon"], codes["Trial by Combat"]} & set(swap["out"])
    result = tuning._finalize_tune(spec, done)
    assert not {"Arthur Pendragon", "Trial by Combat"} & {d["name"] for d in result["dead_weight"]}
    assert {"Arthur Pendragon", "Trial by Combat"} <= {d["name"] for d in result["opponent_only"]}
    for s in result["swaps"]:
        cut = s["out"][0]["name"]
        assert s["why"].startswith(f"In {tuning.profile_games(spec)} goldfish games ") and cut in s["why"]
        assert "played" in s["why"] and s["in"][0]["name"] in s["why"]
    # against a real gauntlet they are judged like any other card
    rate = build_tuning_spec(kind="tune", decks=[("c", OLD_CAMELOT)], target="winrate", budget=10_000)
    assert codes["Trial by Combat"] in {r["code"] for r in tuning.cut_ranking(rate, [[]])}
    assert tuning.opponent_only_cards(rate, [[]]) == []
