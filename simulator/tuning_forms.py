"""The /tune/ page's choices that are not typed: the players (Fast or Strong, as on /simulate/) and, for each
decklist box, a starter deck or one of my saved decks to put in it. Each is checked against what the page offered,
so a hand-edited pick is the field's error ("Deck A: …"), never a 500.

The typed boxes (decklists, games, seed) are checked by the service (tuning_input.py), which words its own errors.
"""
from __future__ import annotations

from django import forms

from cards.starters import starters

from . import runner

# The decklist boxes of each kind of run: (field, label, whether the box holds several lists).
BOXES = {
    "compare": [("a", "Deck A", False), ("b", "Deck B", False), ("gauntlet", "Gauntlet", True)],
    "tune": [("deck", "Deck", False), ("gauntlet", "Gauntlet", True)],
    "matrix": [("decks", "Decklists", True)],
}
PLAYER_CHOICES = [("fast", "Fast"), ("strong", "Strong")]


class TunePicks(forms.Form):
    player = forms.ChoiceField(label="Players", required=False, choices=PLAYER_CHOICES,
                               error_messages={"invalid_choice": "choose Fast or Strong (%(value)s is not one)"})

    def __init__(self, data, *, kind: str, my_decks: list[tuple[int, str]]):
        super().__init__(data)
        mine = [("", "")] + [(str(pk), label) for pk, label in my_decks]
        slugs = [("", "")] + [(s.slug, s.faction) for s in starters()]
        for field, label, _ in BOXES[kind]:
            self.fields[f"my_{field}"] = forms.ChoiceField(
                label=label, required=False, choices=mine,
                error_messages={"invalid_choice": "that is not one of your saved decks (it may have been deleted, "
                                "or you are signed out); pick one from the list “or one of my decks”"})
            self.fields[f"use_starter_{field}"] = forms.ChoiceField(
                label=label, required=False, choices=slugs,
                error_messages={"invalid_choice": "there is no starter deck “%(value)s”; press one of the "
                                "starter buttons"})

    def policy(self) -> str:
        """The engine's policy for the chosen player (the API's `policy` values: greedy or expert)."""
        return runner.PLAYERS[self.cleaned_data.get("player") or "fast"]

    def problems(self) -> list[str]:
        """Every error as "Label: message", in the order of the page."""
        return [f"{self.fields[name].label}: {m}" for name, errors in self.errors.items() for m in errors]
