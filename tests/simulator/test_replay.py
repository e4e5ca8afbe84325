"""Replays: game g of a run is the game the run played (same seed, same outcome), the page steps
through it by event, struggle and round, and the report links its sample game to it."""
from __future__ import annotations

import re

import pytest

from simulator import replay, runner
from simulator.engines import r1 as engine

from tests.simulator.conftest import own

pytestmark = pytest.mark.django_db


def _run(camelot_text, winter_text, mode="versus", games=4, client=None):
    """A finished run, owned by `client` when given (runs are private to their owner)."""
    from simulator import services

    run, _ = services.run_request(mode=mode, text=camelot_text, opponent_text=winter_text if mode == "versus" else None,
                                  games=games, seed=11, dispatch=False)
    services.run_execute_here(run)
    if client is not None:
        own(client, run)
    run.refresh_from_db()
    assert run.status == "done", run.error
    return run


def test_game_args_find_the_seed_the_run_used(sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text)
    spec = run.spec
    sample = run.result["sample_log"]
    args = replay.game_args(spec, 0)
    assert args["seed"] == sample["seed"] and args["first_player"] == 0
    assert replay.game_args(spec, 1)["first_player"] == 1
    out = replay.replay_run_game(spec, 0)
    assert out["winner"] == sample["winner"] and out["reason"] == sample["reason"]
    # every log line of the game is in exactly one frame, in order
    raw = [x for f in out["frames"] for x in f["raw"]]
    assert raw[:len(sample["lines"])] == sample["lines"]
    # the same game as play_game plays
    da, db = runner.engine_deck(spec["deck"]), runner.engine_deck(spec["opponent"])
    r = engine.play_game(da, db, seed=args["seed"], first_player=1, max_rounds=50, log=True)
    again = replay.replay_game(da, db, seed=args["seed"], first_player=1)
    assert (again["winner"], again["rounds"]) == (r.winner, r.rounds)
    assert [x for f in again["frames"] for x in f["raw"]] == r.log


def test_a_game_outside_the_run_is_refused(sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text)
    with pytest.raises(replay.ReplayError, match="not in this run"):
        replay.game_args(run.spec, 4)


def test_plain_lines_name_decks_and_keep_the_rule_aside():
    pl = replay.plain_line("R3 Confrontation S.8 Guile: 1 vs 0, attacker wins, margin 1", ("Camelot", "Winter"))
    assert pl == {"text": "Guile: 1 vs 0, attacker wins, margin 1", "rules": ["S.8"], "round": 3}
    pl = replay.plain_line("R1 §6.2 S.10 unopposed: player 1 gains 1 Influence (1)", ("Camelot", "Winter"))
    assert pl["text"] == "Unopposed: Winter gains 1 Influence (1)" and pl["rules"] == ["§6.2 S.10"]


def test_the_replay_page_steps_and_each_step_has_its_address(client, sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text, client=client)
    url = f"/simulate/runs/{run.pk}/games/0/"
    first = client.get(url)
    assert first.status_code == 200
    body = first.content.decode()
    assert "step 1 /" in body and 'data-key="ArrowRight"' in body
    nxt = re.search(r'href="([^"]+step=(\d+))" id="step-next"', body)
    assert nxt and nxt.group(2) == "1"
    later = client.get(url + "?step=40").content.decode()
    assert "step 41 /" in later and "/cards/" in later and "play-card" in later
    assert "Open this step in the judge sandbox" in later
    assert client.get(f"/simulate/runs/{run.pk}/games/99/").status_code == 400
    # a hand-edited step is told so, as on every game's replay, never shown another step
    total = int(re.search(r"step 1 / (\d+)", body).group(1))
    assert client.get(url + f"?step={total - 1}").status_code == 200
    for step, status in ((total, 404), (99999, 404), ("two", 400), (-1, 400)):
        page = client.get(url + f"?step={step}")
        assert page.status_code == status and "step" in page.content.decode(), step
    assert client.get(f"/simulate/runs/{run.pk + 1000}/games/0/").status_code == 404


def test_the_report_links_its_sample_game_and_reads_like_a_summary(client, sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text, client=client)
    body = client.get(run.get_absolute_url()).content.decode()
    assert f'/simulate/runs/{run.pk}/games/0/' in body
    assert "Round 1" in body and re.search(r"wins the \w+ struggle \d+–\d+, (attacking|defending) \(margin \d+\)",
                                           body)
    # the summary's rules are links to the rulebook page
    assert re.search(r'<a class="rule-ref" href="/rules/#S\.8"', body)
    gold = _run(camelot_text, None, mode="goldfish", games=3, client=client)
    body = client.get(gold.get_absolute_url()).content.decode()
    assert f'/simulate/runs/{gold.pk}/games/0/' in body
    # the goldfish report has its sample game too, read as a summary: round headings with the running score
    sample = body[body.index('id="sample-game"'):]
    assert re.search(r"<h3>Round 1 <small class=\"muted\">— \S.* \d+ Influence</small></h3>", sample)
    assert re.search(r"wins the \w+ struggle \d+–0, attacking", sample)
    assert "player 0" not in sample.split("<details")[0]
    assert client.get(f'/simulate/runs/{gold.pk}/games/0/').status_code == 200


def test_summary_scores_each_round_with_the_games_influence():
    lines = ["R1 §6.2 S.3 player 1 declares a Guile struggle with Court Spy",
             "R1 Confrontation S.8 Guile: 1 vs 0, attacker wins, margin 1",
             "R1 §6.2 S.10 unopposed: player 1 gains 1 Influence (1)",
             "R2 §6.1 Faith spoils: 1 Influence moves from player 1 to player 0"]
    rounds = replay.summary(lines, ("A", "B"), influence=[[0, 1], [1, 0]])
    assert rounds[0]["score"] == [0, 1] and rounds[1]["score"] == [1, 0]
    assert rounds[0]["events"][0]["text"] == "B wins the Guile struggle 1–0, attacking (margin 1)"
    # never added up from the lines: without the game's figures a round has no score
    assert [r["score"] for r in replay.summary(lines, ("A", "B"))] == [None, None]


def test_summary_lists_influence_lost_to_a_card():
    lines = ["R1 §6.2 S.10 unopposed: player 0 gains 3 Influence (3)",
             "R2 §1.1 Betrayal: player 0 loses 2 Influence (1 left)"]
    rounds = replay.summary(lines, ("A", "B"), influence=[[3, 0], [1, 0]])
    assert rounds[0]["score"] == [3, 0] and rounds[1]["score"] == [1, 0]
    assert len(rounds[1]["events"]) == 1


def _end_of_round(frames: list[dict], rnd: int) -> list[int]:
    last = [f for f in frames if f["round"] == rnd][-1]
    return [p["influence"] for p in last["board"]["players"]]


def test_the_reports_round_scores_are_the_replay_boards_with_glory(client, sim_db, camelot_text, winter_text):
    """Glory (§9.2) puts Influence on a unit: it counts (§1.1), the replay's board shows it, and so does the
    report's summary. Run seed 3's game 1 has Glory in round 1."""
    from simulator import services

    run, _ = services.run_request(mode="versus", text=camelot_text, opponent_text=winter_text, games=1, seed=3,
                                  dispatch=False)
    services.run_execute_here(run)
    own(client, run)   # runs are private to their owner
    run.refresh_from_db()
    lines = run.result["sample_log"]["lines"]
    assert any(x.startswith("R1 ") and "§9.2 Glory" in x for x in lines)
    frames = replay.replay_run_game(run.spec, 0)["frames"]
    body = client.get(run.get_absolute_url()).content.decode()
    heads = re.findall(r"<h3>Round (\d+) <small class=\"muted\">— .*? (\d+), .*? (\d+)</small></h3>", body)
    assert len(heads) >= 2
    for rnd, a, b in heads:
        assert [int(a), int(b)] == _end_of_round(frames, int(rnd)), f"round {rnd}"


def test_the_playtest_log_speaks_to_you():
    names = ("You", "AI (Winter)")
    assert replay.plain_line("R2 §6.2 S.10 unopposed: player 0 gains 1 Influence (1)", names)["text"] == \
        "Unopposed: You gain 1 Influence (1)"
    assert replay.plain_line("R2 §5.1 player 0 chooses player 1 as first player", names)["text"] == \
        "You choose AI (Winter) as first player"
    assert replay.plain_line("R2 §5.1 player 0 passes", names)["text"] == "You pass"


def test_each_step_is_one_event_in_plain_words(sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text)
    out = replay.replay_run_game(run.spec, 0)
    frames = out["frames"]
    assert len(frames) > 100 and all(len(f["raw"]) == 1 and len(f["lines"]) == 1 for f in frames)
    codes = {c for c in out["cards"]}
    for f in frames:
        text = f["lines"][0]["text"]
        assert text and not re.search(r"\bplayer [01]\b", text), text
        assert not any(re.search(rf"\b{re.escape(c)}\b", text) for c in codes), text   # names, not codes
        assert not text.startswith("§") and "§" not in text   # the rule is beside the line, not in it
    # a struggle's result names who won, attacking or defending, and by how much
    results = [f["lines"][0]["text"] for f in frames if " S.8 " in f["raw"][0] and "wins" in f["raw"][0]]
    assert results and all(re.search(r"wins the \w+ struggle \d+–\d+, (attacking|defending) \(margin \d+\)", t)
                           for t in results)
    # the board of an event is taken right after it: a declaration shows the struggle under way
    declared = [f for f in frames if f["struggle_start"]]
    assert declared and sum(f["board"]["struggle"] is not None for f in declared) >= len(declared) // 2


def test_stepping_by_struggle_and_round(sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text)
    frames = replay.replay_run_game(run.spec, 0)["frames"]
    t = replay.step_targets(frames, 0)
    assert frames[t["next_struggle"]]["struggle_start"]
    assert "declares" in frames[t["next_struggle"]]["raw"][0]
    after = replay.step_targets(frames, t["next_struggle"])
    assert after["prev_struggle"] is None or after["prev_struggle"] < t["next_struggle"]
    assert frames[after["next_struggle"]]["struggle_no"] == frames[t["next_struggle"]]["struggle_no"] + 1
    r = t["next_round"]
    assert frames[r]["round"] == frames[r - 1]["round"] + 1


def test_the_replay_page_links_each_rule_to_the_rulebook(client, sim_db, camelot_text, winter_text):
    run = _run(camelot_text, winter_text, client=client)
    frames = replay.replay_run_game(run.spec, 0)["frames"]
    step = next(i for i, f in enumerate(frames) if " S.8 " in f["raw"][0])
    body = client.get(f"/simulate/runs/{run.pk}/games/0/?step={step}").content.decode()
    assert '<a class="rule-ref" href="/rules/#S.8"' in body
    assert re.search(r'<a class="rule-ref" href="/rules/#s5\.4"', body)   # the phase, in the board's heading
    rules = client.get("/rules/").content.decode()
    ids = set(re.findall(r'id="([^"]+)"', rules))
    # every rule any event of the game cites has its anchor on the rules page
    from roc_site.rulebook import rule_href
    cited = {rule_href(r) for f in frames for r in f["lines"][0]["rules"]}
    assert cited and all(h.split("#")[1] in ids for h in cited if h and "#" in h), cited - {None}


def test_select_step_reads_refuses_and_links_the_step():
    frames = [{"round": r, "raw": [x], "struggle_start": "declares" in x}
              for r, x in ((1, "a"), (1, "player 0 declares a Faith struggle"), (2, "b"), (2, "c"))]
    assert replay.select_step(frames, None, "/x?step=")[:2] == (0, frames[0])
    assert replay.select_step(frames, "", "/x?step=")[0] == 0
    for asked, status in (("banana", 400), ("-4", 400), ("4", 404), ("99", 404)):
        with pytest.raises(replay.StepError) as exc:
            replay.select_step(frames, asked, "/x?step=")
        assert exc.value.status == status, asked
    step, frame, links = replay.select_step(frames, "3", "/x?deck=1&step=")
    assert (step, frame) == (3, frames[3])
    assert links["next"] is None and links["prev"] == "/x?deck=1&step=2" and links["prev_round"] == "/x?deck=1&step=2"
    assert replay.select_step(frames, "0", "/x?step=")[2]["next_struggle"] == "/x?step=1"
    # another game's controls (realms: by turn)
    turns = [{"turn": t} for t in (1, 1, 2)]
    from simulator.engines.realms.replay import step_targets as realms_targets
    assert replay.select_step(turns, "0", "/r?step=", realms_targets)[2]["next_turn"] == "/r?step=2"


def test_each_event_shows_the_board_right_after_its_own_line(sim_db, camelot_text, winter_text):
    """Lines the engine logs together (a struggle's S.8 result, the S.10 unopposed bonus, the spoils) are steps
    of their own, each with the board taken right after its line (the engine's log hook), in the same game."""
    run = _run(camelot_text, winter_text)
    spec = run.spec
    gained = bonus = moved = 0
    for index in range(spec["games"]):
        out = replay.replay_run_game(spec, index)
        frames = out["frames"]
        # still the game play_game plays, line for line
        args = replay.game_args(spec, index)
        r = engine.play_game(runner.engine_deck(spec["deck"]), runner.engine_deck(spec["opponent"]),
                             seed=args["seed"], first_player=args["first_player"], max_rounds=args["max_rounds"],
                             log=True)
        assert [f["raw"][0] for f in frames] == r.log[:len(frames)] and out["winner"] == r.winner
        assert [f["log_index"] for f in frames] == list(range(len(frames)))
        for k, f in enumerate(frames[1:], 1):
            raw, before = f["raw"][0], frames[k - 1]["board"]["players"]
            m = re.search(r"player ([01]) gains (\d+) Influence \((\d+)\)", raw)
            if m:   # the board of a gain shows the Influence it reached; the step before, what there was
                p, n, total = int(m.group(1)), int(m.group(2)), int(m.group(3))
                assert f["board"]["players"][p]["influence"] == total, raw
                assert before[p]["influence"] == total - n, (frames[k - 1]["raw"], raw)
                gained += 1
                bonus += "S.10 unopposed" in raw
            m = re.search(r"Faith spoils: (\d+) Influence moves from player ([01]) to player ([01])", raw)
            if m and int(m.group(1)):
                n, src, dst = int(m.group(1)), int(m.group(2)), int(m.group(3))
                assert f["board"]["players"][dst]["influence"] == before[dst]["influence"] + n
                assert f["board"]["players"][src]["influence"] == before[src]["influence"] - n
                moved += 1
    assert gained and bonus   # the unopposed bonus was gained in these games (and checked)


def _struggle_steps(frames):
    """Steps inside a struggle where no position can be taken: from its declaration to its end."""
    return [k for k, f in enumerate(frames) if f["position"] is None and f["board"]["struggle"] is not None
            and f["base_position"] is not None]


def test_a_step_inside_a_struggle_opens_in_the_sandbox_at_its_last_decision(client, sim_db, camelot_text,
                                                                           winter_text):
    from decks.pool import CardPool
    from simulator import sandbox as sb
    from simulator.engines.r1.actions import parse_text
    run = _run(camelot_text, winter_text, client=client)
    data = replay.replay_run_game(run.spec, 0)
    frames, log = data["frames"], [f["raw"][0] for f in data["frames"]]
    pool = CardPool.from_db()
    steps = _struggle_steps(frames)
    assert steps
    opened = 0
    for step in steps:
        f = frames[step]
        position, actions, how = sb.at_replay_step(data, step, pool)
        assert position == f["base_position"]
        # the decision that waits: the last one of the game at or before the step (its own "Next, ... chooses")
        last = [e for e in data["trail"][f["base_trail"]:] if e["n"] <= step + 1 and not e["single"]]
        if how != "decision":
            continue
        opened += 1
        g = sb.run(position, actions, pool)
        want = last[-1]
        assert (g.pending.kind, g.pending.player) == (want["kind"], want["player"])
        assert parse_text(g, want["text"])   # the replay's choice there is an option (IllegalAction if not)
        own = [x for x in g.logs if not x.endswith(sb.SETTLED)]
        assert own == log[f["base_log"]:f["base_log"] + len(own)] and f["base_log"] + len(own) == want["n"]
        # stepping it continues the same game: its choice, then windows passed, reach the step's own line
        g.apply_action(want["text"])
        sb._settle(g)
        for _ in range(50):
            own = [x for x in g.logs if not x.endswith(sb.SETTLED)]
            if f["base_log"] + len(own) > step or g.pending is None or g.pending.kind not in ("window", "react"):
                break
            g.apply_action("pass")
            sb._settle(g)
        own = [x for x in g.logs if not x.endswith(sb.SETTLED)]
        assert len(own) > step - f["base_log"] and own[step - f["base_log"]] == log[step]
    # most steps inside a struggle open at their decision; the others at the last position alone (a random event
    # since it, such as Guile spoils, or what a position does not hold: the loaded game logs other lines)
    assert opened >= 0.8 * len(steps), (opened, len(steps))
    # the page says so, and its options are the decision's
    def inside(k):   # opens at a decision taken inside the struggle (not the window before it)
        position, actions, how = sb.at_replay_step(data, k, pool)
        return how == "decision" and actions and sb.run(position, actions, pool).struggle is not None
    step = next(k for k in steps if " S.8 " in log[k] and inside(k))
    body = client.get(f"/play/sandbox/?run={run.pk}&game=0&step={step}").content.decode()
    assert "the position at the last decision at or before that step" in body and "inside the same struggle" in body
    assert 'id="sb-options"' in body
