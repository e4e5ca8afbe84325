"""The deck image for sharing: faction, destiny, quests and the draw deck with counts, Open Graph sized."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from cards import deck_images, images
from cards.deck_images import render_deck_image
from cards.models import Card, CardSet, Faction


def card(code, ctype="unit", faction="camelot", **extra) -> dict:
    base = {"code": code, "name": code.replace("-", " ").title(), "type": ctype, "faction": faction,
            "subtitle": None, "cost": 2 if ctype in ("unit", "location", "attachment", "deed") else None,
            "power": 2 if ctype == "unit" else None, "icons": ["combat"] if ctype == "unit" else [],
            "attributes": [], "unique": False, "loyalty": None, "keywords": [], "text": "Action: Draw 1 card.",
            "wealth": None, "momentum": None, "spoils": None, "levy": None, "deckbuilding": None,
            "abilities": None, "flavor": None, "illustrator": None, "number": None, "quantity": None}
    if ctype == "quest":
        base.update(wealth=4, momentum=2, spoils=1, levy=6)
    base.update(extra)
    return base


FACTION = card("deck-camelot", "faction")
DESTINY = card("deck-oath", "destiny", deckbuilding={"max_copies": 2})
QUESTS = [card(f"deck-quest-{i}", "quest", "neutral") for i in range(7)]


def draw_deck(n_distinct: int, copies: int = 3) -> list[tuple[dict, int]]:
    types = ["unit", "location", "attachment", "deed"]
    return [(card(f"deck-draw-{i}", types[i % 4]), copies) for i in range(n_distinct)]


def open_png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img


@pytest.fixture(autouse=True)
def cache(settings, tmp_path):
    settings.CARD_IMAGE_CACHE_DIR = tmp_path / "cache"
    return tmp_path / "cache"


@pytest.mark.django_db
def test_a_typical_deck_is_an_open_graph_image():
    img = open_png(render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(20)))
    assert img.size == (1200, 630)  # 60 draw cards in 20 names fit the standard Open Graph size


@pytest.mark.django_db
def test_a_deck_of_many_different_cards_makes_the_image_taller_not_smaller_cards():
    img = open_png(render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(40, copies=1)))
    assert img.width == 1200 and img.height > 630


@pytest.mark.django_db
def test_counts_are_shown_so_a_different_count_changes_the_image():
    three = render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(20, copies=3))
    two = render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(20, copies=2))
    assert three != two


@pytest.mark.django_db
def test_the_same_card_listed_twice_adds_up():
    deck = draw_deck(5, copies=1)
    doubled = deck + [(deck[0][0], 2)]
    combined = [(deck[0][0], 3)] + deck[1:]
    assert render_deck_image(FACTION, DESTINY, QUESTS, doubled) == render_deck_image(
        FACTION, DESTINY, QUESTS, combined)


@pytest.mark.django_db
def test_an_unfinished_deck_still_renders():
    img = open_png(render_deck_image(None, None, [], []))
    assert img.size == (1200, 630)


@pytest.mark.django_db
def test_the_second_request_is_a_cached_file(cache, monkeypatch):
    first = render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(8), title="Oathkeepers")
    assert len(list((cache / "decks").glob("*.png"))) == 1
    monkeypatch.setattr(deck_images, "_draw", lambda *a: pytest.fail("drew again instead of using the cache"))
    assert render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(8), title="Oathkeepers") == first


@pytest.mark.django_db
def test_catalogue_cards_use_their_cached_card_images_and_follow_edits(cache):
    card_set, _ = CardSet.objects.get_or_create(code="imgtest", defaults={"name": "Image Test Set", "position": 90})
    row = Card(code="deck-draw-0", name="Percival", type="unit", faction=Faction.objects.get(slug="camelot"),
               card_set=card_set, power=3, text="Action: Draw 1 card.")
    row.cost = 2
    row.save()
    # The pool's dict for a catalogue card is drawn from the catalogue's card image (same key as the card page).
    before = render_deck_image(FACTION, DESTINY, QUESTS, [(row.to_data(), 3)])
    key = images.card_cache_key(row)
    assert list(cache.glob(f"deck-draw-0_{key}_small.png"))
    row.text = "Response: After Percival wins a struggle, gain 1 wealth."
    row.save()
    after = render_deck_image(FACTION, DESTINY, QUESTS, [(Card.objects.get(pk=row.pk), 3)])
    assert after != before


@pytest.mark.django_db
def test_from_counts_sorts_the_cards_into_their_places():
    pool = {c["code"]: c for c in [FACTION, DESTINY, *QUESTS, *(c for c, _ in draw_deck(6))]}
    counts = {FACTION["code"]: 1, DESTINY["code"]: 1, **{q["code"]: 1 for q in QUESTS},
              **{f"deck-draw-{i}": 3 for i in range(6)}, "not-in-the-pool": 2}
    from_counts = deck_images.render_deck_image_from_counts(counts, pool, title="Oathkeepers")
    explicit = render_deck_image(FACTION, DESTINY, QUESTS, draw_deck(6), title="Oathkeepers")
    assert from_counts == explicit
