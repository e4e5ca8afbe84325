"""The /simulate/ page's form: each field checked with the label the page shows, so a mistake reads as
"Seed: …" beside the seed box rather than as the API's internal name ("mulligan.value must be …").

The service (simulator/services.py run_request) checks everything again; this form only words it for people.
"""
from __future__ import annotations

from django import forms

from .deckinput import MAX_SEED
from .hands import POLICY_KINDS


class SimulateForm(forms.Form):
    mode = forms.ChoiceField(label="Report", choices=[("hands", "Opening hands and setup"),
                                                      ("goldfish", "Goldfish"), ("versus", "Head-to-head")])
    text = forms.CharField(label="Decklist", required=False, strip=False)
    opponent = forms.CharField(label="Opponent decklist", required=False, strip=False)
    games = forms.IntegerField(label="Games (or hands sampled)", required=False, min_value=1,
                               error_messages={"invalid": "write a whole number, e.g. 1000, or leave it empty"})
    seed = forms.IntegerField(label="Seed", required=False, min_value=0, max_value=MAX_SEED,
                              error_messages={"invalid": "write a whole number, e.g. 1"})
    mulligan_kind = forms.ChoiceField(label="Mulligan policy", choices=[(k, k) for k in POLICY_KINDS], required=False)
    mulligan_value = forms.IntegerField(label="Mulligan if the best setup places fewer than", required=False,
                                        min_value=0, max_value=50,
                                        error_messages={"invalid": "write a whole number from 0 to 50"})
    player = forms.ChoiceField(label="Players", required=False,
                               choices=[("fast", "Fast (greedy)"), ("strong", "Strong (expert search)")])
    query = forms.CharField(label="Chance to draw any card matching a search", required=False, max_length=500)
    query_k = forms.IntegerField(label="at least (copies)", required=False, min_value=1, max_value=7,
                                 error_messages={"invalid": "write a whole number from 1 to 7"})

    def clean_query(self) -> str:
        from cards.search import SearchError, parse_query

        query = self.cleaned_data.get("query", "").strip()
        if query:
            try:
                parse_query(query)
            except SearchError as exc:
                raise forms.ValidationError(str(exc)) from exc
        return query

    def problems(self) -> list[str]:
        """Every error as "Label: message", in the order of the page."""
        out = []
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else "Form"
            out += [f"{label}: {message}" for message in errors]
        return out


class PublishedDecklistForm(forms.Form):
    """The playtest table's picker of a published decklist for the AI's side: `opponent_decklist` is
    the id of the decklist picked (empty: none, the deck chosen above plays), `decklist_q` the search by title.
    An id that is not a whole number, or names no published decklist, is the field's error."""

    opponent_decklist = forms.IntegerField(
        label="Published decklist", required=False, min_value=1,
        error_messages={"invalid": "pick a published decklist from the list (its id is a whole number)",
                        "min_value": "pick a published decklist from the list"})
    decklist_q = forms.CharField(label="Search published decklists by name", required=False, max_length=100)

    def clean_opponent_decklist(self):
        from .selectors import published_decklist

        pk = self.cleaned_data.get("opponent_decklist")
        if pk is None:
            return None
        decklist = published_decklist(pk)
        if decklist is None:
            raise forms.ValidationError(f"no published decklist #{pk}: it was deleted, or never existed; "
                                        f"pick one from the list")
        return decklist
