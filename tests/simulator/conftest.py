"""Fixtures for the simulator tests (the engine's own tests live in tests/simulator/engines/r1/)."""
import random
import types

import pytest

from simulator.engines.r1 import GameResult

from .cards import CAMELOT_LIST, CARD_FILE, WINTER_LIST, sim_cards


@pytest.fixture
def sim_pool():
    from decks.pool import CardPool

    return CardPool.from_cards(sim_cards())


@pytest.fixture
def camelot_text():
    return CAMELOT_LIST.read_text(encoding="utf-8")


@pytest.fixture
def winter_text():
    return WINTER_LIST.read_text(encoding="utf-8")


@pytest.fixture
def sim_db(db):
    """The simulator's test cards in the database (rolled back with the test)."""
    from django.core.management import call_command

    call_command("loadcards", str(CARD_FILE), verbosity=0)


# Hand-made game results for the report tests: the engine's own result type, filled in by the test.
FakeResult = GameResult


def fake_play_game(deck_a, deck_b=None, *, seed, first_player=None, policies=("greedy", "greedy"), max_rounds=50,
                   log=False):
    """A stand-in for interface 1: a deterministic game outcome drawn from the seed."""
    rng = random.Random(seed)
    rounds = rng.randint(3, 8)
    first = first_player if first_player is not None else rng.randint(0, 1)
    roll = rng.random()
    if roll < 0.6:
        winner, reason = 0, "influence"
    elif roll < 0.7:
        winner, reason = (None, "round_limit") if deck_b is None else (1, "elimination")
    else:
        winner, reason = (1, "influence") if deck_b is not None else (None, "elimination")
    influence = [[min(15, 3 * (r + 1)), r] for r in range(rounds)]
    return FakeResult(winner=winner, reason=reason, rounds=rounds, first_player=first,
                      influence_by_round=influence, wealth_spent_by_round=[[4, 0]] * rounds,
                      cards_played_by_round=[[2, 0]] * rounds, struggles_won_by_round=[[1, 0]] * rounds,
                      stuck_in_hand={"Clay Golem": 1} if rng.random() < 0.5 else {},
                      cards_played={"Squire": rounds}, log=["R1 Quest: embark"] if log else None)


@pytest.fixture
def fake_engine(monkeypatch):
    """Replace the engine seen by the simulator with a fake one (aggregation tests need exact inputs)."""
    from simulator import runner

    class DeckError(ValueError):
        pass

    def build_deck(entries):
        if not any(c["type"] == "quest" for c, _ in entries):
            raise DeckError("no quests")
        return types.SimpleNamespace(unsupported_cards=["Ambush"])

    engine = types.SimpleNamespace(ENGINE_VERSION="fake-1", build_deck=build_deck, play_game=fake_play_game,
                                   DeckError=DeckError)
    monkeypatch.setattr(runner, "engine_module", lambda: engine)
    runner._prepared.clear()
    yield engine
    runner._prepared.clear()


def own(client, run):
    """Make `client` (an anonymous test client) the owner of `run`, as if its session had asked for it: runs are
    private to their owner (simulator/access.py)."""
    from simulator.access import SESSION_OWNER

    session = client.session
    session[SESSION_OWNER] = session.get(SESSION_OWNER) or "test-owner"
    session.save()
    type(run).objects.filter(pk=run.pk).update(user=None, session_key=f"o:{session[SESSION_OWNER]}")
    return run
