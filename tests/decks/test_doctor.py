"""The deck doctor (CONTRACTS §3 `doctor`, docs/decks.md "The deck doctor"): every finding code, the command, the
API, the pages and the card swaps' use of its distinction.

The old Le Fay and Camelot starters are kept in tests/decks/data (the shipped lists change with rebalancing): the
Le Fay one has no unit with a Combat or Faith icon; the Camelot one holds Arthur Pendragon and Trial by Combat,
which only a real opponent makes worth playing.
"""
from __future__ import annotations

import json
import math
import time
from fractions import Fraction
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from cards.games.doctor import DoctorDeck, GameSample
from cards.games.r1 import doctor as r1_doctor
from decks.doctor import DoctorInputError, diagnose_text

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
LEFAY = (DATA / "lefay_old.txt").read_text(encoding="utf-8")
CAMELOT = (DATA / "camelot_old.txt").read_text(encoding="utf-8")
CORE = {c["name"]: c for c in json.loads((ROOT / "cards" / "data" / "core.json").read_text())["cards"]}
REALMS = {c["name"]: c for c in json.loads((ROOT / "cards" / "games" / "realms" / "data" / "realms.json")
                                           .read_text())["cards"]}
DOCTOR = "/api/decks/doctor/"


def by_code(report):
    return {f["code"]: f for f in report["findings"]}


def entries_of(names: dict[str, int], cards=CORE):
    return [(cards[n], k) for n, k in names.items()]


def quests():
    return {n: 1 for n in ["Court Intrigue", "Seek the Holy Grail", "Visit the Market", "Council of War",
                           "Forge an Alliance", "Night Raid", "Pilgrimage to Glastonbury"]}


def pure(names: dict[str, int], samples=()):
    """The r1 checks on a deck of core cards, with no database (the hook is pure)."""
    deck = DoctorDeck(entries=entries_of(names), pool=list(CORE.values()), samples=samples)
    return {f.code: f for f in r1_doctor.diagnose(deck)}


# ---- undefended_icon ----------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_old_lefay_starter_cannot_defend_combat_or_faith_with_its_evidence():
    report = diagnose_text(LEFAY)
    f = by_code(report)["undefended_icon"]
    assert f["rule"] == "§6.2 S.6" and f["cards"] == ["Combat", "Faith"]
    assert "Combat or Faith" in f["message"] and "No unit can defend" in f["message"]
    ev = f["evidence"]
    assert ev["icons"] == {"combat": 0, "guile": 21, "sorcery": 26, "faith": 0}
    assert ev["undefended"] == ["combat", "faith"] and ev["draw_cards"] == 60
    assert ev["p_unit_by_round"] == {"combat": {"2": 0.0, "3": 0.0, "4": 0.0}, "faith": {"2": 0.0, "3": 0.0, "4": 0.0}}
    assert ev["seen_by_round"] == {"2": 14, "3": 16, "4": 18}   # 7 + 3 drawn back (§4) + 2 a round (§5.2)
    # the faction has one unit of each, Neutral 10 and 6 (the figures)
    assert ev["available"] == {"combat": {"faction": 1, "neutral": 10}, "faith": {"faction": 1, "neutral": 6}}
    assert len(f["suggestions"]) == 4
    for s in f["suggestions"]:
        card = CORE[s["add"].split(",")[0]]
        assert card["type"] == "unit" and card["faction"] in ("neutral", "lefay")
        assert {"combat", "faith"} & set(card["icons"]) and "can defend" in s["why"]
        assert s["remove"] and s["remove"].split(",")[0] in LEFAY
    adds = [CORE[s["add"].split(",")[0]] for s in f["suggestions"]]
    assert any("combat" in c["icons"] for c in adds) and any("faith" in c["icons"] for c in adds)


def test_few_units_of_an_icon_give_the_exact_chance_by_round_2_3_and_4():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 3, "Wandering Knight": 3,
             "Village Priest": 3, "Cutpurse": 2}
    names["Knight of the Round Table"] = 60 - 11   # a deck of one plain unit, illegal but read all the same
    f = pure(names)["undefended_icon"]
    ev = f.evidence
    assert ev["icons"]["guile"] == 2 and ev["icons"]["sorcery"] == 0
    for r, seen in (("2", 14), ("3", 16), ("4", 18)):   # 1 - C(58, seen) / C(60, seen)
        exact = 1 - Fraction(math.comb(58, seen), math.comb(60, seen))
        assert ev["p_unit_by_round"]["guile"][r] == float(exact)
    assert "only 2 units bear Guile" in f.message and "sorcery" in ev["undefended"]


def test_a_deck_with_every_icon_well_covered_has_no_undefended_icon():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Wandering Minstrel": 20, "Wise Woman of the Fens": 20,
             "Knight of the Round Table": 20}
    assert "undefended_icon" not in pure(names)


# ---- dead_card and needs_opponent ---------------------------------------------------------------------------
def test_opponent_only_reads_the_cards_own_abilities():
    assert "enemy" in r1_doctor.opponent_only(CORE["Enchanted Sleep"])
    assert "opponent" in r1_doctor.opponent_only(CORE["Glamour of Seeming"])
    assert "struggle" in r1_doctor.opponent_only(CORE["Trial by Combat"])
    assert "Power" in r1_doctor.opponent_only(CORE["Arthur Pendragon"])
    assert "enemy" in r1_doctor.opponent_only(CORE["Binding Hex"])   # attaches to an enemy unit
    for alone in ("Hidden Cache", "Knight of the Round Table", "Rally to the Banner"):
        assert r1_doctor.opponent_only(CORE[alone]) is None, alone


@pytest.mark.django_db
def test_goldfish_games_never_call_arthur_or_trial_by_combat_dead():
    report = diagnose_text(CAMELOT)
    found = by_code(report)
    assert report["samples"][0]["source"] == "goldfish" and report["samples"][0]["games"] == 30
    dead = found["dead_card"]
    assert not {"Arthur Pendragon", "Trial by Combat"} & set(dead["cards"])
    assert dead["evidence"]["source"] == "goldfish" and all(v < 0.05 for v in dead["evidence"]["played_per_copy"]
                                                            .values())
    apart = found["needs_opponent"]
    assert "Trial by Combat" in apart["cards"] and apart["severity"] == "info"
    assert "struggle" in apart["evidence"]["why"]["Trial by Combat"]
    for s in dead["suggestions"]:   # a dead card's replacement is never one the goldfish could not judge either
        assert s["remove"].split(",")[0] in dead["cards"]
        assert r1_doctor.opponent_only(CORE[s["add"].split(",")[0]]) is None


def test_a_card_never_played_is_dead_and_a_card_played_is_not():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 20, "Village Priest": 20,
             "Cutpurse": 20}
    sample = GameSample("goldfish", 30, {"Hedge Knight": 40, "Village Priest": 30, "Cutpurse": 0}, 5.0)
    f = pure(names, [sample])["dead_card"]
    assert f.cards == ("Cutpurse",)
    assert f.evidence["played_per_copy"] == {"Cutpurse": 0.0} and f.rule == "§5.3"
    # against stored versus games with plays, an opponent-only card is judged like any other
    names["Enchanted Sleep"] = 3
    versus = GameSample("versus", 30, {"Hedge Knight": 40, "Village Priest": 30, "Cutpurse": 20}, 8.0)
    found = pure(names, [versus])
    assert found["dead_card"].cards == ("Enchanted Sleep",) and "needs_opponent" not in found


# ---- the other checks ----------------------------------------------------------------------------------------
def test_cost_curve_names_the_card_no_quest_can_pay():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Arthur Pendragon": 3, "Hedge Knight": 57}
    f = pure(names)["cost_curve"]
    assert f.cards == ("Arthur Pendragon, The Once and Future King",) and f.rule == "§2.4, §5.3"
    wealth = sorted(CORE[q]["wealth"] for q in quests())
    assert f.evidence["quest_wealth"] == wealth and f.evidence["above_max_wealth"] == list(f.cards)
    assert f.suggestions and all(CORE[s.add]["type"] == "quest" for s in f.suggestions)


def test_setup_budget_fires_when_the_opening_seven_rarely_holds_two_cheap_units():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Arthur Pendragon": 57, "Hedge Knight": 3}
    f = pure(names)["setup_budget"]
    exact = sum(Fraction(math.comb(3, i) * math.comb(57, 7 - i), math.comb(60, 7)) for i in (2, 3))
    assert f.evidence["cheap_units"] == 3 and f.evidence["p_two_in_opening"] == float(exact)
    assert f.rule == "§4" and f.suggestions
    # the hands report's budget figures: a hand of 6-cost Arthurs places one (8 budget) and uses 6 of it
    assert f.evidence["samples"] == 300 and 5.5 < f.evidence["mean_budget_used"] < 8
    assert 0.9 < f.evidence["mean_units_placed"] < 1.5 and "budget on average" in f.message
    assert "setup_budget" not in pure({"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 60})


def test_loyalty_surcharge_counts_the_wealth_and_suggests_an_in_faction_card():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 57, "Enchanted Sleep": 3}
    f = pure(names)["loyalty_surcharge"]
    assert f.rule == "§9.3" and f.evidence["surcharge_total"] == 3 and f.evidence["copies"] == 3
    assert f.cards == ("Enchanted Sleep",)


def test_restricted_cards_beyond_six_copies_are_a_finding_with_the_exact_chance():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Galahad": 3, "The Round Table": 3,
             "The Chapel Perilous": 3, "Hedge Knight": 51}
    f = pure(names)["restricted_cards"]
    exact = 1 - sum(Fraction(math.comb(9, i) * math.comb(51, 7 - i), math.comb(60, 7)) for i in (0, 1))
    assert f.evidence["restricted_copies"] == 9 and f.evidence["p_two_in_opening"] == float(exact)
    assert f.rule == "§9.3"


def test_draw_size_over_sixty_says_when_the_deck_runs_out():
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 70}
    f = pure(names)["draw_size"]
    assert f.evidence["draw_cards"] == 70 and f.evidence["last_round_before_elimination"] == 30   # (70 - 10) / 2
    assert f.rule == "§2.1, §12"
    assert "draw_size" not in pure({"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 60})


def test_realms_raids_from_a_tactic_no_warrior_bears_are_undefended():
    leader = next(c for c in REALMS.values() if c["type"] == "leader" and c.get("affiliation") == "ashen")
    front_only = [c for c in REALMS.values() if c["type"] == "warrior" and c.get("tactics") == ["front"]
                  and c.get("affiliation") in (None, "ashen")]
    places = [c for c in REALMS.values() if c["type"] == "place" and c.get("affiliation") is None][:3]
    entries = [(leader, 1)] + [(c, 20) for c in front_only[:1]] + [(c, 13) for c in places]
    from cards.games.realms.doctor import diagnose
    found = {f.code: f for f in diagnose(DoctorDeck(entries=entries, pool=list(REALMS.values())))}
    f = found["undefended_icon"]
    assert set(f.cards) == {"left", "right"} and f.rule == "002 §14, §6"
    assert f.evidence["p_warrior_by_turn"]["left"] == {"2": 0.0, "3": 0.0, "4": 0.0}
    assert all({"left", "right"} & set(REALMS[s.add]["tactics"]) for s in f.suggestions)


def test_doctor_is_fast_enough_for_the_live_panel():
    """The editor redraws the panel on each pause in typing: with the goldfish sample cached, a reading is a few
    milliseconds (docs/decks.md gives the figures)."""
    names = {"Camelot": 1, "Alliance of Kings": 1, **quests(), "Hedge Knight": 30, "Village Priest": 30}
    sample = GameSample("goldfish", 30, {"Hedge Knight": 40, "Village Priest": 30}, 5.0)
    pure(names, [sample])
    start = time.perf_counter()
    for _ in range(10):
        pure(names, [sample])
    assert (time.perf_counter() - start) / 10 < 0.2


# ---- the command ---------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_command_prints_the_json_report(tmp_path, capsys):
    path = tmp_path / "lefay.txt"
    path.write_text(LEFAY, encoding="utf-8")
    call_command("doctor", str(path), "--json")
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"deck", "findings"} and data["deck"]["faction"] == "lefay"
    f = by_code(data)["undefended_icon"]
    assert set(f) >= {"code", "rule", "message", "cards", "evidence", "suggestions"}
    call_command("doctor", str(path))
    text = capsys.readouterr().out
    assert "[undefended_icon, §6.2 S.6]" in text and "+ " in text


@pytest.mark.django_db
def test_command_bad_input_exits_2_naming_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("1x Camelot\n3x Hedge Knight\n2x No Such Card At All\n", encoding="utf-8")
    with pytest.raises(CommandError) as e:
        call_command("doctor", str(path))
    assert e.value.returncode == 2 and "line 3" in str(e.value).lower() and "No Such Card" in str(e.value)
    with pytest.raises(CommandError) as e:
        call_command("doctor", str(tmp_path / "missing.txt"))
    assert e.value.returncode == 2 and "no such file" in str(e.value)
    with pytest.raises(CommandError) as e:
        call_command("doctor", str(path), "--game", "nope")
    assert e.value.returncode == 2 and "--game" in str(e.value)


@pytest.mark.django_db
def test_command_reads_a_realms_deck(capsys):
    call_command("loadcards", str(ROOT / "cards" / "games" / "realms" / "data" / "realms.json"), verbosity=0)
    capsys.readouterr()
    starter = sorted((ROOT / "cards" / "games" / "realms" / "data" / "starters").glob("*.txt"))[0]
    call_command("doctor", str(starter), "--game", "realms", "--json")
    data = json.loads(capsys.readouterr().out)
    assert data["deck"]["game"] == "realms" and data["deck"]["affiliation"]


# ---- the API -------------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_api_is_open_to_anonymous_users_as_json_or_plain_text():
    r = APIClient().post(DOCTOR, {"text": LEFAY}, format="json")
    assert r.status_code == 200
    assert by_code(r.json())["undefended_icon"]["cards"] == ["Combat", "Faith"]
    r = APIClient().post(DOCTOR, LEFAY, content_type="text/plain")
    assert r.status_code == 200 and r.json()["deck"]["faction"] == "lefay"


@pytest.mark.django_db
@pytest.mark.parametrize("body, fmt, needle", [
    ({"text": "1x Camelot\n2x Nobody Of That Name"}, "json", "line 2"),
    ({"nothing": "here"}, "json", '"text"'),
    ({"text": ""}, "json", "empty"),
    ({"text": "1x Camelot", "game": "nope"}, "json", "unknown game"),
    ({"text": "1x Camelot", "game": "regions"}, "json", "no deck doctor"),
    ({"text": "1x Camelot\x00"}, "json", "nul character"),
])
def test_api_bad_input_is_a_400_naming_what_is_wrong(body, fmt, needle):
    r = APIClient().post(DOCTOR, body, format=fmt)
    assert r.status_code == 400 and needle in r.json()["detail"].lower(), r.json()


@pytest.mark.django_db
def test_api_suggests_from_the_signed_in_users_collection(django_user_model):
    from decks.models import CollectionCard
    user = django_user_model.objects.create_user("owner", password="pw-for-tests-1")
    priest = next(c for c in CORE.values() if c["name"] == "Village Priest")
    CollectionCard.objects.create(user=user, card_code=priest["code"], count=3)
    client = APIClient()
    client.force_login(user)
    f = by_code(client.post(DOCTOR, {"text": LEFAY}, format="json").json())["undefended_icon"]
    assert [s["add"] for s in f["suggestions"]] == ["Village Priest"]
    assert "your collection" in f["suggestions"][0]["why"]


@pytest.mark.django_db
def test_openapi_schema_has_the_doctor_endpoint(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "/api/decks/doctor/" in schema and "DoctorFinding" in schema


# ---- the pages -----------------------------------------------------------------------------------------------
@pytest.mark.django_db
def test_deck_page_and_editor_panel_show_the_finding(client, django_user_model):
    from decks.decklist import parse_decklist
    from decks.pool import CardPool
    from decks.services import deck_create
    user = django_user_model.objects.create_user("maker", password="pw-for-tests-1")
    deck = deck_create(owner=user, name="Old Le Fay", counts=parse_decklist(LEFAY, CardPool.from_db()).counts).deck
    client.force_login(user)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert 'id="finding-undefended_icon"' in page and "No unit can defend a Combat or Faith struggle" in page
    assert 'href="/rules/#S.6"' in page   # the rule links to its section of the rulebook
    live = client.post("/decks/check/", {"text": LEFAY}).content.decode()
    assert 'id="finding-undefended_icon"' in live and 'id="doctor"' in live
    fixed = LEFAY.replace("3x Cutpurse", "3x Shield-Maiden of the Marches").replace("3x Court Spy", "3x Mounted Errant")
    live = client.post("/decks/check/", {"text": fixed}).content.decode()
    assert 'id="finding-undefended_icon"' not in live


def test_realms_goldfish_games_keep_combat_tricks_apart_from_dead_cards():
    from cards.games.realms.doctor import diagnose, opponent_only
    assert "combat" in opponent_only(REALMS["Unmaking"]) and "target" in opponent_only(REALMS["Ember Bolt"])
    assert opponent_only(REALMS["Naval Bombardment"]) is None   # raids reach the goldfish's Leader
    leader = next(c for c in REALMS.values() if c["type"] == "leader" and c.get("affiliation") == "ashen")
    names = ["Village Militia", "Farmstead", "Unmaking", "Naval Bombardment"]
    entries = [(leader, 1)] + [(REALMS[n], 15) for n in names]
    sample = GameSample("goldfish", 30, {"Village Militia": 40, "Farmstead": 30}, 12.0)
    found = {f.code: f for f in diagnose(DoctorDeck(entries=entries, pool=list(REALMS.values()),
                                                    samples=[sample]))}
    assert found["dead_card"].cards == ("Naval Bombardment",) and found["needs_opponent"].cards == ("Unmaking",)


@pytest.mark.django_db
def test_realms_doctor_plays_its_own_goldfish_sample():
    call_command("loadcards", str(ROOT / "cards" / "games" / "realms" / "data" / "realms.json"), verbosity=0)
    text = (ROOT / "cards" / "games" / "realms" / "data" / "starters" / "ashen.txt").read_text(encoding="utf-8")
    report = diagnose_text(text, game_slug="realms")
    (sample,) = report["samples"]
    assert sample["source"] == "goldfish" and sample["games"] == 30
    assert diagnose_text(text, game_slug="realms") == report   # the same deck reads the same


@pytest.mark.django_db
def test_realms_editor_panel_shows_the_doctor(client):
    call_command("loadcards", str(ROOT / "cards" / "games" / "realms" / "data" / "realms.json"), verbosity=0)
    text = (ROOT / "cards" / "games" / "realms" / "data" / "starters" / "ashen.txt").read_text(encoding="utf-8")
    live = client.post("/realms/decks/live/", {"text": text}).content.decode()
    assert 'id="doctor"' in live and 'id="finding-undefended_icon"' in live
    # its rule is a link into the realms rulebook, shown without the document's number; never into r1's
    assert 'href="/realms/rules/#s14"' in live and 'href="/realms/rules/#s6"' in live and "002 §" not in live
    assert 'href="/rules/#s6"' not in live
