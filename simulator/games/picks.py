"""The pickers of the hosted games' simulate page (/<game>/simulate/), as r1's: where a side's list comes from.

A pick is a short value the page's buttons and lists send — `starter:NAME`, `deck:ID` (a saved deck this visitor may
see: their own or anyone's public one), `decklist:ID` (a published decklist), `strategy:NAME` (a shipped regions
strategy) — and `resolve` turns it into the list's text and its name, or a PickError whose message says what was
wrong and how to fix it (the page shows it as a form error, 400). The sources a game offers follow its registration:
starters where it has the `starters` hook, saved decks and published decklists where it exports decklists, shipped
strategies where its engine ships them.
"""
from __future__ import annotations

import re

MAX_LISTED = 100   # published decklists listed in a picker, newest first (the decklists page has them all)


class PickError(ValueError):
    """A pick that names nothing this visitor may use; the message says which and what to do."""


def reader_text(text: str) -> str:
    """A shipped list as a reader gets it in a box: its comment lines without the repository's paths ("rebalanced:
    docs/starters.md") and with rule citations as the pages write them ("002 §2" -> "§2"); the cards unchanged."""
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            line = re.sub(r";?\s*\w+:\s*docs/\S+?(?=[.;]?\s*$)", "", line)
            line = re.sub(r"\b\d{3} (§)", r"\1", line)
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _starters(spec) -> list[tuple[str, str]]:
    return [(name, reader_text(text)) for name, text in spec.hook("starters")()] if spec.has("starters") else []


def _runs(spec):
    return spec.hook("runs") if spec.has("runs") else None


def _shipped_strategies(spec) -> dict[str, str]:
    shipped = getattr(_runs(spec), "shipped_strategies", None)   # a game played by written strategies
    return shipped() if shipped else {}


def _has_decks(spec) -> bool:
    return spec.has("export_decklist") and spec.has("check_text")


def strategy_label(text: str) -> tuple[str, str]:
    """A strategy's own name and its Hero's, read from its `name:` and `hero:` lines (the picker's words)."""
    def line(key):
        m = re.search(rf"^\s*{key}\s*:\s*(.+?)\s*$", text, re.M)
        return m.group(1) if m else ""
    return line("name"), line("hero")


def options(request, spec) -> dict:
    """What the page lists: starter names, and (pick, label) pairs of this visitor's saved decks, the published
    decklists and the shipped strategies."""
    from decks.models import GameDeck, GameDecklist

    out = {"starters": [name for name, _ in _starters(spec)], "my_decks": [], "decklists": [], "strategies": []}
    if _has_decks(spec):
        if request.user.is_authenticated:
            out["my_decks"] = [(f"deck:{pk}", name) for pk, name in GameDeck.objects.filter(
                game=spec.slug, owner=request.user, deleted_at=None).values_list("pk", "name")[:MAX_LISTED]]
        out["decklists"] = [(f"decklist:{d.pk}", f"{d.title} (by {d.owner.username})") for d in
                            GameDecklist.objects.filter(game=spec.slug).select_related("owner")[:MAX_LISTED]]
    for key, text in _shipped_strategies(spec).items():
        name, hero = strategy_label(text)
        out["strategies"].append((f"strategy:{key}", f"{name or key} — {hero}" if hero else name or key))
    return out


def resolve(request, spec, pick: str) -> tuple[str, str]:
    """(text, name) of a pick, or PickError."""
    kind, _, value = (pick or "").partition(":")
    if kind == "starter":
        text = dict(_starters(spec)).get(value)
        if text is None:
            raise PickError(f"There is no starter deck called “{value[:80]}”; choose one of the starter buttons.")
        return text, value
    if kind in ("deck", "decklist") and _has_decks(spec):
        from cards.selectors import game_cards
        from decks.models import GameDeck, GameDecklist

        what = "saved deck" if kind == "deck" else "published decklist"
        if not value.isdigit() or len(value) > 18:
            raise PickError(f"“{value[:40]}” is not a {what}'s number; choose one from the list.")
        if kind == "deck":
            found = GameDeck.objects.filter(pk=int(value), game=spec.slug, deleted_at=None).first()
            # another player's private deck is answered like a missing one: its existence is not told
            if found is None or (found.is_private and found.owner_id != request.user.pk):
                raise PickError(f"No {what} number {value} that you can use: it was deleted, or it is someone "
                                "else's private deck. Choose one of your decks from the list.")
            name = found.name
        else:
            found = GameDecklist.objects.filter(pk=int(value), game=spec.slug).first()
            if found is None:
                raise PickError(f"No {what} number {value}: it may have been removed. Choose one from the list.")
            name = found.title
        return spec.hook("export_decklist")(found.cards, game_cards(spec.slug), name), name
    if kind == "strategy":
        text = _shipped_strategies(spec).get(value)
        if text is None:
            raise PickError(f"There is no shipped strategy called “{value[:80]}”; choose one from the list.")
        return text, strategy_label(text)[0] or value
    raise PickError(f"“{(pick or '')[:80]}” is not something to simulate here; choose from the lists.")


def heroes(spec) -> list[str]:
    """The Heroes a strategy can be played with (the Hero picker), for a game whose runs module names them."""
    listed = getattr(_runs(spec), "heroes", None)
    return listed() if listed else []


def players(spec) -> list[dict]:
    """The page's one player choice, Fast or Strong, with the time 1,000 games take on one worker, from the game's
    runs module (`PLAYERS`: key -> (label, policy, what it does, {mode: CPU seconds a game}))."""
    from simulator.views import _duration

    out = []
    for key, (label, policy, about, cost) in getattr(_runs(spec), "PLAYERS", {}).items():
        out.append({"key": key, "label": label, "policy": policy, "about": about,
                    "times": [(mode, _duration(secs * 1_000)) for mode, secs in cost.items()]})
    return out


def with_hero(text: str, hero: str) -> str:
    """The strategy with its `hero:` line set to `hero` (the line added first when it has none)."""
    if re.search(r"^\s*hero\s*:", text, re.M):
        return re.sub(r"^(\s*)hero\s*:.*$", lambda m: f"{m.group(1)}hero: {hero}", text, count=1, flags=re.M)
    return f"hero: {hero}\n{text}"
