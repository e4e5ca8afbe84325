"""The Heroes and Regions card frame (cards/games/regions/frame.py): every shipped card draws, at every size."""
from __future__ import annotations

import hashlib

from PIL import ImageStat

from cards.games.regions import load_default_set
from cards.games.regions.frame import SIZES, contact_sheet, main, render_card


def test_every_shipped_card_draws_at_its_size_and_the_same_card_draws_the_same():
    cards = load_default_set()
    heroes = {c["code"]: c["name"] for c in cards if c["type"] == "hero"}
    digests = set()
    for card in cards:
        im = render_card(card, "small", hero_names=heroes)
        assert im.size == SIZES["small"] and im.mode == "RGB"
        assert ImageStat.Stat(im).stddev[0] > 20                    # not a blank card
        digests.add(hashlib.sha256(im.tobytes()).hexdigest())
    assert len(digests) == len(cards)                                # each card looks different
    one = cards[0]
    assert render_card(one, "normal").tobytes() == render_card(one, "normal").tobytes()
    assert render_card(one, "large").size == (1000, 1400)


def test_the_frame_reads_the_type_and_phase():
    cards = {c["code"]: c for c in load_default_set()}
    # a Citizen's combat box is white (003 §6.1) and a Reveal box is tinted violet
    archer = render_card(cards["hr-113"], "normal")
    assert archer.getpixel((200, 650)) == (255, 255, 255)
    r, g, b = archer.getpixel((300, 470))
    assert b > g and r > g                                            # the Reveal tint
    # a Supplies card has no combat box
    silver = render_card(cards["hr-003"], "normal")
    assert silver.getpixel((200, 650)) != (255, 255, 255)


def test_contact_sheet_and_command(tmp_path):
    cards = load_default_set()[:5]
    sheet = contact_sheet(cards, columns=3)
    assert sheet.size[0] > 3 * SIZES["small"][0] and sheet.size[1] > 2 * SIZES["small"][1]
    out = tmp_path / "sheet.png"
    assert main(["--sheet", str(out)]) == 0 and out.stat().st_size > 10_000
    assert main(["--card", "hr-999", "--out", str(tmp_path / "x.png")]) == 1
