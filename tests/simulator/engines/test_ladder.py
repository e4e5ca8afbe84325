"""The policy ladder (scripts/ladder.py over scripts/ladder_games.py): one command for every game, seeded."""
from __future__ import annotations

import json
import re

import pytest

from scripts import ladder, ladder_games

# the search players at their smallest budget, so that a game of each costs little even on plain Python
TINY = ["--players", "r1=random,greedy,expert:2", "--players", "realms=random,greedy,expert:2",
        "--players", "regions=random,big-money,region-control,search:2"]


def _rows(section: str, game: str) -> list[list[str]]:
    part = section.split(f"### {game}\n", 1)[1].split("\n### ", 1)[0]
    return [[c.strip() for c in line.strip("|").split("|")] for line in part.splitlines()
            if line.startswith("| ") and not line.startswith("| ---")]


def test_every_registered_game_with_players_has_a_ladder():
    from simulator.games import simulated
    assert ladder_games.games() == [g for g in simulated() if g in ladder_games.games()]
    assert len(ladder_games.games()) == 3
    for g in ladder_games.games():
        lg = ladder_games.get(g)
        players = lg.players()
        assert lg.anchor in players and any(lg.slow(p) for p in players) and "first" not in players
        for p in players:
            lg.check(p)
    with pytest.raises(ValueError):
        ladder_games.get("r1").check("nobody")


def test_all_games_quick_prints_both_tables_for_each_game(tmp_path, monkeypatch):
    log = tmp_path / "ladder.jsonl"
    monkeypatch.setenv("LADDER_LOG", str(log))
    section = ladder.main(["--all-games", "--quick", "--games", "4", "--expert-games", "1", "--workers", "1",
                           *TINY])
    assert section.startswith("## Policy ladder")
    for game, players in (("r1", 3), ("realms", 3), ("regions", 4)):
        rows = _rows(section, game)
        pairings = [r for r in rows if " vs " in r[0]]
        assert len(pairings) == players * (players - 1) // 2
        for r in pairings:
            games = int(r[1])
            assert games in (1, 4)
            rate = float(r[2].rstrip("%"))
            lo, hi = (float(x) for x in r[3].rstrip("%").split("–"))
            assert 0 <= lo <= rate <= hi <= 100
            assert float(r[5]) > 0
        table = [r for r in rows if r[0] != "player" and " vs " not in r[0] and r[0] != "pairing"]
        assert len(table) == players
        anchor = ladder_games.get(game).anchor
        assert [r[1] for r in table if r[0] == anchor] == ["1500"]
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == (4 + 1 + 1) * 2 + 3 * 4 + 3 * 1   # r1 and realms, then regions' four players
    # the same tables from the log (everything but the header line, which names the command and the time)
    again = ladder.main(["--from-log", str(log)])
    assert again.split("\n### ", 1)[1] == section.split("\n### ", 1)[1]


def test_the_schedule_balances_seats_and_the_first_player():
    pairs = [("a", "a"), ("a", "b"), ("b", "a")]
    games = ladder.schedule(4 * len(pairs), pairs)
    for deal in pairs:
        mine = [g for g in games if g[:2] == deal]
        assert sorted(g[2] for g in mine) == [0, 0, 1, 1]                  # each seat twice
        assert sum(g[3] == g[2] for g in mine) == 2                        # the first-named starts half
        assert {(g[2], g[3] == g[2]) for g in mine} == {(0, True), (0, False), (1, True), (1, False)}
    assert all(g[3] == g[2] for g in ladder.schedule(12, pairs, legacy_first=True))


def test_a_ladder_game_is_the_engines_own_game():
    # the timing wrapper changes no choice (r1 asks its policies for hooks besides choose: they are passed
    # through): the ladder's r1 game is play_game's with the same seed and seats
    from simulator.engines.r1 import play_game
    lg = ladder_games.get("r1")
    decks = lg.decks()
    for seed, a_seat, first in ((3, 0, 1), (4, 1, 1), (5, 0, 0)):
        for a, b in (("greedy", "random"), ("expert:2", "greedy")):
            score, secs, ca, cb = lg.play(a, b, "camelot", "winter", seed, a_seat, first)
            seats = (a, b) if a_seat == 0 else (b, a)
            ds = (decks["camelot"], decks["winter"]) if a_seat == 0 else (decks["winter"], decks["camelot"])
            r = play_game(ds[0], ds[1], seed=seed, first_player=first, policies=seats)
            assert score == (0.5 if r.winner is None else float(r.winner == a_seat))
            if a == "expert:2":
                assert cb is None and 0 < ca <= secs      # only the search player is timed
            else:
                assert ca is None and cb is None


def test_the_logs_of_the_earlier_r1_ladder_are_still_read(tmp_path):
    # the lines LADDER_LOG got before the ladder covered every game: "(pairing) deck deck score cpu"
    log = tmp_path / "old.log"
    log.write_text("('greedy', 'expert') camelot camelot 0.0 0.512\n"
                   "('greedy', 'expert') camelot winter 1.0 0.488\n"
                   "('camelot',) camelot camelot 1.0 0.5\n", encoding="utf-8")
    section = ladder.main(["--from-log", str(log)])
    rows = {r[0]: r for r in _rows(section, "r1")}
    assert rows["greedy vs expert"][1:4] == ["2", "50.0%", "9.5–90.5%"]
    assert rows["expert vs greedy (camelot mirror)"][1] == "1"
    # expert's 2.5 of 3 games against greedy (the Camelot mirror counted as expert against greedy)
    assert int(rows["expert"][1]) > 1500 and rows["greedy"][1] == "1500" and rows["expert"][3] == "–"
