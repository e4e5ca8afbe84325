"""The realms card frame (`cards/games/realms/images.py`): every card of the set renders, legibly, and the frame
shows what the data says — affiliation colour, Tactic slots lit or not, blue and red resource icons."""
from __future__ import annotations

import pytest
from PIL import Image

from cards.games.realms import bundled_cards
from cards.games.realms.images import (
    BAR_BOTTOM, BAR_TOP, card_legibility, contact_sheet, is_structural_line, render_card, type_label,
)
from cards.games.realms.schema import normalise_card

CARDS = bundled_cards()


@pytest.mark.parametrize("card", CARDS, ids=[c["code"] for c in CARDS])
def test_every_card_renders(card):
    image = render_card(card, "small")
    assert image.size == (250, 350) and image.mode == "RGB"
    colours = image.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).getcolors()
    assert len(colours) > 16  # drawn, not a blank box


def test_every_card_is_legible_on_the_normal_image():
    for card in CARDS:
        legibility = card_legibility(card)
        assert not legibility["truncated"], card["name"]
        assert legibility["text_px"] is None or legibility["text_px"] >= 12, card["name"]


@pytest.mark.parametrize("size,expected", [("normal", (500, 700)), ("large", (1000, 1400)), ((300, 420), (300, 420))])
def test_sizes(size, expected):
    assert render_card(CARDS[0], size).size == expected


def _card(**change):
    base = {"code": "t-1", "name": "Test Warrior", "type": "warrior", "cost": 1, "cv": 3, "tactics": ["front"],
            "consumes": {"food": 1}, "text": "INFANTRY."}
    card, errors = normalise_card({**base, **change})
    assert errors == []
    return card


def _tactic_slot(image: Image.Image, index: int) -> tuple[int, int, int]:
    """The centre pixel of Tactic slot `index` (0 left, 1 front, 2 right) of a warrior on the normal image."""
    x = 470 - 14 - (2 - index) * 31
    return image.getpixel((x, (BAR_TOP + BAR_BOTTOM) // 2 + 6))


def test_tactic_slots_are_lit_for_the_cards_tactics():
    front = render_card(_card(tactics=["front"]))
    all_three = render_card(_card(tactics=["left", "front", "right"]))
    assert _tactic_slot(front, 0) != _tactic_slot(all_three, 0)
    assert _tactic_slot(front, 1) == _tactic_slot(all_three, 1)


def test_affiliation_colours_the_frame_and_general_cards_differ():
    general = render_card(_card()).getpixel((12, 350))
    sunward = render_card(_card(affiliation="sunward")).getpixel((12, 350))
    ashen = render_card(_card(affiliation="ashen")).getpixel((12, 350))
    assert len({general, sunward, ashen}) == 3
    assert sunward[0] > sunward[2] and ashen[2] > ashen[1]  # crimson, violet


def test_resource_icons_blue_for_provides_red_for_consumes():
    place = render_card(_card(type="place", text="", neighbor_count=2, provides={"gold": 2}, consumes={"food": 1}))
    blue = place.getpixel((44, 357 + 13))  # the rim of the first blue disc, left of the band
    red = place.getpixel((456, 357 + 13))  # the rim of the first red disc, right of the band
    assert blue[2] > blue[0] and red[0] > red[2]


def test_type_line_labels():
    assert type_label(_card(text="CAVALRY.")) == "WARRIOR \u2014 CAVALRY"
    sword = next(c for c in CARDS if c["name"] == "Iron Sword")
    assert type_label(sword) == "INTRIGUE \u2014 EQUIPMENT (Weapon)"


def test_structural_lines():
    assert is_structural_line("INFANTRY. Loner.") and is_structural_line("EQUIPMENT \u2014 Armor.")
    assert is_structural_line("UNLIMITED COPIES IN DECK.") and is_structural_line("Unlocks VEHICLE.")
    assert not is_structural_line("This warrior gets +1 CV while defending.")


def test_contact_sheet_lays_out_the_cards():
    sheet = contact_sheet(list(CARDS[:12]), columns=5, thumb=(125, 175))
    assert sheet.size == (12 + 5 * (125 + 12), 12 + 3 * (175 + 22 + 12))
