"""The realms game on the site (CONTRACTS §7): its loader, validatedeck --game realms with each error code, the
API, search, pages, the editor's live panel and +/− edits, decks with versions, decklists, the collection and
hands (command, API, page)."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR
from cards.models import Card, CardSet, GameCard
from decks.models import GameCollectionCard, GameDeck, GameDecklist

pytestmark = pytest.mark.django_db
SUNWARD = (STARTERS_DIR / "sunward.txt").read_text()


@pytest.fixture
def realms(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


def _validate(path, capsys, *args):
    with pytest.raises(SystemExit) as exc:
        call_command("validatedeck", str(path), "--game", "realms", "--json", *args)
        raise SystemExit(0)
    return exc.value.code, json.loads(capsys.readouterr().out)


def test_the_set_loads_beside_r1_and_exports_unchanged(realms, tmp_path, capsys):
    assert GameCard.objects.filter(game="realms").count() == 147
    assert Card.objects.count() == 191  # r1's catalogue is untouched
    assert CardSet.all_games.filter(game="realms", code="fb").exists() and not CardSet.objects.filter(code="fb")
    out = tmp_path / "fb.json"
    call_command("exportcards", "--game", "realms", "--set", "fb", "-o", str(out))
    assert json.loads(out.read_text()) == json.loads(SET_FILE.read_text())
    call_command("loadcards", str(out), "--json")
    assert json.loads(capsys.readouterr().out) == {"created": 0, "updated": 0, "unchanged": 147, "rewritten": []}
    # r1's export is still r1 alone, in r1's shape
    call_command("exportcards")
    assert json.loads(capsys.readouterr().out)["set"] == {"code": "core", "name": "Core Set"}


def test_a_bad_realms_card_loads_nothing(tmp_path, capsys):
    doc = json.loads(SET_FILE.read_text())
    doc["cards"][5]["cv"] = "lots"
    doc["cards"][9]["type"] = "dragon"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(Exception):
        call_command("loadcards", str(path), verbosity=0)
    err = capsys.readouterr().err
    assert doc["cards"][5]["code"] in err and "cv" in err and "type" in err
    assert not GameCard.objects.exists() and not CardSet.all_games.filter(game="realms").exists()


def test_validatedeck_reports_each_error_code(realms, tmp_path, capsys):
    path = tmp_path / "deck.txt"
    path.write_text(SUNWARD)
    assert _validate(path, capsys)[0] == 0
    # A second "Queen Ysolde" (another set, another subtitle) makes the bare name ambiguous.
    extra = {"set": {"code": "xx", "name": "Extra", "game": "realms"}, "cards": [
        {"code": "xx-1", "name": "Queen Ysolde", "subtitle": "in Exile", "type": "leader", "affiliation": "sunward",
         "cv": 4, "tactics": ["front"], "neighbor_count": 4, "provides": {"gold": 1}, "text": ""}]}
    (tmp_path / "extra.json").write_text(json.dumps(extra))
    call_command("loadcards", str(tmp_path / "extra.json"), verbosity=0)
    capsys.readouterr()
    path.write_text("Leaders:\n1x Queen Ysolde\n1x Aldric Varrow\n1x Mother Orla\n1x The Pale Abbess\n1x Old Maro\n"
                    "7x Pikemen\n1x Nobody Knows\nthree Farmstead\n6x Sefa Greenmantle\n")
    code, verdict = _validate(path, capsys)
    codes = {e["code"] for e in verdict["errors"]}
    assert code == 1 and not verdict["legal"]
    assert {"bad_line", "unknown_card", "ambiguous_card", "deck_size", "leader_count", "leader_affiliation"} \
        <= codes, codes
    assert all(e["rule"].startswith("002") for e in verdict["errors"])
    path.write_text(SUNWARD.replace("6x Farmstead", "6x Farmstead\n6x Hired Blades\n2x Kin Spearwife"))
    code, verdict = _validate(path, capsys)
    assert {"copy_limit", "affiliation"} == {e["code"] for e in verdict["errors"]}
    # 002 §17: the simplified format ignores affiliation
    code, simple = _validate(path, capsys, "--format", "simplified")
    assert "affiliation" not in {e["code"] for e in simple["errors"]} and simple["format"] == "simplified"
    with pytest.raises(Exception):
        call_command("validatedeck", str(path), "--game", "realms", "--format", "modern")


SEA_FOLK = {"set": {"code": "sf", "name": "Sea Folk", "game": "realms"}, "cards": [
    {"code": "sf-1", "name": "Captain Maren", "type": "leader", "affiliation": "sea-folk", "cv": 7,
     "tactics": ["front"], "neighbor_count": 4, "provides": {"gold": 2, "food": 2}, "text": ""},
    {"code": "sf-2", "name": "Tidal Raider", "type": "warrior", "affiliation": "sea-folk", "cv": 2, "cost": 1,
     "tactics": ["front"], "warrior_type": "INFANTRY", "consumes": {"food": 1}, "text": "", "unlimited": True},
]}


def test_a_set_with_a_new_affiliation_loads_and_is_shown_searched_and_checked(realms, tmp_path, capsys):
    # CONTRACTS §7: an affiliation is any slug; a new one gets a name and a colour derived from it
    (tmp_path / "sf.json").write_text(json.dumps(SEA_FOLK))
    call_command("loadcards", str(tmp_path / "sf.json"), verbosity=0)
    assert GameCard.objects.filter(game="realms", code__startswith="sf-").count() == 2
    c = Client()
    detail = c.get("/realms/cards/sf-1/").content.decode()
    assert "Captain Maren" in detail and "Sea Folk" in detail
    img = c.get("/realms/cards/sf-2.png")
    assert img.status_code == 200 and img["Content-Type"] == "image/png"
    api = c.get("/realms/api/cards/", {"q": "aff:sea-folk"}).json()
    assert {x["code"] for x in api["results"]} == {"sf-1", "sf-2"}
    legal = {x["code"] for x in c.get("/realms/api/cards/", {"q": "legal:sea-folk t:place"}).json()["results"]}
    assert "fb-001" in legal and all(x.startswith("fb-") for x in legal)   # General Places, none of another's
    page = c.get("/realms/cards/", {"q": "aff:sea-folk"}).content.decode()
    assert "Tidal Raider" in page and "Farmstead" not in page
    css = c.get("/realms/game.css").content.decode()
    assert ".group-sea-folk{--group:#" in css and ".group-sunward{--group:#b3362b}" in css
    capsys.readouterr()
    deck = tmp_path / "sea.txt"
    deck.write_text("1x Captain Maren\n40x Tidal Raider\n19x Farmstead\n")
    code, verdict = _validate(deck, capsys)
    assert code == 0 and verdict["legal"] and verdict["affiliation"] == "sea-folk", verdict
    deck.write_text("1x Captain Maren\n40x Tidal Raider\n19x Farmstead\n1x Kin Spearwife\n")
    code, verdict = _validate(deck, capsys)
    assert any(e["code"] == "affiliation" and "Sea Folk" in e["message"] for e in verdict["errors"]), verdict


def test_a_card_whose_affiliation_is_not_a_slug_is_refused_naming_card_and_field(tmp_path, capsys):
    doc = json.loads(json.dumps(SEA_FOLK))
    doc["cards"][1]["affiliation"] = "Sea Folk!"
    (tmp_path / "sf.json").write_text(json.dumps(doc))
    with pytest.raises(Exception):
        call_command("loadcards", str(tmp_path / "sf.json"), verbosity=0)
    err = capsys.readouterr().err
    assert "sf-2" in err and "affiliation" in err and "slug" in err
    assert not GameCard.objects.filter(code__startswith="sf-").exists()


def test_api_validate_and_search(realms):
    c = Client()
    r = c.post("/api/decks/validate/", {"text": SUNWARD, "game": "realms"}, content_type="application/json")
    assert r.status_code == 200 and r.json()["legal"] and r.json()["affiliation"] == "sunward"
    r = c.post("/realms/api/decks/validate/", {"text": SUNWARD, "format": "bogus"}, content_type="application/json")
    assert r.status_code == 400 and "format" in r.json()["detail"]
    assert c.post("/api/decks/validate/", {"text": "x", "game": "chess"},
                  content_type="application/json").status_code == 400
    # r1 with no game named: unchanged
    assert "faction" in c.post("/api/decks/validate/", {"text": "1x Nothing"},
                               content_type="application/json").json()
    api = c.get("/realms/api/cards/", {"q": "t:leader aff:deepwood"}).json()
    assert api["count"] == 3 and all(x["type"] == "leader" and x["affiliation"] == "deepwood"
                                     for x in api["results"])
    assert api["results"][0]["image_url"].endswith(".png")
    assert c.get("/api/cards/", {"game": "realms", "q": "wt:cavalry"}).json()["count"] >= 1
    bad = c.get("/realms/api/cards/", {"q": "cv>>3"})
    assert bad.status_code == 400 and "detail" in bad.json()
    assert c.get("/api/cards/", {"game": "nope"}).status_code == 400
    assert c.get("/realms/api/cards/fb-001/").json()["name"] == "Farmstead"


@pytest.mark.parametrize("query,check", [
    ("t:warrior wt:cavalry", lambda c: c["type"] == "warrior" and c["warrior_type"] == "CAVALRY"),
    ("cv>=5", lambda c: (c["cv"] or 0) >= 5),
    ("tac:left -tac:front", lambda c: "left" in c["tactics"] and "front" not in c["tactics"]),
    ("pr:iron", lambda c: c["provides"]["iron"] > 0),
    ("co:food", lambda c: c["consumes"]["food"] > 0),
    ('k:"dark harmony"', lambda c: "DARK HARMONY" in c["keywords"]),
    ("aff:general t:place", lambda c: c["affiliation"] is None and c["type"] == "place"),
    ("legal:ashen", lambda c: c["affiliation"] in (None, "ashen")),
    ("x:raid or is:unlimited", lambda c: "raid" in c["text"].lower() or c["unlimited"]),
])
def test_search_keys_find_what_they_say(query, check):
    from cards.games.realms import bundled_cards
    from cards.games.realms.search import filter_cards

    cards = list(bundled_cards())
    found = filter_cards(query, cards)
    assert found and all(check(c) for c in found)
    assert len(found) == sum(1 for c in cards if check(c))


def test_pages_and_images(realms):
    c = Client()
    assert b"Farmstead" in c.get("/realms/cards/").content
    page = c.get("/realms/cards/", {"q": "wt:cavalry"}).content
    assert b"CAVALRY" in page and b"Farmstead" not in page
    assert b"unknown key" in c.get("/realms/cards/", {"q": "zz:1"}).content
    assert b"Combat Value" in c.get("/realms/cards/syntax/").content
    detail = c.get("/realms/cards/fb-048/").content
    assert b"Queen Ysolde" in detail and b"Affiliation" in detail
    img = c.get("/realms/cards/fb-048.png")
    assert img.status_code == 200 and img["Content-Type"] == "image/png"
    assert c.get("/realms/cards/fb-048.png", {"size": "huge"}).status_code == 400
    assert c.get("/realms/cards/nope/").status_code == 404
    nav = c.get("/realms/cards/").content.decode()
    assert 'href="/realms/decks/"' in nav and "The Realm duel" in nav and 'href="/cards/"' in nav
    assert c.get("/r1/cards/").url == "/cards/"


def test_editor_live_panel_and_buttons(realms):
    c = Client()
    assert c.get("/realms/decks/new/").status_code == 200
    starter = c.get("/realms/decks/new/", {"starter": "The Sunward"}).content.decode()
    assert "Queen Ysolde" in starter and "Legal deck" in starter
    live = c.post("/realms/decks/live/", {"text": "1x Queen Ysolde\n6x Pikemen", "fmt": "standard"}).content.decode()
    assert "Not legal" in live and "deck_size" in live and "copy_limit" in live
    area = c.post("/realms/decks/area/", {"text": "1x Queen Ysolde\n", "fmt": "standard", "add": "fb-001"})
    assert "1x Farmstead" in area.content.decode()
    area = c.post("/realms/decks/area/", {"text": "1x Queen Ysolde\n2x Farmstead\n", "remove": "fb-001"})
    assert "1x Farmstead" in area.content.decode()
    assert b"+" in c.get("/realms/decks/browser/", {"q": "t:leader"}).content


def test_decks_versions_decklists_collection_hands(realms):
    user = get_user_model().objects.create_user("realmer", password="pw-realmer-1")
    other = Client()
    c = Client()
    c.force_login(user)
    r = c.post("/realms/decks/new/", {"name": "Dawn", "text": SUNWARD, "fmt": "standard", "is_private": "on"})
    deck = GameDeck.objects.get(owner=user)
    assert r.status_code == 302 and r.url == f"/realms/decks/{deck.pk}/"
    assert deck.identity["affiliation"] == "sunward" and deck.version == 1
    assert c.post("/realms/decks/new/", {"name": "Bad", "text": "9x Nobody"}).status_code == 400
    assert GameDeck.objects.count() == 1
    c.post(f"/realms/decks/{deck.pk}/edit/", {"name": "Dawn 2", "text": SUNWARD + "\n1x Farmstead", "fmt": "simplified",
                                             "is_private": "on"})
    deck.refresh_from_db()
    assert deck.version == 2 and deck.fmt == "simplified" and deck.versions.count() == 2
    c.post(f"/realms/decks/{deck.pk}/versions/1/restore/")
    deck.refresh_from_db()
    assert deck.version == 3 and deck.name == "Dawn"
    page = c.get(f"/realms/decks/{deck.pk}/").content.decode()
    assert "Opening hands" in page and "Queen Ysolde" in page
    assert other.get(f"/realms/decks/{deck.pk}/").status_code == 404  # private
    assert c.get(f"/realms/decks/{deck.pk}.png")["Content-Type"] == "image/png"
    assert "Leaders:" in c.get(f"/realms/decks/{deck.pk}/export.txt").content.decode()
    assert c.get("/realms/api/decks/").json()["count"] == 1 and other.get("/realms/api/decks/").status_code == 403
    r = c.post(f"/realms/decks/{deck.pk}/publish/", {"title": "Knights of the Dawn"})
    dl = GameDecklist.objects.get()
    assert r.url == dl.get_absolute_url() and dl.group == "sunward"
    assert b"Knights of the Dawn" in other.get(dl.get_absolute_url()).content
    assert b"Knights of the Dawn" in other.get("/realms/decklists/", {"group": "sunward"}).content
    assert b"Knights of the Dawn" not in other.get("/realms/decklists/", {"group": "ashen"}).content
    assert b"Knights of the Dawn" in other.get("/realms/decklists/", {"card": "fb-048"}).content
    assert other.get("/realms/api/decklists/").json()["count"] == 1
    assert other.get("/api/decklists/", {"game": "realms"}).json()["count"] == 1
    assert c.get("/api/decks/", {"game": "realms"}).json()["results"][0]["name"] == "Dawn"
    assert c.get("/api/decks/", {"game": "nope"}).status_code == 400
    assert "results" in c.get("/api/decks/").json()  # r1's, unchanged
    # r1's pages do not list realms decks
    assert b"Dawn" not in c.get("/decks/").content
    c.post("/realms/collection/", {"own_fb-001": "4", "own_fb-048": "1"})
    assert dict(GameCollectionCard.objects.values_list("card_code", "count")) == {"fb-001": 4, "fb-048": 1}
    assert c.post("/realms/collection/", {"own_fb-001": "x"}).status_code == 400
    assert b"not owned" in c.get(f"/realms/decks/{deck.pk}/").content
    hands = other.post("/realms/api/hands/", {"text": SUNWARD, "groups": [{"query": "t:place", "k": 2}]},
                       content_type="application/json").json()
    assert hands["mode"] == "hands" and hands["deck_size"] == 59 and hands["cards"][-1]["kind"] == "group"
    assert other.post("/realms/api/hands/", {"text": 5}, content_type="application/json").status_code == 400
    assert b"In the opening 7" in other.post("/realms/hands/", {"text": SUNWARD}).content


def test_simulate_hands_command(realms, tmp_path, capsys):
    path = tmp_path / "deck.txt"
    path.write_text(SUNWARD)
    call_command("simulate", str(path), "--game", "realms", "--mode", "hands", "--json")
    report = json.loads(capsys.readouterr().out)
    farm = next(r for r in report["cards"] if r["name"].startswith("Farmstead"))
    # 002 §8: 6 Farmsteads among the 59 drawable cards (Leaders set apart); exact hypergeometric
    from math import comb
    assert farm["p_opening"] == pytest.approx(1 - comb(53, 7) / comb(59, 7))


def test_publishstarters_publishes_the_realms_starters_once(realms, capsys):
    call_command("publishstarters")
    first = capsys.readouterr().out
    lists = GameDecklist.objects.filter(game="realms")
    assert lists.count() == 4 and {d.group for d in lists} == {"sunward", "deepwood", "ashen", "tideholm"}
    assert "/realms/decklists/" in first
    call_command("publishstarters")
    assert "0 published" in capsys.readouterr().out and GameDecklist.objects.filter(game="realms").count() == 4
    assert b"Knights of the Dawn" in Client().get("/realms/decklists/", {"group": "sunward"}).content
