"""The deck doctor for the site (CONTRACTS §3 `doctor`): read a deck, gather what the games' checks need, and
answer `{"deck": {...}, "findings": [...]}`.

The checks are each game's (`Game.doctor`, cards/games/registry.py; the frame is cards/games/doctor.py); this
module only reads the input (decklist text or a deck's counts), the catalogue, the user's collection and the
legality verdict, and asks the game for its simulated games (`Game.doctor_samples`). No game is named here.
"""
from __future__ import annotations

from collections.abc import Mapping

from cards.games import registry
from cards.games.doctor import DoctorDeck, report

from .decklist import content_hash, parse_decklist
from .legality import check_deck
from .pool import CardPool


class DoctorInputError(ValueError):
    """Input the doctor cannot read; the message names the line or field (-> HTTP 400, exit 2)."""


def _owned(user, game: registry.Game) -> dict[str, int] | None:
    """The user's collection of the game when signed in and recorded (suggestions then come from it), else None
    (the card pool)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    if game.own_tables:
        from .selectors import collection_counts
        owned = collection_counts(user=user)
    else:
        from .models import GameCollectionCard
        owned = dict(GameCollectionCard.objects.filter(user=user, game=game.slug).values_list("card_code", "count"))
    return owned or None


def _lines(problems) -> str:
    shown = "; ".join(p["message"] if not p.get("line") or p["message"].lower().startswith("line")
                      else f"line {p['line']}: {p['message']}" for p in problems[:10])
    more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
    return f"The decklist has lines that cannot be read: {shown}{more}"


def read_text(text: str, game_slug: str | None = None) -> tuple[registry.Game, dict[str, int], list[dict]]:
    """(game, counts, the game's cards) of decklist text; DoctorInputError naming every unreadable line."""
    try:
        game = registry.get(game_slug)
    except registry.UnknownGame as e:
        raise DoctorInputError(str(e)) from None
    if not game.has("doctor"):
        raise DoctorInputError(f"The game {game.slug!r} has no deck doctor.")
    if not isinstance(text, str) or not text.strip():
        raise DoctorInputError("The decklist is empty: paste one card per line, e.g. '3x Gawain'.")
    if game.own_tables:
        pool = CardPool.from_db()
        parsed = parse_decklist(text, pool)
        if parsed.problems:
            raise DoctorInputError(_lines([{"line": p.line, "message": p.message} for p in parsed.problems]))
        cards = list(pool)
        counts = dict(parsed.counts)
    else:
        from cards.selectors import game_cards
        cards = game_cards(game.slug)
        counts, problems = game.hook("parse_decklist")(text, cards)
        if problems:
            raise DoctorInputError(_lines(problems))
    if not counts:
        raise DoctorInputError("The decklist names no card: write one card per line, e.g. '3x Gawain'.")
    return game, counts, cards


def _title_from_comment(text: str) -> str:
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            s = s.lstrip("#").strip()
            return s.removeprefix("Starter deck:").strip()[:200]
        if s:
            return ""
    return ""


def diagnose_counts(counts: Mapping[str, int], *, game_slug: str | None = None, cards: list[dict] | None = None,
                    user=None, name: str = "", games: bool = True, fmt: str | None = None) -> dict:
    """The doctor's report of a deck given as code -> copies. `games=False` skips any simulated game not yet
    cached (the editor's live panel asks for them; the deck page and the command always play them)."""
    game = registry.get(game_slug)
    if game.own_tables:
        pool = CardPool.from_db() if cards is None else CardPool.from_cards(cards)
        cards = list(pool)
        from .selectors import format_active
        verdict = check_deck(dict(counts), pool, format_active()).to_json()   # the verdict the pages show
        identity = {"faction": verdict["faction"], "destiny": verdict["destiny"]}
    else:
        from cards.selectors import game_cards
        cards = game_cards(game.slug) if cards is None else cards
        verdict = game.hook("check_deck")(dict(counts), cards, fmt if fmt in game.formats else game.formats[0])
        identity = game.hook("identity")(dict(counts), cards) if game.has("identity") else {}
    by_code = {c["code"]: c for c in cards}
    entries = [(by_code[code], n) for code, n in counts.items()
               if code in by_code and isinstance(n, int) and not isinstance(n, bool) and n > 0]
    deck_hash = content_hash(counts)
    samples = game.hook("doctor_samples")(entries, deck_hash, games=games) if game.has("doctor_samples") else []
    findings = game.hook("doctor")(DoctorDeck(entries=entries, pool=cards, owned=_owned(user, game),
                                              problems=verdict.get("errors", []), samples=samples, name=name))
    deck = {"name": name, "game": game.slug, "hash": deck_hash, "legal": verdict.get("legal"), **identity,
            "cards": sum(n for _, n in entries)}
    return report(deck, findings, samples)


def diagnose_text(text: str, *, game_slug: str | None = None, user=None, name: str | None = None,
                  games: bool = True) -> dict:
    game, counts, cards = read_text(text, game_slug)
    return diagnose_counts(counts, game_slug=game.slug, cards=cards, user=user,
                           name=name if name is not None else _title_from_comment(text), games=games)


__all__ = ["DoctorInputError", "diagnose_counts", "diagnose_text", "read_text"]


# ---- pages ---------------------------------------------------------------------------------------------------
_HIDDEN_EVIDENCE = {"definition", "units_by_icon", "games_note", "costs", "counted", "why", "opponent_only",
                    "undefended", "short"}


def _shown(value) -> str:
    if isinstance(value, float):
        return f"{value * 100:.1f}%" if 0.0 <= value <= 1.0 else f"{value:g}"
    if isinstance(value, dict):
        if all(isinstance(v, dict) for v in value.values()):
            return "; ".join(f"{k} ({_shown(v)})" for k, v in value.items())
        return ", ".join(f"{k}: {_shown(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown(v) for v in value)
    return str(value)


def _label(key: str) -> str:
    return key.replace("p_", "chance: ", 1).replace("_", " ") if key.startswith("p_") else key.replace("_", " ")


def for_page(data: dict | None) -> dict | None:
    """The report as the pages show it: the findings that are not legality errors (the verdict panel shows those),
    each with its evidence as (label, text) rows — chances as percentages, a per-icon table one row an icon."""
    if data is None:
        return None
    # every game's citations link to its own rulebook page (roc_site/rulebook.py), shown without the document's number
    game = registry.get(data["deck"].get("game"))
    linked = game.rulebook is not None
    shown = []
    for f in data["findings"]:
        if f["severity"] == "error":
            continue
        rows = []
        for key, value in f["evidence"].items():
            if key in _HIDDEN_EVIDENCE or value is None:
                continue
            if key.startswith("p_") and isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
                unit = "turn" if key.endswith("_turn") else "round"
                for sub, by in value.items():
                    rows.append((f"{sub.title()}: chance by {unit} "
                                 f"{' / '.join(by)}", " / ".join(_shown(v) for v in by.values())))
            elif key == "games" and isinstance(value, dict) and all(isinstance(v, dict) for v in value.values()):
                for sub, counts in value.items():
                    rows.append((f"{sub.title()} struggles against it (stored games)", _shown(counts)))
            else:
                rows.append((_label(key), _shown(value)))
        shown.append({**f, "rows": rows, "definition": f["evidence"].get("definition", ""), "rule_linked": linked,
                      # a hosted game's words cite its rules as "002 §9": shown as links, without the number
                      "rule_game": game.slug, "cite_text": linked and bool(game.prefix)})
    return {**data, "shown": shown}
