"""The shipped starter decks (r1's seven in cards/data/starters, realms' four in cards/games/realms/data/starters):
legal, able to defend the struggles that kill units and move Influence, and — on a modest sample, marked slow —
no starter hopeless against another. The full balance check (greedy, 200 games a pairing; the expert sample) is a
documented command in docs/starters.md; the bounds here are loose enough not to flake on a small sample."""
from __future__ import annotations

import json
from io import StringIO
from itertools import combinations
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
R1_STARTERS = sorted((ROOT / "cards" / "data" / "starters").glob("*.txt"))
REALMS_STARTERS = sorted((ROOT / "cards" / "games" / "realms" / "data" / "starters").glob("*.txt"))


def _r1_cards() -> dict[str, dict]:
    cards = json.loads((ROOT / "cards" / "data" / "core.json").read_text(encoding="utf-8"))["cards"]
    return {c["code"]: c for c in cards}


def test_there_are_seven_r1_starters_and_four_realms_starters():
    assert [p.stem for p in R1_STARTERS] == ["camelot", "eleven", "keepers", "lefay", "saracen", "summer", "winter"]
    assert [p.stem for p in REALMS_STARTERS] == ["ashen", "deepwood", "sunward", "tideholm"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", R1_STARTERS, ids=lambda p: p.stem)
def test_every_r1_starter_is_legal_as_validatedeck_says(path):
    out = StringIO()
    call_command("validatedeck", str(path), "--json", stdout=out)
    verdict = json.loads(out.getvalue())
    assert verdict["legal"], verdict["errors"]
    assert verdict["faction"] == path.stem


@pytest.mark.parametrize("path", REALMS_STARTERS, ids=lambda p: p.stem)
def test_every_realms_starter_is_legal(path):
    from cards.games.realms import bundled_pool
    from cards.games.realms.legality import check_decklist_text

    verdict = check_decklist_text(path.read_text(encoding="utf-8"), bundled_pool(), "standard")
    assert verdict.legal, [e.message for e in verdict.errors]
    assert verdict.affiliation == path.stem


@pytest.mark.parametrize("path", R1_STARTERS, ids=lambda p: p.stem)
def test_every_r1_starter_can_defend_combat_and_faith(path):
    """§6.2 S.6: only a unit bearing the struggle's icon may defend it. A starter with no Combat or Faith unit loses
    every such struggle unopposed — its units killed, its Influence moved — as the 2026 Le Fay starter did (0 of
    600 games)."""
    from decks.decklist import parse_decklist
    from decks.pool import CardPool

    cards = _r1_cards()
    parsed = parse_decklist(path.read_text(encoding="utf-8"), CardPool.from_cards(cards.values()))
    icons = {"combat": 0, "faith": 0}
    for code, n in parsed.counts.items():
        card = cards[code]
        for icon in icons:
            if card["type"] == "unit" and icon in card["icons"]:
                icons[icon] += n
    assert all(n >= 2 for n in icons.values()), icons


def _matrix(files, games: int) -> dict[tuple[str, str], float]:
    out = StringIO()
    call_command("matrix", *map(str, files), "--games", str(games), "--seed", "3", "--json", stdout=out)
    result = json.loads(out.getvalue())
    names = [Path(d["name"]).stem for d in result["decks"]]
    return {(names[c["deck"]], names[c["opponent"]]): c["win_rate"] for c in result["cells"]}


@pytest.mark.slow
@pytest.mark.django_db
def test_no_r1_starter_is_hopeless_on_a_modest_greedy_sample():
    """Greedy against greedy, 24 games a pairing (the documented check plays 200): no pairing at 0% or 100%, and
    every starter's mean over the round robin between 25% and 75% (the target is 40-60%)."""
    cells = _matrix(R1_STARTERS, 24)
    names = [p.stem for p in R1_STARTERS]
    assert all(0.0 < cells[a, b] < 1.0 for a, b in combinations(names, 2)), cells
    for a in names:
        mean = sum(cells[a, b] if (a, b) in cells else 1 - cells[b, a] for b in names if b != a) / (len(names) - 1)
        assert 0.25 <= mean <= 0.75, (a, mean)


@pytest.mark.slow
@pytest.mark.django_db
def test_no_realms_starter_is_hopeless_on_a_modest_greedy_sample():
    """The four realms starters, each pairing 24 games greedy against greedy: no pairing at 0% or 100%, every
    starter's mean between 25% and 75%."""
    from cards.games.realms import SET_FILE

    call_command("loadcards", str(SET_FILE), verbosity=0)
    scores: dict[str, list[float]] = {p.stem: [] for p in REALMS_STARTERS}
    for a, b in combinations(REALMS_STARTERS, 2):
        out = StringIO()
        call_command("simulate", str(a), "--game", "realms", "--mode", "versus", "--opponent", str(b),
                     "--games", "24", "--seed", "3", "--json", stdout=out)
        r = json.loads(out.getvalue())
        score = (r["wins"] + 0.5 * r["draws"]) / (r["wins"] + r["losses"] + r["draws"])
        assert 0.0 < score < 1.0, (a.stem, b.stem, score)
        scores[a.stem].append(score)
        scores[b.stem].append(1 - score)
    for name, s in scores.items():
        assert 0.25 <= sum(s) / len(s) <= 0.75, (name, s)
