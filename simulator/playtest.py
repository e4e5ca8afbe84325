"""The playtest table: a person plays player 0 against an AI policy, one decision at a time. Who is
the first player at setup is the person's choice — themselves, the AI, or by the rules (§4: at random); from
round 1's Quest phase on §5.1's Momentum decides. Player 0 is only the person's seat, not an advantage.

A saved game (`PlaytestGame`) is both decks (their card dicts, so a catalogue change cannot alter a game in
progress), the seed, the AI's policy and the game's action history; it is rebuilt by replaying that history
(`Game.clone`'s machinery: every choice and every shortcut answer the AI's policy gave is recorded), so a game
resumes after a reload, a restart or a new log-in. A process keeps the last games it served in memory, so a
decision costs one action and the AI's answers, not a replay.

What the page gets is built from `Game.view(HUMAN)` (replay.board_of): the player's own hand and secret area,
the public zones, and only counts of the AI's hand and of both decks.
"""
from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from . import replay, runner

HUMAN = 0
AI = 1
POLICIES = ("greedy", "expert")
_live: "OrderedDict[str, Any]" = OrderedDict()   # token -> Game, the most recently used last
_live_lock = threading.Lock()
LIVE_MAX = 64


class PlaytestError(ValueError):
    """A request the table cannot take (an action that is not an option, a finished game); the message says why."""


class _Seat:
    """The person's seat: its decisions always wait for the page (play() stops before them)."""

    def choose(self, view, decision):   # pragma: no cover - play() never asks it (stop() comes first)
        raise RuntimeError("the person decides through the page")


def new_token() -> str:
    return secrets.token_urlsafe(12)


def _decks(deck: dict, opponent: dict):
    return runner.engine_deck(deck), runner.engine_deck(opponent)


def available_policies() -> list[str]:
    from simulator.engines.r1.policies import POLICIES as known
    return [p for p in POLICIES if p in known]


def _ai(policy: str, seed: int):
    from simulator.engines import r1 as engine
    return engine.make_policy(policy, engine._policy_seed(seed, AI))


def _encode(history: list) -> list:
    return [list(a) if isinstance(a, tuple) else a for a in history]


def _decode(history: list) -> list:
    # actions were tuples whose first item is a word; a declaration shortcut is a list starting with a player
    return [tuple(a) if isinstance(a, list) and a and isinstance(a[0], str) else a for a in history]


SEATS = {"first": HUMAN, "second": AI, "rules": None}   # the form's choice -> Game(first_player=...)


def start(deck: dict, opponent: dict, policy: str, seed: int, first_player: int | None = None):
    """A new game, run to the person's first decision. `first_player` is the first player of setup (§4): the
    person (0), the AI (1) or None, by the rules (at random); from round 1's Quest phase on §5.1's Momentum
    decides, and when the person's quest has the higher Momentum they choose, as a decision of their own."""
    from simulator.engines import r1 as engine
    da, db = _decks(deck, opponent)
    return start_with_notes(deck, opponent, policy, seed, first_player)[0]


def rebuild(deck: dict, opponent: dict, policy: str, seed: int, history: list, first_player: int | None = None):
    """The saved game again: the same decks, seed and first player, every recorded choice replayed."""
    from simulator.engines import r1 as engine
    da, db = _decks(deck, opponent)
    base = engine.Game(da, db, seed=seed, first_player=first_player, log=True, autostart=False)
    g = base._replayed(_decode(history), None, True)
    g._set_policies((_Seat(), _ai(policy, seed)))
    return g


def boards_by_line(deck: dict, opponent: dict, seed: int, history: list,
                   first_player: int | None = None) -> tuple[list[str], dict[int, Any]]:
    """The saved game played again from its seed and recorded choices (as `rebuild` does), with the board of the
    person's view taken right after each line the engine logs (the engine's log hook, replay._board_now): the
    log, and {log index: board} (None where the state could not be read mid-change). The replay page shows each
    event with the board after its own line, not the board at the person's next decision."""
    from simulator.engines import r1 as engine
    da, db = _decks(deck, opponent)
    boards: dict[int, Any] = {}

    def on_log(game):
        boards[len(game.logs) - 1] = replay._board_now(game, HUMAN)

    base = engine.Game(da, db, seed=seed, first_player=first_player, log=True, autostart=False)
    g = base._replayed(_decode(history), None, True, on_log)
    return list(g.logs or []), boards


def game_for(record) -> Any:
    """The live Game of a saved record (from memory when this process served it last, else rebuilt)."""
    with _live_lock:
        g = _live.get(record.token)
        if g is not None and len(g.history) == len(record.history or []):
            _live.move_to_end(record.token)
            return g
    g = rebuild(record.deck, record.opponent, record.policy, record.seed, record.history or [],
                getattr(record, "first_player", None))
    remember(record.token, g)
    return g


def remember(token: str, g) -> None:
    with _live_lock:
        _live[token] = g
        _live.move_to_end(token)
        while len(_live) > LIVE_MAX:
            _live.popitem(last=False)


def settle(g) -> list[tuple[int, str]]:
    """Let the AI play and take the person's single-option decisions, up to the person's next real decision or
    the end (CONTRACTS §6: a decision with exactly one option is taken by itself). Returns those decisions as
    (the number of log lines before it, a line saying so) — kept out of the engine's log, so a game rebuilt from
    its history has the same log as the one played."""
    from simulator.engines.r1.actions import option_texts
    notes: list[tuple[int, str]] = []
    while not g.is_terminal():
        d = g.pending
        if d is None or d.player != HUMAN:
            g.play(stop=lambda game, dec: dec.player == HUMAN)
            continue
        opts = option_texts(g)
        if len(opts) == 1:
            notes.append((len(g.logs or []), f"R{g.round_no} player {d.player}: {opts[0]} (the only option, "
                                             "taken by itself)"))
            g.apply_action(opts[0])
            continue
        break
    return notes


def act(g, text: str) -> tuple[float, list[tuple[int, str]]]:
    """Apply the person's action text and run on to their next decision: the seconds it took on this server, and
    the single-option decisions taken on the way (settle)."""
    from simulator.engines.r1 import IllegalAction
    if g.is_terminal():
        raise PlaytestError("this game is over")
    if g.pending is None or g.pending.player != HUMAN:
        raise PlaytestError("it is not your decision")
    t0 = time.perf_counter()
    try:
        g.apply_action(text)
    except IllegalAction as exc:
        raise PlaytestError(str(exc)) from None
    notes = settle(g)
    return time.perf_counter() - t0, notes


def start_with_notes(deck: dict, opponent: dict, policy: str, seed: int, first_player: int | None = None):
    """start(), and the single-option decisions taken before the person's first real one."""
    from simulator.engines import r1 as engine
    da, db = _decks(deck, opponent)
    g = engine.Game(da, db, seed=seed, first_player=first_player, log=True, autostart=False,
                    policies=(_Seat(), _ai(policy, seed)))
    return g, settle(g)


def lines_since(g, seen: int, notes: list[tuple[int, str]]) -> list[str]:
    """The engine's log lines from `seen` on, with the notes of settle() in their places."""
    logs = list((g.logs or [])[seen:])
    for at, text in sorted(notes, key=lambda n: n[0], reverse=True):
        logs.insert(max(0, at - seen), text)
    return logs


def history_of(g) -> list:
    return _encode(g.history)


# ---------------------------------------------------------------- what the page shows
def _label(text: str, names: dict[str, str]) -> str:
    """An action text with card codes shown as names: "play core-020" -> "Play Gawain"."""
    words = text.split()
    out = []
    for w in words:
        base = w.split(".")[0]
        out.append(names.get(w) or names.get(base) or w)
    s = " ".join(out)
    return s[:1].upper() + s[1:]


def _option_label(text: str, catalogue_names: dict[str, str], names: tuple[str, str]) -> str:
    """A button's label: "first 0" -> "You go first" (§5.1), else the action text with card names."""
    words = text.split()
    if len(words) == 2 and words[0] == "first" and words[1] in ("0", "1"):
        who = names[int(words[1])]
        return f"{who} go first" if who == "You" else f"{who} goes first"
    if len(words) == 2 and words[0] == "struggle":
        return f"Initiate a {words[1].title()} struggle"
    if len(words) >= 2 and words[0] == "quest":
        return "Choose the quest " + _label(" ".join(words[1:]), catalogue_names)
    return _label(text, catalogue_names)


KIND_HELP = {
    "mulligan": "Keep this opening hand or mulligan it (once, §4).",
    "setup": "Place your opening board facedown within 8 wealth (§4); done when finished.",
    "setup_host": "Choose the unit this attachment goes on (§4).",
    "quest": "Choose your quest for this round (§5.1).",
    "first_player": "Your quest's Momentum is the highest: choose the first player of this round (§5.1).",
    "window": "Your action: play a card, use an ability, initiate a struggle — or pass (§8.2).",
    "react": "You may respond — or pass (§8).",
    "attackers": "Declare attackers (§6.2 S.3): one at a time, then done.",
    "defenders": "Declare defenders (§6.2 S.6) or defend with none.",
    "subtle": "Subtle (§9.1): bar a defender, or none.",
    "kill_own": "Choose a unit of yours to kill (Combat spoils / Ruthless, §6.1).",
    "emblem": "Choose a unit to take an emblem (Sorcery spoils, §6.1).",
    "refresh_emblem": "Choose the unit whose emblem to remove (§5.6).",
    "toll_discard": "Discard down to your Levy (§5.7).",
    "onwin": "Use this keyword? (§9.2)",
    "target": "Choose a target.",
    "x": "Choose the value of X (§8.7).",
}


def table_context(g, names: tuple[str, str], catalogue_names: dict[str, str]) -> dict:
    """Everything the table shows, from what the person may know (a PlayerView) and their pending decision."""
    from simulator.engines.r1.actions import option_texts
    view = g.view(HUMAN)
    board = replay.board_of(view, show_hand=True)
    pending = None
    if not g.is_terminal() and g.pending is not None and g.pending.player == HUMAN:
        d = g.pending
        opts = option_texts(g)
        pending = {"kind": d.kind, "help": KIND_HELP.get(d.kind, d.kind.replace("_", " ").capitalize()),
                   "options": [{"text": t, "label": _option_label(t, catalogue_names, names),
                                "pass": t in ("pass", "done", "defend none", "bar none", "no", "keep")}
                               for t in opts]}
    card_actions: dict[str, list[dict]] = {}
    for o in (pending or {}).get("options", []):
        words = o["text"].split()
        # an option that names a card is offered on that card too (click the card to play, attack, defend, ...)
        if len(words) >= 2 and words[0] not in ("struggle", "first", "x") and words[1] != "none":
            card_actions.setdefault(words[1].split(".")[0], []).append(
                {"text": o["text"], "verb": _label(" ".join([words[0]] + words[2:]), catalogue_names)})
    return {"board": board, "pending": pending, "card_actions": card_actions, "over": g.is_terminal(), "winner": g.winner,
            "reason": g.reason or ("round_limit" if g.is_terminal() else None), "names": list(names)}


def card_names(*decks: dict) -> dict[str, str]:
    out = {}
    for d in decks:
        for c, _n in d["entries"]:
            out[c["code"]] = c["name"]
    return out


def first_player_words(text: str, names: tuple[str, str]) -> str:
    """§5.1's choice in words: "You choose You as first player" reads "You go first", "AI (X) chooses You as
    first player" reads "AI (X) lets you go first"."""
    me, ai = names
    for chooser in (me, ai):
        for chosen in (me, ai):
            for verb in ("choose", "chooses"):
                said = f"{chooser} {verb} {chosen} as first player"
                if said in text:
                    if chooser == chosen:
                        words = f"{chosen} go first" if chosen == me else f"{chosen} goes first"
                    elif chosen == me:
                        words = f"{chooser} lets you go first"
                    else:
                        words = f"You let {chosen} go first"
                    return text.replace(said, words)
    return text


# ---------------------------------------------------------------- every other game
# A hosted game's table works the same way through its play kit (simulator/games/<game>_play.py, the run module's
# `play_kit` hook): the saved game is the two sides, the seed, the AI and the action texts of every decision, both
# players' (rebuilt by applying them in order: the engines are seeded and every printed text reads back).

class Table:
    """A live hosted game: the engine's game, the AI's policy and the action texts so far."""

    def __init__(self, kit, g, ai, history: list[str]):
        self.kit, self.g, self.ai, self.history = kit, g, ai, history


def kit_for(game: str | None):
    """The play kit of a hosted game (its run module's `play_kit` hook), or None for a game without a table."""
    from .games import run_hook
    hook = run_hook(game, "play_kit")
    return hook() if hook else None


def hosted_start(kit, mine: dict, theirs: dict, policy: str, seed: int, first_player: int | None):
    """A new hosted game run to the person's first real decision: (Table, the notes of decisions taken by
    themselves)."""
    g = kit.new_game(mine, theirs, seed, first_player)
    t = Table(kit, g, kit.ai_policy(policy, theirs, seed), [])
    return t, hosted_settle(t)


def hosted_rebuild(kit, rec) -> Table:
    """The saved game again; PlaytestError when its history no longer plays (a game saved by an engine whose
    rules have changed since)."""
    history = [str(a) for a in (rec.history or [])]
    try:
        g = kit.new_game(rec.deck, rec.opponent, rec.seed, rec.first_player)
        for text in history:
            g.apply_action(text)
        ai = kit.ai_policy(rec.policy, rec.opponent, rec.seed)
    except (ValueError, KeyError, TypeError) as exc:   # IllegalAction, a deck or strategy that no longer reads
        raise PlaytestError(f"this game was saved by another version of the rules engine and cannot be "
                            f"resumed ({str(exc)[:120]})") from None
    return Table(kit, g, ai, history)


def hosted_settle(t: Table) -> list[tuple[int, str]]:
    """The AI's decisions and the person's single-option ones, up to the person's next real decision or the end;
    the notes of the person's decisions taken by themselves (log length before it, the option)."""
    g, kit = t.g, t.kit
    notes: list[tuple[int, str]] = []
    for _ in range(20_000):   # a whole game is a few thousand decisions at most
        d = g.pending
        if d is None or g.is_terminal():
            break
        if d.player != HUMAN:
            text = g.action_text(t.ai.choose(g.view(d.player), d))
        else:
            opts = kit.option_texts(g)
            if len(opts) != 1:
                break
            text = opts[0]
            notes.append((len(g.logs or []), kit.option_label(g, text) + " (the only option, taken by itself)"))
        g.apply_action(text)
        t.history.append(text)
    return notes


def hosted_act(t: Table, text: str) -> tuple[float, list[tuple[int, str]]]:
    g = t.g
    if g.is_terminal():
        raise PlaytestError("this game is over")
    if g.pending is None or g.pending.player != HUMAN:
        raise PlaytestError("it is not your decision")
    if text not in t.kit.option_texts(g):
        raise PlaytestError(f"“{text[:80]}” is not one of your options now; choose one of the buttons")
    t0 = time.perf_counter()
    try:
        g.apply_action(text)
    except t.kit.IllegalAction as exc:
        raise PlaytestError(str(exc)) from None
    t.history.append(text)
    notes = hosted_settle(t)
    return time.perf_counter() - t0, notes


def hosted_game_for(kit, rec) -> Table:
    with _live_lock:
        t = _live.get(rec.token)
        if isinstance(t, Table) and len(t.history) == len(rec.history or []):
            _live.move_to_end(rec.token)
            return t
    t = hosted_rebuild(kit, rec)
    remember(rec.token, t)
    return t


def hosted_lines(kit, raw: list[str], names: tuple[str, str]) -> list[dict]:
    """Log lines as the person reads them: hidden cards of the AI's left out, players and cards named."""
    out = []
    for x in raw:
        seen = kit.visible_line(x, HUMAN)
        if seen is None:
            continue
        ln = kit.line(seen, names)
        ln["raw"] = seen
        out.append(ln)
    return out


def hosted_table_context(t: Table, names: tuple[str, str]) -> dict:
    """The board from the person's seat, their pending decision's options in words, the result."""
    g, kit = t.g, t.kit
    pending = None
    if not g.is_terminal() and g.pending is not None and g.pending.player == HUMAN:
        opts = [{"text": x, "label": kit.option_label(g, x, HUMAN), "pass": kit.is_pass(x)}
                for x in kit.option_texts(g)]
        pending = {"kind": g.pending.kind, "help": kit.decision_help(g), "options": opts}
    board = kit.board(g, names)
    return {"board": board, "pending": pending, "over": g.is_terminal(), "winner": kit.winner(g),
            "reason": kit.reason(g) if g.is_terminal() else "", "names": list(names),
            "card_actions": kit.hand_actions(g, pending["options"]) if pending else {}}


def with_subject(who: str | None, text: str) -> tuple[str | None, str]:
    """A log line's subject and its text: "You" + "builds Farmstead and draws 2" -> ("You", "build Farmstead and
    draw 2"); a text that does not start with a verb ("Ser Caldwen: gains 1 Gold", "turn 1 begins") keeps no
    subject."""
    from .replay import _plural_verb

    def verb(word: str) -> str:
        return {"goes": "go"}.get(word) or _plural_verb(word)
    first, _, rest = text.partition(" ")
    if who is None or not first or not first[0].islower() or not first.endswith("s"):
        return None, re.sub(r"\bYou (has|is|was|does)\b", lambda m: "You " + _plural_verb(m.group(1)), text)
    if who == "You":
        rest = re.sub(r"\b(and|then) ([a-z]+s)\b", lambda m: f"{m.group(1)} {verb(m.group(2))}", rest)
        rest = re.sub(r"\bits (opening hand|first turn|hand|turn)\b", r"your \1", rest)
        return who, f"{verb(first)} {rest}".strip()
    return who, text
