"""The realms replay (simulator/engines/realms/replay.py): the game played again is the run's game, a frame per
decision with a public board (counts of hidden zones only), the grid with its adjacency."""
from __future__ import annotations

import json

from simulator.engines.realms import play_game, sim
from simulator.engines.realms.replay import board_of, game_args, replay_game, step_targets
from simulator.engines.realms.sim import entries_of


def test_replay_is_the_same_game(decks):
    r = replay_game(decks["ashen"], decks["sunward"], seed=5, first_player=0)
    p = play_game(decks["ashen"], decks["sunward"], seed=5, first_player=0)
    assert (r["winner"], r["reason"], r["rounds"], r["vp"]) == (p.winner, p.reason, p.rounds, p.vp)
    frames = r["frames"]
    assert len(frames) > 50 and frames[-1]["board"]["over"] and frames[-1]["action"] is None
    assert all(f["action"] for f in frames[:-1])
    assert sum(len(f["lines"]) for f in frames) == len(play_game(decks["ashen"], decks["sunward"], seed=5,
                                                                first_player=0, log=True).log)


def test_game_args_find_the_runs_game(decks):
    spec = sim.make_spec("versus", entries_of(decks["tideholm"]), entries_of(decks["deepwood"]), games=3, seed=9)
    part = sim.run_chunk(spec, 0)
    args = game_args(spec, 0)
    assert args["seed"] == part["sample_log"]["seed"] and args["first_player"] == 0
    r = replay_game(decks["tideholm"], decks["deepwood"], seed=args["seed"], first_player=0)
    assert r["winner"] == part["sample_log"]["winner"]
    assert game_args(spec, 1)["first_player"] == 1


def test_board_is_public_and_draws_the_grid(decks):
    r = replay_game(decks["deepwood"], None, seed=2, first_player=None)
    b = r["frames"][-1]["board"]
    me, fish = b["players"]
    assert fish["goldfish"] and fish["settlement"]["rows"] and not fish["borderlands"]
    assert isinstance(me["hand"], int) and isinstance(me["deck"], int)   # counts, never the cards
    cards = [c for row in me["settlement"]["rows"] for c in row if c]
    leader = [c for c in cards if c["leader"]]
    assert len(leader) == 1 and (leader[0]["x"], leader[0]["y"]) == (0, 0)
    at = {(c["x"], c["y"]): c for c in cards}
    for c in cards:   # a side is marked when the cell beyond it holds a card (R2), and the count never exceeds NC
        assert c["sides"]["e"] == ((c["x"] + 1, c["y"]) in at) and c["sides"]["n"] == ((c["x"], c["y"] + 1) in at)
        assert c["neighbours"] <= c["nc"]
    json.dumps(b)


def test_step_targets():
    frames = [{"turn": t} for t in (0, 0, 1, 1, 1, 2)]
    t = step_targets(frames, 3)
    assert (t["prev"], t["next"], t["prev_turn"], t["next_turn"], t["last"]) == (2, 4, 2, 5, 5)
    assert step_targets(frames, 0)["prev"] is None and step_targets(frames, 5)["next"] is None


def test_board_of_at_setup(decks):
    from simulator.engines.realms import Game
    g = Game(decks["ashen"], decks["sunward"], seed=1)
    b = board_of(g)
    assert b["step"] in ("leader", "mulligan") and b["players"][0]["hand"] >= 0
