"""Replays of Heroes and Regions games on a board of five Regions (docs/games/regions.md, "Replays").

A run keeps its sample game as a seed, a first player and the engine's log (sim.run_chunk); the game's policies
are the run's, so the game is played again here exactly as it was (the same seed, Heroes and policies give the
same game; any game of the run can be played again from its seed, `replay_game(spec, k)`), and the board is recorded at every decision a player took and once at the end. Each step holds what
the board showed at that moment (Regions with both players' Stacks, control, the Market Piles, the standing
piles, each Hero's Level and hidden-zone counts, Recognition), the decision and the action taken, and the log
lines the engine wrote since the step before. For game 0 it checks the game it played again against the stored
log and says so when they differ (a run made by another engine version).

Pure Python, no Django import (the page is simulator/games/regions_replay.py).
"""
from __future__ import annotations

from .cards import PHASE_NAMES, TYPE_NAMES, CardDef
from .game import N_REGIONS, PHASE_KEYS, Game

MAX_STEPS = 2000      # a replay never records more boards than this (a 60-turn game has some 400 decisions)


def card_json(c: CardDef) -> dict:
    """What a board tile shows of a card: name, code, type, cost and its combat box."""
    return {"code": c.code, "name": c.name, "type": TYPE_NAMES[c.type], "cost": c.cost, "damage": c.damage,
            "health": c.health, "goods": c.goods}


def board(g: Game) -> dict:
    """The whole public board now, plus the counts of every hidden zone (what a spectator of a replay sees)."""
    players = []
    for p in range(g.n):
        parts = g.score_parts(p)
        players.append({
            "hero": g.heroes[p].name, "hero_code": g.heroes[p].code, "level": g.level[p],
            "hand": len(g.hand[p]), "deck": len(g.deck[p]), "discard": len(g.discard[p]),
            "pocket": len(g.pocket[p]), "played": len(g.played[p]), "owned": sum(g.owned_t[p]),
            "score": g.score(p), "score_parts": parts,
            "recognition_cards": g.rec_owned[p], "controlled": g.ctrl.count(p),
        })
    regions = []
    for r in range(N_REGIONS):
        region = g.regions[r]
        regions.append({
            "name": region.name, "short": region.short, "code": region.code, "quest_phase": PHASE_NAMES[
                region.quest_phase], "control": g.ctrl[r],
            "stacks": [[card_json(c) for c in g.stacks[p][r]] for p in range(g.n)],
            "damage": [g.stack_damage(p, r) for p in range(g.n)],
            "health": [sum(c.health for c in g.stacks[p][r]) for p in range(g.n)],
        })
    standing = []
    for c in g.standing:
        standing.append({**card_json(c), "count": g.rec_pile if c.type == 4 else None})
    market = [{"top": card_json(pile[-1]) if pile else None, "count": len(pile)} for pile in g.mpiles]
    return {
        "turn": g.turn, "phase": PHASE_KEYS[g.phase], "priority": g.prio, "recognition_pile": g.rec_pile,
        "recognition_total": g.cs.recognition_total, "regions": regions, "players": players,
        "standing": standing, "market": market, "market_deck": len(g.mdeck), "market_discard": len(g.mdiscard),
        "over": g.over, "winners": list(g.winners),
    }


class _Recorder:
    """Wraps each player's policy: records the board, the decision and the answer, then returns the answer."""

    def __init__(self, game: Game, policies: list, steps: list):
        self.game = game
        self.policies = policies
        self.steps = steps
        self.log_at = 0

    def actor(self, p: int):
        pol = self.policies[p]

        def act(view, d):
            a = pol.act(view, d)    # the policy decides from its view; the recorder reads the whole board
            if len(self.steps) < MAX_STEPS:
                self.record(self.game, d.kind, d.player, self.game.action_text(a))
            return a
        return act

    def record(self, g: Game, kind: str | None, player: int | None, action: str | None) -> None:
        logs = g.logs or []
        self.steps.append({"board": board(g), "decision": kind, "player": player, "action": action,
                           "lines": list(logs[self.log_at:])})
        self.log_at = len(logs)


def play_recorded(heroes: list, policies: list, *, seed: int, first_player: int | None, max_turns: int,
                  cardset=None) -> tuple[Game, list[dict]]:
    """Play one game with `policies` (objects with act / skip) and record a step at every decision."""
    from .cards import CardSet

    cs = cardset or CardSet.default()
    game = Game(cs, heroes, seed=seed, first_player=first_player, max_turns=max_turns, log=True, autostart=False)
    steps: list[dict] = []
    rec = _Recorder(game, policies, steps)
    rec.record(game, None, None, None)          # the board after setup (003 §2), before the first Hero phase
    steps[0]["setup"] = True
    game._run()
    game.play([rec.actor(p) for p in range(game.n)], [getattr(pol, "skip", None) for pol in policies])
    rec.record(game, None, None, None)
    return game, steps


MAX_SAMPLE_GAMES = 6   # the report links the first games of a run to their replays


def game_seed(spec: dict, k: int) -> tuple[int, int]:
    """(seed, first player) of game k of the run `spec`, as sim.run_chunk deals them."""
    import random

    from . import sim

    if not 0 <= k < spec["games"]:
        raise ValueError(f"game {k}: the run has games 0 to {spec['games'] - 1}")
    for index, start, size in sim.chunk_plan(spec["games"], sim.is_slow(spec["settings"])):
        if start <= k < start + size:
            rng = random.Random(sim.chunk_seed(spec["seed"], index))
            for _ in range(k - start):
                rng.getrandbits(63)
            return rng.getrandbits(63), k % 2
    raise AssertionError("unreachable: the chunks cover every game")


def replay_game(spec: dict, k: int = 0, sample: dict | None = None) -> dict:
    """Game k of a versus run played again (the same seed, Heroes and policies as in the run), with a board at
    each step.

    Returns {"game", "seed", "first_player", "steps", "matches", "winner", "reason", "turns", "heroes",
    "policies"}. For game 0, `sample` (the run's stored sample_log) is checked: `matches` is False when the game
    played again does not end as the stored log does (a run made by another engine version); None when there is
    nothing stored to check against."""
    from . import sim

    a = sim._strategy(spec["deck"]["text"])
    b = sim._strategy(spec["opponent"]["text"])
    seed, first = game_seed(spec, k)
    pols = [sim._policy(spec["policies"][0], a, sim.policy_seed(seed, 0)),
            sim._policy(spec["policies"][1], b, sim.policy_seed(seed, 1))]
    game, steps = play_recorded([spec["deck"]["hero"], spec["opponent"]["hero"]], pols, seed=seed,
                                first_player=first, max_turns=spec["settings"]["max_turns"])
    matches = None
    if sample is not None and k == 0:
        stored = list(sample.get("lines") or [])
        played = list(game.logs or [])
        matches = played[:len(stored)] == stored and game.winner == sample.get("winner") and \
            game.reason == sample.get("reason") and int(sample.get("seed", -1)) == seed
    return {"game": k, "seed": seed, "first_player": first, "steps": steps, "matches": matches,
            "winner": game.winner, "reason": game.reason, "turns": game.turn,
            "heroes": [h.name for h in game.heroes], "policies": list(spec["policies"])}


def step_title(step: dict) -> str:
    b = step["board"]
    if step["decision"] is None:
        return "Game over" if b["over"] else "Setup"
    return f"Turn {b['turn']} · {b['phase'].title()} · p{step['player']} {step['action']}"


def turn_index(steps: list[dict]) -> list[tuple[int, int]]:
    """[(turn, first step of that turn)] for the page's turn list."""
    out: list[tuple[int, int]] = []
    for i, s in enumerate(steps):
        t = s["board"]["turn"]
        if not out or out[-1][0] != t:
            out.append((t, i))
    return out
