"""A replay step opened in the judge sandbox (`sandbox.at_replay_step`, /play/sandbox/?run=ID&game=N&step=S) shows the
replay's board: every step of a few starter games is opened as the page opens it, and the sandbox's board is compared
with the replay's at the decision it opened at — that very step for an "exact" one, the last decision at or before
it for a "decision" one (a position opens only between steps and a game waits only at decisions).

Compared: each player's Influence and, for every card on the field, its Power, exhaustion, emblems, Influence and
attachments (with theirs). Copies alike are one option in an action text (CONTRACTS §6), so the sandbox may answer a
declaration with the other copy: each field is compared as a set.
"""
import json

import pytest

from simulator import replay, sandbox

from .engines.r1.helpers import CORE, starter_decks

_raw = json.loads(CORE.read_text(encoding="utf-8"))
CATALOGUE = {c["code"]: c for c in (_raw["cards"] if isinstance(_raw, dict) else _raw)}


def board_key(board: dict) -> list:
    def card(c):
        return (c["name"], c["power"], c["exhausted"], c["emblems"], c["influence"],
                sorted(card(a) for a in c["attachments"]))
    return [(p["influence"], sorted((card(c) for c in p["field"]), key=repr)) for p in board["players"]]


# (deck, opponent, seed, first player): the first has a unit with +2 Power until the end of the round at an
# "exact" step (Tourney at Caerleon), which a position used to drop
GAMES = [("winter", "camelot", 1087608058291172412, 1), ("lefay", "winter", 4355693531291048099, 0),
         ("winter", "winter", 6417925426618434982, 0)]


@pytest.mark.parametrize("deck,opponent,seed,first", GAMES)
def test_each_step_opens_in_the_sandbox_with_the_replays_board(deck, opponent, seed, first):
    decks = starter_decks()
    data = replay.replay_game(decks[deck], decks[opponent], seed=seed, first_player=first, max_rounds=8)
    frames = data["frames"]
    by_line = {f["log_index"]: k for k, f in enumerate(frames)}
    opened = {"exact": 0, "decision": 0, "base": 0}
    for step in range(len(frames)):
        where = sandbox.at_replay_step(data, step, CATALOGUE)
        if where is None:   # §4 setup: no position
            continue
        position, actions, how = where
        opened[how] += 1
        if how == "base":   # the position alone, said so on the page: not the replay's game from there
            continue
        g = sandbox.run(position, actions, CATALOGUE)
        lines = [x for x in g.logs if not x.endswith(sandbox.SETTLED)]
        if how == "exact":
            assert lines == [], f"step {step}: a game loaded from its position ran on: {lines[:3]}"
            at = step
        else:
            at = by_line[frames[step]["base_log"] + len(lines) - 1]
            assert at <= step
        assert board_key(replay.board_of(g.view(0))) == board_key(frames[at]["board"]), \
            f"step {step} ({how}, opened at step {at}): {frames[at]['raw']}"
    assert opened["exact"] >= 10 and opened["decision"] >= 10
