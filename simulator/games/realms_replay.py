"""The realms board in the replay viewer: /realms/simulate/runs/ID/games/N/?step=S, under the realms navigation.

Game N of the run (0-based in the address, "game N+1" on every page) is played again from its seed
(simulator/engines/realms/replay.py) and each decision is a step: the board (Leaders, the Settlements on their grid,
Borderlands and Strike Force as card images with their CV and Equipment, Reserves, the VP race), the events since
the last step in plain words with the rule each follows as a link to the rulebook page, and the choice made there.
Keyboard: ← → step, PageUp / PageDown turn, Home / End (static/js/play-keys.js).
"""
from __future__ import annotations

import re

from django.core.cache import cache
from django.http import Http404
from django.shortcuts import render

from simulator.engines.realms import ENGINE_VERSION
from simulator.engines.realms import replay as rr
from simulator.engines.realms import sim


def replayed(run, index: int) -> dict:
    """Game `index` of a realms run, replayed (cached an hour per run, game and engine version)."""
    key = f"realms-replay:{run.pk}:{index}:{ENGINE_VERSION}"
    out = cache.get(key)
    if out is None:
        spec = run.spec
        if spec.get("engine_version") != ENGINE_VERSION:
            raise rr.ReplayError(f"this run was played by an earlier version of the rules engine ("
                                 f"{spec.get('engine_version')}, now {ENGINE_VERSION}): its games cannot be "
                                 "replayed exactly")
        args = rr.game_args(spec, index)
        deck_b = sim._engine_deck(spec["opponent"]) if spec["mode"] == "versus" else None
        out = rr.replay_game(sim._engine_deck(spec["deck"]), deck_b, seed=args["seed"],
                             first_player=args["first_player"], policies=args["policies"], fmt=args["fmt"],
                             max_rounds=args["max_rounds"])
        out["index"] = index
        cache.set(key, out, 3600)
    return out


def names_of(run) -> list[str]:
    """The decks' own names (the run's, else its spec's); a pasted list without one is the first or second deck.
    Never the Leaders' names: each side's header shows its revealed Leader beside its deck's name."""
    spec = run.spec or {}
    a = run.deck_name or (spec.get("deck") or {}).get("name") or "First deck"
    if run.mode != "versus":
        return [a, "the goldfish"]
    b = run.opponent_name or (spec.get("opponent") or {}).get("name") or "Second deck"
    return [a, b + " (2)" if a == b else b]


def card_names(spec: dict) -> dict[str, str]:
    """Card code -> name over both decks of the run (the words of the choices)."""
    out = {}
    for side in ("deck", "opponent"):
        for card, _ in (spec.get(side) or {}).get("entries") or []:
            out[card["code"]] = card["name"]
    return out


# ---- words: the engine's log lines and choices as sentences ---------------------------------------------------
LINE_RE = re.compile(r"^T(?P<turn>\d+) P(?P<seat>\d) (?:(?P<doc>\d{3}) )?(?P<rule>§[\d.]+|R\d+) ?(?P<body>.*)$")
CODE_RE = re.compile(r"\b[a-z]{2,5}-\d{3}(?:#\d+)?\b")
NOTE_RE = re.compile(r"\s*\(R\d+\)|\bR\d+: ?")   # the engine notes' own ruling numbers, not the rulebook's
TACTICS = {"left": "the left flank", "front": "the front", "right": "the right flank"}
ZONES = {"strike": "the Strike Force", "borderlands": "the Borderlands"}


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def board_context(frame: dict, names, your_turn: str | None = None) -> dict:
    """What games/realms/replay.html draws from a step's board besides the board: the VP race, the two sides, the
    ticks of the track and whose turn it is (`your_turn`: the words for seat 0's turn at a table, "Your")."""
    board = frame["board"]
    target = board["target_vp"]
    race = [{"name": names[p], "vp": pl["vp"], "pct": min(100, round(100 * pl["vp"] / target)) if target else 0,
             "seat": p} for p, pl in enumerate(board["players"])]
    sides = [{"p": p, "name": names[p], "pl": pl, "active": board["active"] == p and not board["over"]}
             for p, pl in enumerate(board["players"])]
    p = board["active"]
    active = None if board["over"] or board["step"] in ("leader", "mulligan") else (
        your_turn if p == 0 and your_turn else possessive(names[p]))
    return {"race": race, "sides": sides, "ticks": list(range(0, target + 1, 10)), "active_name": active}


def _named(text: str, cards: dict[str, str]) -> str:
    """Card codes (a copy's `#k` too) read as the cards' names."""
    return CODE_RE.sub(lambda m: cards.get(m.group(0).split("#")[0], "a card"), text)


def event(line: str, names: list[str], cards: dict[str, str]) -> dict:
    """One log line as {"seat", "text", "rule"}: the player's name for "P0", the action as a sentence, and the
    rulebook section it follows ("§12", shown as a link) apart from the words."""
    m = LINE_RE.match(line)
    if m is None:
        return {"seat": None, "text": _named(NOTE_RE.sub("", line), cards), "rule": ""}
    seat = int(m.group("seat"))
    name = names[seat] if seat < len(names) else f"Player {seat + 1}"
    body = _named(NOTE_RE.sub("", m.group("body")), cards).replace(" -> ", " → ").strip()
    if body.startswith(("turn ", "raiders ")):
        text = f"{possessive(name)} {body}"
    elif body.startswith("the ") or " vs " in body:   # a rule's note, or a fight between both sides' cards
        text = body
    elif body[:1].islower():
        text = f"{name} {body}"
    elif body.startswith("Resource Balancing"):
        text = f"{name}: {body}"
    else:   # a card of this side: "Stables is cut off from the Supply Line"
        text = f"{possessive(name)} {body}"
    rule = m.group("rule")
    return {"seat": seat, "text": text[:1].upper() + text[1:], "rule": rule if rule.startswith("§") else ""}


def _group(text: str, cards: dict[str, str]) -> str:
    return " + ".join(_named(part, cards) for part in text.split("+"))


def choice(action: str | None, cards: dict[str, str]) -> str | None:
    """A choice of the engine's action text ("recruit fb-084 strike") as words ("recruits Lone Wolf into the
    Strike Force"), to follow the player's name."""
    if not action:
        return None
    words = action.split()
    verb, rest = words[0], words[1:]
    one = _named(rest[0], cards) if rest else ""
    if verb == "done":
        return "ends this step"
    if verb == "pass":
        return "passes"
    if verb == "keep":
        return "keeps the opening hand"
    if verb == "mulligan":
        return "takes a new opening hand"
    if verb == "leader" and rest:
        return f"chooses {one} as Leader"
    if verb == "pay":
        return "pays for every card" if rest == ["all"] else f"pays for {one}"
    if verb == "at" and rest:
        return f"places it at {rest[0].replace(',', ', ')} on the Settlement grid"
    if verb == "recruit" and rest:
        zone = ZONES.get(rest[1], rest[1]) if len(rest) > 1 else ""
        return f"recruits {one}" + (f" into {zone}" if zone else "")
    if verb == "play" and rest:
        return f"plays {one}" + (f" on {_named(rest[2], cards)}" if len(rest) > 2 and rest[1] == "on" else "")
    if verb == "attack" and len(rest) >= 2:
        side = f" on {TACTICS.get(rest[2], rest[2])}" if len(rest) > 2 else ""
        return f"attacks {_group(rest[1], cards)} with {_group(rest[0], cards)}{side}"
    if verb == "raid" and len(rest) >= 3:
        return f"raids {one} on {TACTICS.get(rest[1], rest[1])} with {_group(rest[2], cards)}"
    if verb == "group" and len(rest) >= 2:
        return f"forms an {rest[0]} Group of {_group(rest[1], cards)}"
    plain = {"build": "builds", "move": "moves", "target": "targets", "take": "takes", "discard": "discards",
             "use": "uses", "sacrifice": "sacrifices", "equip": "equips"}
    if verb in plain:
        return " ".join([plain[verb], *(_group(w, cards) if CODE_RE.search(w) else w for w in rest)])
    return _named(action, cards)


def _outcome(data: dict, names: list[str]) -> str:
    w = data["winner"]
    how = "reaching the Victory Point target (002 §1)" if data["reason"] == "vp" else "no winner at the round cap"
    who = f"{names[w]} won by {how}" if w is not None else f"No winner: {how}"
    return (f"{who} after {data['rounds']} rounds, {data['vp'][0]}–{data['vp'][1]} VP. "
            f"{names[data['first_player']]} went first.")


def replay_page(request, run, game_spec, index: int):
    from simulator.views_play import replay_share_context

    from .views import asked_step, replay_url

    games = int((run.spec or {}).get("games") or 0)
    if run.status != "done" or not 0 <= index < games:
        raise Http404(f"This run has games 1 to {games}; there is no game {index + 1}." if games else
                      "This run has no games to replay yet.")
    try:
        data = replayed(run, index)
    except rr.ReplayError as exc:
        return render(request, "simulator/replay_error.html", {"run": run, "message": str(exc)}, status=400)
    frames = data["frames"]
    step = asked_step(request, len(frames))
    frame = frames[step]
    base = replay_url("realms", run.ref, index) + "?step="
    links = {k: (f"{base}{v}" if v is not None else None) for k, v in rr.step_targets(frames, step).items()}
    names = names_of(run)
    cards = card_names(run.spec)
    board = frame["board"]
    actor = names[frame["actor"]] if frame["actor"] in (0, 1) else None
    return render(request, "games/realms/replay.html", {
        **board_context(frame, names), "outcome": _outcome(data, names),
        "game": game_spec, "run": run, "data": data, "frame": frame, "board": board, "names": names,
        "events": [event(line, names, cards) for line in frame["lines"]],
        "step": step, "steps": len(frames), "links": links, "index": index,
        "actor_name": actor,
        "next_choice": choice(frame["action"], cards) if actor else None,
        "games": [{"n": j + 1, "url": replay_url("realms", run.ref, j), "now": j == index}
                  for j in range(min(games, 10))],
        "run_url": run.get_absolute_url(),
        **replay_share_context(request, run, lambda ref: replay_url("realms", ref, index, step))})
