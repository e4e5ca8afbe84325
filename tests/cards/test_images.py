"""Card images: every type renders, text fits, the disk cache, HTTP caching headers."""
from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from PIL import Image

from cards import images
from cards.images import (
    CardFace,
    face_from_dict,
    fit_paragraphs,
    hex_to_rgb,
    render_card,
    rules_paragraphs,
    text_box_paragraphs,
)
from cards.models import Card, CardSet, Faction

LONG_TEXT = (
    "Action: Exhaust a Knight you control to give each participating unit +1 Power until end of phase. "
    "Response: After you win a ⚔ struggle as the attacker, choose an enemy unit with lower Power and kill it; "
    "then draw 1 card and gain 1 wealth. Disrupt: When an opponent plays a deed, cancel its effects. "
) * 3

TYPES = {
    "unit": dict(cost=3, power=4, icons=["combat", "guile", "sorcery", "faith"], attributes=["Knight"],
                 unique=True, loyalty=2, keywords=["Glory", "Haste (2)"], text="Action: Draw 1 card."),
    "location": dict(cost=2, attributes=["Castle"], text="Action: Exhaust this location to gain 1 wealth."),
    "attachment": dict(cost="X", attributes=["Weapon"], keywords=["Lasting"], text="Attached unit gets +2 Power."),
    "deed": dict(cost="-", loyalty=1, text="Halt: Save a unit that would be killed."),
    "quest": dict(wealth=5, momentum=2, spoils=1, levy=6, text="Embark: Each player draws 1 card."),
    "destiny": dict(deckbuilding={"min_draw_cards": 50, "max_copies": 2, "bound_factions": ["winter"],
                                  "forbidden_types": ["deed"], "max_cost": 4}, text="Your Knights get +1 Power."),
    "faction": dict(text="Response: After you win a ✦ struggle, draw 1 card."),
}


def card_dict(ctype="unit", **extra) -> dict:
    base = {"code": f"img-{ctype}", "name": f"Test {ctype.title()}", "subtitle": None, "type": ctype,
            "faction": "camelot", "cost": None, "power": None, "icons": [], "attributes": [], "unique": False,
            "loyalty": None, "keywords": [], "text": "", "wealth": None, "momentum": None, "spoils": None,
            "levy": None, "deckbuilding": None, "abilities": None, "flavor": None, "illustrator": None,
            "number": 7, "quantity": None}
    base.update(TYPES.get(ctype, {}))
    base.update(extra)
    return base


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def near(a, b, tolerance=40) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


# ---- drawing ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ctype", list(TYPES))
def test_every_card_type_renders_at_both_sizes(ctype):
    face = face_from_dict(card_dict(ctype, flavor="Steel and oath."), set_name="Test Set")
    normal, small = render_card(face), render_card(face, "small")
    assert normal.size == (500, 700) and normal.mode == "RGB"
    assert small.size == (250, 350)
    # Not a blank canvas: the frame, plates and text give many distinct colours.
    assert len(normal.getcolors(maxcolors=1 << 20)) > 200


@pytest.mark.parametrize("faction", ["camelot", "lefay", "summer", "keepers"])
def test_frame_is_drawn_in_the_faction_colour(faction):
    face = face_from_dict(card_dict("location", faction=faction), color=images.FALLBACK_COLORS[faction])
    img = render_card(face)
    frame_pixel = img.getpixel((14, 110))  # the left frame edge, beside the art box
    assert near(frame_pixel, hex_to_rgb(images.FALLBACK_COLORS[faction]), 45)


def test_every_card_type_has_its_own_look():
    renders = {t: render_card(face_from_dict(card_dict(t))).tobytes() for t in TYPES}
    assert len(set(renders.values())) == len(TYPES)


def test_cost_number_x_and_dash_all_render_differently():
    costs = [render_card(face_from_dict(card_dict("deed", cost=c))).tobytes() for c in (3, "X", "-", None)]
    assert len(set(costs)) == 4


def test_struggle_icons_are_drawn_as_shapes_in_the_icon_column():
    """§2.3: a unit shows its struggle icons; each icon changes the picture where it is drawn."""
    without = render_card(face_from_dict(card_dict("unit", icons=[])))
    region = (420, 110, 472, 340)  # the icon column down the art's right edge
    base = without.crop(region).tobytes()
    seen = set()
    for icon in ("combat", "guile", "sorcery", "faith"):
        img = render_card(face_from_dict(card_dict("unit", icons=[icon])))
        crop = img.crop(region).tobytes()
        assert crop != base, icon
        seen.add(crop)
    assert len(seen) == 4  # four different shapes


def test_icon_glyphs_in_rules_text_become_inline_icons():
    paragraphs = rules_paragraphs("Response: After you win a ⚔ struggle or a [faith] struggle, draw 1 card.")
    kinds = [(t.kind, t.value) for t in paragraphs[0].tokens if t.kind == "icon"]
    assert kinds == [("icon", "combat"), ("icon", "faith")]
    bold = [t.value for t in paragraphs[0].tokens if t.style == "bold"]
    assert bold == ["Response:"]  # §8.3 timing word in bold


def test_unique_mark_and_subtitle_change_the_title_plate():
    def plate(**extra):
        return render_card(face_from_dict(card_dict("unit", **extra))).crop((60, 15, 480, 105)).tobytes()

    assert plate(unique=True) != plate(unique=False)  # §3.7: the • mark
    assert plate(subtitle="Of Orkney") != plate(subtitle=None)


def test_destiny_deckbuilding_rules_are_summarised_in_words():
    paragraphs = text_box_paragraphs(card_dict("destiny"))
    words = " ".join(t.value for p in paragraphs for t in p.tokens)
    assert "at least 50 cards" in words
    assert "At most 2 copies" in words
    assert "Bound cards of The Winter Court" in words
    assert "No deeds" in words
    assert "printed cost above 4" in words


def test_attributes_are_italic_and_keywords_bold():
    paragraphs = text_box_paragraphs(card_dict("unit", attributes=["Knight", "Lord"], keywords=["Glory"]))
    assert {t.style for t in paragraphs[0].tokens} == {"serif_italic"}
    assert " ".join(t.value for t in paragraphs[0].tokens) == "Knight. Lord."
    assert {t.style for t in paragraphs[1].tokens} == {"bold"}


def test_printed_keyword_line_is_bold_and_not_repeated():
    data = card_dict("unit", keywords=["Bound", "Haste (2)"], text="Bound. Haste (2).\nAction: Draw 1 card.")
    paragraphs = text_box_paragraphs(data)
    texts = [" ".join(t.value for t in p.tokens) for p in paragraphs]
    assert texts.count("Bound. Haste (2).") == 1
    line = next(p for p in paragraphs if p.tokens[0].value == "Bound.")
    assert {t.style for t in line.tokens} == {"bold"}


def test_a_keyword_the_text_does_not_print_is_still_shown():
    data = card_dict("unit", keywords=["Glory", "Subtle"], text="Glory.\nYour units gain Subtle.")
    texts = [" ".join(t.value for t in p.tokens) for p in text_box_paragraphs(data)]
    assert "Subtle." in texts  # its own bold line: "gain Subtle" in the text is not the card's keyword


def test_phase_limited_actions_and_forced_abilities_are_bold():
    for text, bold in (("Confrontation Action: Ready a unit.", ["Confrontation", "Action:"]),
                       ("Forced: At the start of the Draw phase, draw 1 card.", ["Forced:"])):
        tokens = rules_paragraphs(text)[0].tokens
        assert [t.value for t in tokens if t.style == "bold"] == bold


def test_destiny_shows_its_deckbuilding_data_once():
    data = card_dict("destiny", deckbuilding={"max_copies": 2},
                     text="Deckbuilding: Your deck cannot include more than 2 copies.\nYour Authority total gets +1.")
    texts = [" ".join(t.value for t in p.tokens) for p in text_box_paragraphs(data)]
    assert texts.count("Deckbuilding:") == 1
    assert not any("cannot include more than 2" in t for t in texts)
    assert "– At most 2 copies of each card name." in texts
    assert "Your Authority total gets +1." in texts


# ---- text fitting ----------------------------------------------------------------------------------------
def _words_of(layout):
    return [t.value for line in layout.lines for _, t in line.items if t.kind == "word"]


def test_long_text_shrinks_to_fit_the_box_without_cutting_words():
    paragraphs = rules_paragraphs(LONG_TEXT)
    width, height = 800, 500
    short = fit_paragraphs(rules_paragraphs("Action: Draw 1 card."), width, height, max_size=42, min_size=24)
    layout = fit_paragraphs(paragraphs, width, height, max_size=42, min_size=24)
    assert layout.size < short.size
    assert layout.height <= height
    assert not layout.truncated
    for line in layout.lines:
        assert line.width <= width
    # Every word is drawn whole and in order: nothing cut, nothing lost.
    assert _words_of(layout) == [t.value for p in paragraphs for t in p.tokens if t.kind == "word"]


def test_flavour_is_dropped_before_rules_text_gets_small():
    data = card_dict("unit", text=LONG_TEXT, flavor="A long flavour line. " * 6)
    paragraphs = text_box_paragraphs(data)
    layout = fit_paragraphs(paragraphs, 800, 500, max_size=42, min_size=24)
    assert layout.dropped_optional
    assert "flavour" not in " ".join(_words_of(layout))
    assert layout.size >= 16  # the rules text keeps a readable size


def test_absurd_text_never_overflows_the_box():
    paragraphs = rules_paragraphs("Supercalifragilisticexpialidocious" * 5 + " " + "word " * 3000)
    layout = fit_paragraphs(paragraphs, 600, 300, max_size=40, min_size=20, floor_size=12)
    assert layout.truncated
    assert all(line.y + layout.line_height <= 300 for line in layout.lines)
    assert all(line.width <= 600 for line in layout.lines)
    assert _words_of(layout)[-1] == "…"


def test_long_text_card_renders_and_keeps_the_footer_clear():
    data = card_dict("unit", text=LONG_TEXT * 4, flavor="x", name="A Very Long Card Name That Needs Two Lines",
                     subtitle="And a subtitle that is itself far too long to fit on the plate")
    img = render_card(face_from_dict(data, set_name="Test Set"))
    short = render_card(face_from_dict(card_dict("unit", name=data["name"], subtitle=data["subtitle"]),
                                       set_name="Test Set"))
    # The text box ends above the footer: the footer strip is identical whatever the text.
    assert img.crop((0, 656, 500, 700)).tobytes() == short.crop((0, 656, 500, 700)).tobytes()


def test_illustration_is_cover_cropped_into_the_art_box():
    red = Image.new("RGB", (40, 400), (220, 0, 0))  # tall and narrow: must be cropped, not letterboxed
    face = CardFace(data=card_dict("location"), color="#2f5fa8", faction_name="Camelot", illustration=red)
    img = render_card(face)
    for point in ((40, 120), (250, 240), (460, 360)):  # corners and centre of the art box
        assert near(img.getpixel(point), (220, 0, 0), 30), point


def test_placeholder_art_uses_the_faction_colour_when_there_is_no_illustration():
    img = render_card(face_from_dict(card_dict("location", faction="summer")))
    centre = img.getpixel((100, 240))
    summer = hex_to_rgb(images.FALLBACK_COLORS["summer"])
    assert near(centre, summer, 90)


# ---- the cache and the view ------------------------------------------------------------------------------
@pytest.fixture
def image_dirs(settings, tmp_path):
    settings.CARD_IMAGE_CACHE_DIR = tmp_path / "cache"
    settings.MEDIA_ROOT = tmp_path / "media"
    return tmp_path


@pytest.fixture
def db_card(db):
    card_set, _ = CardSet.objects.get_or_create(code="imgtest", defaults={"name": "Image Test Set", "position": 90})
    card = Card(code="imgtest-gawain", name="Gawain", subtitle="The Green Knight's Guest", type="unit",
                faction=Faction.objects.get(slug="camelot"), card_set=card_set, power=5, unique=True,
                attributes=["Knight"], keywords=["Glory"], text="Action: Draw 1 card.", number=1)
    card.cost = 4
    card.icons = ["combat", "faith"]
    card.save()
    return card


def test_card_image_is_served_as_png_with_caching_headers(image_dirs, db_card):
    response = Client().get("/cards/imgtest-gawain.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    assert "public" in response["Cache-Control"] and "max-age=" in response["Cache-Control"]
    assert response["ETag"].startswith('"')
    img = Image.open(io.BytesIO(body(response)))
    assert img.size == (500, 700)


def test_small_size_is_a_thumbnail(image_dirs, db_card):
    response = Client().get("/cards/imgtest-gawain.png?size=small")
    assert response.status_code == 200
    assert Image.open(io.BytesIO(body(response))).size == (250, 350)


def test_unknown_size_is_a_400_naming_it(image_dirs, db_card):
    response = Client().get("/cards/imgtest-gawain.png?size=huge")
    assert response.status_code == 400
    assert "huge" in response.json()["detail"]


def test_unknown_code_is_a_404(image_dirs, db):
    assert Client().get("/cards/no-such-card.png").status_code == 404


def test_post_is_refused(image_dirs, db_card):
    assert Client().post("/cards/imgtest-gawain.png").status_code == 405


def test_if_none_match_answers_304_without_a_body(image_dirs, db_card):
    client = Client()
    etag = client.get("/cards/imgtest-gawain.png")["ETag"]
    response = client.get("/cards/imgtest-gawain.png", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response["ETag"] == etag
    assert response.content == b""
    assert client.get("/cards/imgtest-gawain.png", HTTP_IF_NONE_MATCH=f"W/{etag}").status_code == 304
    assert client.get("/cards/imgtest-gawain.png", HTTP_IF_NONE_MATCH='"other"').status_code == 200
    # The ETag names the size: a thumbnail is a different representation.
    assert client.get("/cards/imgtest-gawain.png?size=small", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_second_request_is_served_from_the_disk_cache(image_dirs, db_card, monkeypatch):
    first = images.card_png(db_card)
    assert first.rendered and first.path.exists()
    calls = []
    monkeypatch.setattr(images, "render_card", lambda *a, **k: calls.append(1))
    second = images.card_png(Card.objects.get(pk=db_card.pk))
    assert not second.rendered and second.path == first.path
    assert calls == []
    response = Client().get("/cards/imgtest-gawain.png")
    assert response.status_code == 200 and response.streaming and calls == []  # streamed from the file


def test_editing_the_card_renders_anew_and_changes_the_etag(image_dirs, db_card):
    client = Client()
    before = client.get("/cards/imgtest-gawain.png")
    old_etag, old_png = before["ETag"], body(before)
    old_path = images.card_png(db_card).path
    db_card.text = "Response: After Gawain wins a struggle, gain 2 Influence."
    db_card.save()
    after = client.get("/cards/imgtest-gawain.png", HTTP_IF_NONE_MATCH=old_etag)
    assert after.status_code == 200  # the old ETag no longer matches
    assert after["ETag"] != old_etag
    assert body(after) != old_png
    assert not old_path.exists()  # the stale render is removed, the cache does not grow with every edit


def test_faction_colour_change_invalidates_the_cache(image_dirs, db_card):
    key = images.card_cache_key(db_card)
    faction = db_card.faction
    faction.color = "#000000"
    faction.save()
    assert images.card_cache_key(Card.objects.get(pk=db_card.pk)) != key


def test_new_illustration_changes_the_image(image_dirs, db_card):
    from cards.uploads import attach_illustration
    from django.core.files.uploadedfile import SimpleUploadedFile

    before = images.card_png(db_card)
    buf = io.BytesIO()
    Image.new("RGB", (300, 200), (0, 200, 0)).save(buf, format="PNG")
    attach_illustration(db_card, SimpleUploadedFile("green.png", buf.getvalue(), content_type="image/png"))
    after = images.card_png(Card.objects.get(pk=db_card.pk))
    assert after.key != before.key and after.rendered
    with Image.open(after.path) as img:
        assert near(img.getpixel((250, 240)), (0, 200, 0), 30)


def test_an_unwritable_cache_still_serves_the_image(settings, tmp_path, db_card):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory should be")
    settings.CARD_IMAGE_CACHE_DIR = blocker / "cache"
    response = Client().get("/cards/imgtest-gawain.png")
    assert response.status_code == 200
    assert Image.open(io.BytesIO(body(response))).size == (500, 700)


def test_a_missing_illustration_file_falls_back_to_the_placeholder(image_dirs, db_card):
    db_card.illustration.name = "illustrations/gone.jpg"
    db_card.save()
    response = Client().get("/cards/imgtest-gawain.png")
    assert response.status_code == 200


# ---- rendercards -----------------------------------------------------------------------------------------
def test_rendercards_writes_every_card_and_a_contact_sheet(image_dirs, db_card):
    out, sheet = image_dirs / "out", image_dirs / "sheet.png"
    call_command("rendercards", "--set", "imgtest", "--out", str(out), "--sheet", str(sheet), verbosity=0)
    assert [p.name for p in out.iterdir()] == ["imgtest-gawain.png"]
    with Image.open(sheet) as img:
        assert img.width >= 250 and img.height >= 350


def test_rendercards_unknown_set_is_an_error_naming_it(image_dirs, db):
    with pytest.raises(CommandError, match="no-such-set"):
        call_command("rendercards", "--set", "no-such-set", verbosity=0)


def test_rendercards_bad_size_is_an_error(image_dirs, db):
    with pytest.raises(CommandError, match="huge"):
        call_command("rendercards", "--size", "huge", verbosity=0)


def test_rendercards_strict_fails_on_an_illegible_card(image_dirs, db_card):
    db_card.text = "Action: " + "Draw a card and then draw another card. " * 200
    db_card.save()
    with pytest.raises(CommandError, match="not legible"):
        call_command("rendercards", "--code", "imgtest-gawain", "--strict", verbosity=0)


# ---- the core set ----------------------------------------------------------------------------------------
def test_every_core_card_is_legible(core_card_data):
    """Every card of the core set renders as a legible image."""
    assert core_card_data, "the core set is empty"
    problems = {c["code"]: images.card_legibility(c).problems for c in core_card_data}
    assert {code: p for code, p in problems.items() if p} == {}
    sizes = [images.card_legibility(c).text_px for c in core_card_data]
    assert min(s for s in sizes if s is not None) >= 11


def test_core_faction_and_quest_cards_render(core_card_data):
    for ctype in ("faction", "quest", "destiny", "unit"):
        data = next(c for c in core_card_data if c["type"] == ctype)
        assert render_card(face_from_dict(data, set_name="Core Set"), "small").size == (250, 350)


def test_transparent_parts_of_an_illustration_show_the_placeholder():
    art = Image.new("RGBA", (400, 300), (0, 0, 0, 0))
    art.paste((0, 0, 230, 255), (150, 100, 250, 200))  # an opaque blue square in the middle
    face = CardFace(data=card_dict("location", faction="summer"), color=images.FALLBACK_COLORS["summer"],
                    faction_name="The Summer Court", illustration=art)
    img = render_card(face)
    assert near(img.getpixel((250, 240)), (0, 0, 230), 30)  # the opaque part
    assert near(img.getpixel((60, 130)), hex_to_rgb(images.FALLBACK_COLORS["summer"]), 90)  # not black


def test_deck_grid_fits_open_graph_size_up_to_36_different_cards():
    from cards.deck_images import MIN_HEIGHT, _grid_geometry

    for n in (1, 20, 30, 36):
        w, h, cols, rows = _grid_geometry(n, MIN_HEIGHT - 100 - 24)
        assert rows * (h + 8) - 8 <= MIN_HEIGHT - 100 - 24 and w >= 84, n
    assert _grid_geometry(37, MIN_HEIGHT - 100 - 24)[0] == 112  # beyond that the image grows taller


def test_prune_removes_images_of_deleted_and_edited_cards(image_dirs, db_card):
    current = images.card_png(db_card).path
    cache = current.parent
    orphan = cache / f"deleted-card_{'0' * 32}_normal.png"
    orphan.write_bytes(b"old")
    stale = cache / f"{db_card.code}_{'1' * 32}_small.png"
    stale.write_bytes(b"old")
    call_command("rendercards", "--code", db_card.code, "--prune", verbosity=0)
    assert current.exists()
    assert not orphan.exists() and not stale.exists()


def test_head_request_gets_the_headers(image_dirs, db_card):
    response = Client().head("/cards/imgtest-gawain.png")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png" and response["ETag"]


# ---- any card data lays out inside its boxes -------------------------------------------------------------

_word = st.text(alphabet=st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=1, max_size=14)
_text = st.lists(st.one_of(_word, st.sampled_from(["Action:", "⚔", "[faith]", "\n", "Response:", "Glory."])),
                 max_size=120).map(" ".join)


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ctype=st.sampled_from(list(TYPES)), name=_word.map(str.strip).filter(bool), text=_text,
       subtitle=st.one_of(st.none(), _word), flavor=st.one_of(st.none(), _text), unique=st.booleans())
def test_any_card_text_stays_inside_the_text_box(ctype, name, text, subtitle, flavor, unique):
    data = card_dict(ctype, name=name * 3, text=text, subtitle=subtitle, flavor=flavor, unique=unique)
    g = images.card_geometry(data)
    w, h = g.box_w * g.k, g.box_h * g.k
    if g.layout is not None:
        assert all(line.width <= w + 0.5 for line in g.layout.lines)
        assert all(line.y + g.layout.line_height <= h + 0.5 for line in g.layout.lines)
    title_w = g.title_width * g.k
    assert all(images.text_width("name", int(round(g.name_size * g.k)), line) <= title_w + 1 for line in g.name_lines)
    assert g.plate_bottom < g.art_top < g.art_bottom < g.text_top < g.text_bottom
