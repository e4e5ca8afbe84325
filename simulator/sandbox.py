"""The judge sandbox: a CONTRACTS §6 position loaded, stepped one action text at a time, exported.

The sandbox's state is the position it started from plus the action texts applied since (exactly what the
judge reads: a position's `"actions"` list), so it needs no storage and its export loads again in
`python manage.py judge`. A judge sees both hands.
"""
from __future__ import annotations

from typing import Any

from roc_site.inputs import InputError, loads

from . import replay

ZONES = ("hand", "deck", "field", "discard", "dead", "secret", "quest_deck")
MAX_POSITION_BYTES = 1_000_000   # a real position is a few kilobytes
MAX_ACTIONS = 2_000              # a whole game is a few hundred decisions
MAX_ACTION_CHARS = 500


class SandboxError(ValueError):
    """A position the loader refused or an action that is not an option: `field` says where to show it."""

    def __init__(self, message: str, field: str = "position", index: int | None = None):
        super().__init__(message)
        self.field = field
        self.index = index


def builder_fields() -> list[tuple[str, str, str]]:
    """The builder's fields of one player: (key, label, kind); the form's names are pN_key."""
    return ([("faction", "Faction", "code"), ("quest", "Quest", "code"), ("influence", "Influence", "number"),
             ("pool", "Wealth", "number")] + [(z, z.replace("_", " ").capitalize(), "zone") for z in ZONES])


def builder_field_of(message: str) -> str | None:
    """The builder's field a loader message names ("player 1, field: unknown card x" -> "p1_field")."""
    import re
    m = re.match(r"player ([01]), (\w+)", message or "")
    if m and m.group(2) in {k for k, _l, _t in builder_fields()}:
        return f"p{m.group(1)}_{m.group(2)}"
    if (message or "").startswith("round:"):
        return "round"
    return None


def parse_actions(text: str) -> list[str]:
    """The page's hidden `actions` field: a JSON list of action texts, bounded."""
    try:
        actions = loads(text, field="actions", max_bytes=MAX_ACTIONS * (MAX_ACTION_CHARS + 8))
    except InputError as exc:
        raise SandboxError(str(exc), field="action") from None
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise SandboxError("actions: a list of action texts", field="action")
    if len(actions) > MAX_ACTIONS:
        raise SandboxError(f"actions: {len(actions):,} actions; at most {MAX_ACTIONS:,}", field="action")
    for n, text in enumerate(actions):
        check_action(text, n)
    return actions


def check_action(text: str, index: int) -> str:
    if len(text) > MAX_ACTION_CHARS:
        raise SandboxError(f"action {index}: {len(text):,} characters; an action is at most {MAX_ACTION_CHARS}",
                           field="action")
    return text


def check_size(position: dict) -> None:
    """At most a deck's worth of cards per player (decks.services.MAX_DECK_CARDS, counting every zone and
    attachment): the rules set no upper size for a deck (000 §11: at least 60 draw cards), the site's decks
    stop there, and the engine's work per decision grows with the cards it can name."""
    from decks.services import MAX_DECK_CARDS

    players = position.get("players")
    if not isinstance(players, list):
        return   # the loader names what is wrong with it
    for p, pl in enumerate(players[:2]):
        if not isinstance(pl, dict):
            continue
        sizes = {}
        for zone in (*ZONES, "out_of_game", "used_quests"):
            cards = pl.get(zone)
            if isinstance(cards, list):
                sizes[zone] = len(cards)
                if zone == "field":
                    sizes[zone] += sum(len(c.get("attachments") or []) for c in cards
                                       if isinstance(c, dict) and isinstance(c.get("attachments"), list))
        total = sum(sizes.values())
        if total > MAX_DECK_CARDS:
            biggest = max(sizes, key=sizes.get)   # named first, so the builder shows the message at that field
            raise SandboxError(f"player {p}, {biggest}: {sizes[biggest]:,} cards, {total:,} in all zones; a player "
                               f"has at most {MAX_DECK_CARDS} cards in a position", field="position")


def parse(text: str | bytes) -> dict:
    if not text or not text.strip():
        raise SandboxError("paste a position (a JSON object, CONTRACTS §6), upload one, or build one below")
    try:
        data = loads(text, field="position", max_bytes=MAX_POSITION_BYTES)
    except InputError as exc:   # shown next to the position field: the field's name would only repeat it
        raise SandboxError(str(exc).removeprefix("position: ")) from None
    if not isinstance(data, dict):
        raise SandboxError("a position is a JSON object")
    return data


def build(form: dict) -> dict:
    """A position from the builder's fields: per player `pN_faction`, `pN_quest`, `pN_influence`, `pN_pool` and
    one field per zone listing card codes separated by spaces, commas or new lines (a `*` after a field code:
    exhausted)."""
    players = []
    for p in (0, 1):
        def codes(zone: str) -> list[str]:
            raw = form.get(f"p{p}_{zone}", "") or ""
            return [c for c in raw.replace(",", " ").split() if c]
        pl: dict[str, Any] = {"faction": (form.get(f"p{p}_faction") or "").strip() or None}
        q = (form.get(f"p{p}_quest") or "").strip()
        if q:
            pl["quest"] = q
        for key in ("influence", "pool"):
            v = (form.get(f"p{p}_{key}") or "").strip()
            if v:
                try:
                    pl[key] = int(v)
                except ValueError:
                    raise SandboxError(f"player {p}, {key}: {v!r} is not a whole number", field=f"p{p}_{key}") from None
        for zone in ZONES:
            if zone == "field":
                pl["field"] = [{"card": c.rstrip("*"), "exhausted": c.endswith("*")} for c in codes("field")]
            elif codes(zone):
                pl[zone] = codes(zone)
        players.append(pl)
    if players[1]["faction"] is None:
        players[1] = {"faction": None}
    try:
        rnd = int(form.get("round") or 1)
    except ValueError:
        raise SandboxError("round: a whole number", field="round") from None
    phase = form.get("phase") or "confrontation"
    first = form.get("first") or "0"
    if first not in ("0", "1"):
        raise SandboxError("first player: 0 or 1", field="first")
    return {"game": "r1", "seed": 1, "round": rnd, "phase": phase, "first_player": int(first),
            "active_player": int(first) if phase in ("kingdom", "confrontation") else None,
            "authority": None, "players": players}


def _settle(g) -> list[str]:
    """Take the decisions with exactly one option (CONTRACTS §6), as the judge does; their texts."""
    from simulator.engines.r1.actions import option_texts
    taken = []
    while g.pending is not None and not g.is_terminal():
        opts = option_texts(g)
        if len(opts) != 1:
            break
        if g.logs is not None:
            g.logs.append(f"R{g.round_no} player {g.pending.player} {g.pending.kind}: {opts[0]} (the only option: "
                          "taken by itself)")
        taken.append(opts[0])
        g.apply_action(opts[0])
    return taken


def run(position: dict, actions: list[str], catalogue) -> Any:
    """The Game after loading `position` and applying its "actions" and then `actions` (SandboxError naming the
    action's index and the options there when one is not an option)."""
    from simulator.engines.r1 import IllegalAction
    from simulator.engines.r1.actions import option_texts
    from simulator.engines.r1.positions import PositionError, from_position
    check_size(position)
    saved = position.get("actions") or []
    if not isinstance(saved, list) or not all(isinstance(a, str) for a in saved):
        raise SandboxError("actions: a list of action texts")
    todo = list(saved) + list(actions)
    if len(todo) > MAX_ACTIONS:
        raise SandboxError(f"actions: {len(todo):,} actions; at most {MAX_ACTIONS:,}", field="action")
    body = {k: v for k, v in position.items() if k != "actions"}
    try:
        g = from_position(body, catalogue, log=True)
    except PositionError as exc:
        raise SandboxError(str(exc)) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:   # a shape the loader did not foresee: still the field's message
        raise SandboxError(f"refused: {exc}") from None
    _settle(g)
    for n, text in enumerate(todo):
        if g.pending is None:
            raise SandboxError(f"action {n} ({text!r}): the game is over", field="action", index=n)
        opts = option_texts(g)
        try:
            g.apply_action(str(text))
        except IllegalAction:
            raise SandboxError(f"action {n} ({text!r}) is not an option; the options: {', '.join(opts)}",
                               field="action", index=n) from None
        _settle(g)
    return g


def seat_names(board: dict) -> tuple[str, str]:
    """A judge's names of the two sides: each side's faction ("Camelot"), never "player 0"; two sides of one
    faction, or a side with none, by their seat."""
    names = []
    for p, seat in ((0, "first seat"), (1, "second seat")):
        pl = board["players"][p]
        fac = pl.get("faction") if not pl.get("goldfish") else None
        names.append(fac["name"] if fac else f"The {seat}" if not pl.get("goldfish") else "The goldfish")
    if names[0] == names[1]:
        names = [f"{names[0]} (first seat)", f"{names[1]} (second seat)"]
    return names[0], names[1]


def card_words(g) -> dict[str, str]:
    """Every way an action text names a card here (its code, a position's label) -> its name."""
    out = {d.code: d.name for d in g.cdef if d is not None}
    for i, label in (getattr(g, "labels", None) or {}).items():
        out[label] = g.cdef[i].name
    return out


def option_words(text: str, words: dict[str, str], names: tuple[str, str]) -> str:
    """An action text as the sandbox's button reads it: "attack core-139" -> "Attack Gawain", "first 1" ->
    "Winter goes first", "struggle combat" -> "Initiate a Combat struggle"."""
    from .playtest import _option_label
    w = text.split()
    if len(w) == 2 and w[0] == "first" and w[1] in ("0", "1"):
        return f"{names[int(w[1])]} goes first"
    return _option_label(text, words, names)


def view_context(g, names=None) -> dict:
    """The board as a judge sees it (both hands), the sides by name, the pending decision's options in words and
    the log with its rules."""
    from simulator.engines.r1.actions import option_texts
    from simulator.engines.r1.positions import to_position
    b0 = replay.board_of(g.view(0), show_hand=True)
    if not g.goldfish:
        b1 = replay.board_of(g.view(1), show_hand=True)
        b0["players"][1]["hand_cards"] = b1["players"][1].get("hand_cards", [])
        b0["players"][1]["secret_cards"] = b1["players"][1].get("secret_cards", [])
    names = tuple(names) if names else seat_names(b0)
    words = card_words(g)
    pending = None
    if g.pending is not None and not g.is_terminal():
        from .playtest import KIND_HELP
        texts = option_texts(g)
        pending = {"player": g.pending.player, "name": names[g.pending.player], "kind": g.pending.kind,
                   "options": texts, "labels": [{"text": t, "label": option_words(t, words, names)} for t in texts],
                   "help": KIND_HELP.get(g.pending.kind, "")}
    try:
        current = to_position(g) if not g.is_terminal() else None
    except ValueError:
        current = None
    return {"board": b0, "pending": pending, "winner": g.winner, "reason": g.reason, "names": list(names),
            "words": words,
            "log": [dict(replay.plain_line(x, names, words), raw=x) for x in (g.logs or [])],
            "current": current}


SETTLED = "(the only option: taken by itself)"


def _is_option(g, text: str) -> bool:
    from simulator.engines.r1 import IllegalAction
    from simulator.engines.r1.actions import parse_text
    try:
        parse_text(g, text)
    except IllegalAction:
        return False
    return True


def at_replay_step(data: dict, step: int, catalogue) -> tuple[dict, list[str], str] | None:
    """Where a replay step opens in the sandbox: (position, actions, how), or None (during §4 setup).

    `how` is "exact" when a position was taken right there; else "decision": the last position taken before the
    step (the start of that turn, or the end of the last struggle) with the action texts of every decision made
    since, up to the last decision at or before the step, which waits (CONTRACTS §6: a position and its
    "actions"; inside a struggle, stepping it continues the same struggle); or "base" (that last position alone)
    when those decisions cannot be replayed from it exactly. A game loaded from the position is played with the
    replay's trail of decisions (`replay.replay_game`): windows the replay's players passed by their shortcut
    are answered `pass`, a declaration made at once is its listing; the loaded game's log must read line for line
    as the replay's, else "base"."""
    from simulator.engines.r1 import IllegalAction
    from simulator.engines.r1.positions import from_position

    frames = data["frames"]
    f = frames[max(0, min(step, len(frames) - 1))]
    if f.get("position") is not None:
        return f["position"], [], "exact"
    base = f.get("base_position")
    if base is None:
        return None
    if "log_index" not in f or "trail" not in data:
        return base, [], "base"
    end = f["log_index"] + 1   # the decisions asked once the step's line is logged, at the latest
    base_log = f["base_log"]
    todo = [e for e in data["trail"][f["base_trail"]:] if e["n"] <= end and not e["single"]]
    if not todo:
        return base, [], "exact" if base_log == end else "base"
    log = [x for fr in frames for x in fr["raw"]]
    try:
        g = from_position(base, catalogue, log=True)
    except Exception:   # noqa: BLE001  a position the replay took always loads; if not, the position alone
        return base, [], "base"
    _settle(g)
    actions: list[str] = []
    i = 0
    for _ in range(10_000):
        d = g.pending
        if d is None:
            break
        lines = [x for x in (g.logs or []) if not x.endswith(SETTLED)]
        n = base_log + len(lines)
        if n > end or lines != log[base_log:n]:
            break   # not the replay's game any more
        while i < len(todo) and todo[i]["n"] < n:
            i += 1
        window = d.kind in ("window", "react")
        match = None
        k = i
        while k < len(todo) and todo[k]["n"] == n:
            e = todo[k]
            # the same decision: kind, player, a window's kind (other decisions' info names card ids, which a
            # loaded game numbers its own way), and its text one of the options here (a window action recorded in
            # the active player's window is not one of the other player's options in an earlier one)
            if e["kind"] == d.kind and e["player"] == d.player and (
                    not window or e["info"] is None or e["info"] == d.info) and _is_option(g, e["text"]):
                match = k
                break
            k += 1
        if match == len(todo) - 1:
            return base, actions, "decision"   # the step's decision waits here
        if match is not None:
            text = todo[match]["text"]
            i = match + 1
        elif window:
            text = "pass"   # a window the replay's player passed by its shortcut (or never saw)
        else:
            break
        try:
            g.apply_action(text)
        except IllegalAction:
            break
        actions.append(text)
        _settle(g)
    return base, [], "base"


def posted(request) -> dict:
    """The position a sandbox form loads: its uploaded file (at most MAX_POSITION_BYTES) or its pasted text."""
    upload = request.FILES.get("upload")
    if upload is None:
        return parse(request.POST.get("position", ""))
    if upload.size > MAX_POSITION_BYTES:
        raise SandboxError(f"the uploaded file is {upload.size:,} bytes; a position is at most "
                           f"{MAX_POSITION_BYTES:,}")
    return parse(upload.read())
