"""Every core card with abilities, played through positions and action texts (fireplace's `test_classic.py`).

Each test lays out a position (CONTRACTS §6) with the card from cards/data/core.json, plays it with the texts a
player would type (`use`, `play`, `target`, `struggle`, ...) and asserts the numbers its printed text promises,
written out as literals from that text: "Your other Knights get +1 Power" is a Knight of Power 2 at 2 + 1 = 3;
"your opponent discards the top 2 cards of their deck" is a deck 10 - 2 = 8 cards long. The numbers are never
re-derived from the `abilities` data the engine runs. Only public verbs are used: positions in and out, action
texts, the log, and the player's view (`Game.view(p)`: effective Power, keywords, Authority, quest stats).
"""
import pytest

from simulator.engines.r1 import build_deck
from simulator.engines.r1.cards import ICON_BITS, parse_keyword
from simulator.engines.r1.game import QUEST_P
from simulator.engines.r1.positions import to_position

from .helpers import (
    FACTION, QUEST, card, codes, core_cards, entry, finish, load, logged, make_deck, play, position, side,
    starter_decks,
)

CORE = {c["code"]: c for c in core_cards()}
WITH_ABILITIES = sorted(code for code, c in CORE.items() if c.get("abilities"))
TEXT_ONLY = [c for c in core_cards() if not c.get("abilities") and c.get("text") and c["type"] != "faction"]
FACTIONS = {f: card(f"{f}-faction", "faction", faction=f, name=f.title())
            for f in ("camelot", "eleven", "lefay", "keepers", "summer", "winter", "saracen")}

# the units the cards act on: Power 2 with every icon unless said otherwise
KNIGHT = card("knight", name="Knight", attributes=["Knight"])
KING = card("king", name="King", attributes=["King"])
ENCH = card("ench", name="Enchantress", attributes=["Enchantress"])
DRUID = card("druid", name="Druid", attributes=["Druid"])
FAE = card("fae", name="Fae", attributes=["Fae"])
BEAST = card("beast", name="Beast", attributes=["Beast"], cost=3)
U1 = card("u1", name="U1", power=1)
U2 = card("u2", name="U2", power=2)
U3 = card("u3", name="U3", power=3)
U4 = card("u4", name="U4", power=4)
FAITHLESS = card("nofaith", name="No Faith", icons=["combat"])
LOC = card("loc", "location", name="Location")
# a deed that kills any unit (to test saves and "cannot be killed"), and one that exhausts an enemy unit
KILL = card("kill", "deed", cost=0, name="Kill", abilities=[
    {"timing": "action", "target": {"type": "unit"}, "effects": [{"kill": "target"}]}])
TIRE = card("tire", "deed", cost=0, name="Tire", abilities=[
    {"timing": "action", "target": {"type": "unit", "controller": "opponent"}, "effects": [{"exhaust": "target"}]}])
HELPERS = [KNIGHT, KING, ENCH, DRUID, FAE, BEAST, U1, U2, U3, U4, FAITHLESS, LOC, KILL, TIRE, *FACTIONS.values()]
CARDS = [*CORE.values(), *HELPERS]
COVERED: set[str] = set()


def covers(*codes_: str):
    """Mark the core cards a test checks (test_every_core_card_with_abilities_has_a_test holds the list): as a
    decorator, or called after a parametrised test with the codes of its rows."""
    COVERED.update(codes_)

    def mark(fn):
        return fn
    return mark


def fac(code: str) -> str:
    f = CORE[code]["faction"]
    return FACTIONS["camelot" if f == "neutral" else f]["code"]


def me(code: str | None = None, field=(), hand=(), **kw) -> dict:
    """Player 0 of faction `code`'s (no Loyalty to pay), 10 wealth in the pool unless said."""
    kw.setdefault("pool", 10)
    return side(field=list(field), hand=list(hand), faction=fac(code) if code else FACTION["code"], **kw)


def at(code, f=None, **kw) -> dict:
    """A field entry of `code` labelled `f` (default: the code)."""
    e = {"card": code, "id": f or code}
    e.update(kw)
    return e


def act(g, *texts):
    """helpers.play, except that a `target` text is let go when the engine took the only legal target by itself
    (it asks nothing then, CONTRACTS §6)."""
    for text in texts:
        if text.startswith("target ") and (g.pending is None or g.pending.kind not in ("target", "search")):
            continue
        play(g, text)
    return g


def game(my, their=None, *actions, phase="confrontation", **pos):
    """The game of a position of `my` (player 0) and `their` sides after `actions` (action texts)."""
    return act(load(position(my, their if their is not None else side(), phase=phase, **pos), CARDS), *actions)


def run(my, their=None, *actions, phase="confrontation", until="turn", **pos):
    """(game, position) after `actions` and the run to the end of the struggle / turn / phase in progress (an
    optional §9.2 keyword on the way declined)."""
    g = finish(game(my, their, *actions, phase=phase, **pos), until)
    while g.pending is not None and g.pending.kind == "onwin":
        play(g, "no")
        finish(g, until)
    return g, to_position(g)


def ids(g) -> dict:
    return {lab: i for i, lab in g.labels.items()}


def power(g, label: str) -> int:
    """The card's Power as player 0 reads it (effective Power, §6.3)."""
    return g.view(0).power(ids(g)[label])


def has_kw(g, label: str, keyword: str) -> bool:
    return bool(g.view(0).kw(ids(g)[label]) & parse_keyword(keyword)[0])


def pl(pos, p=0) -> dict:
    return pos["players"][p]


# ---------------------------------------------------------------- Power printed as "+N Power" (static, §8.1)
@covers("core-002")
def test_arthur_pendragon_your_other_knights_get_plus_1():
    g = game(me("core-002", [at("core-002", "arthur"), at("knight")]))
    assert power(g, "knight") == 2 + 1 and power(g, "arthur") == 6      # "other": Arthur stays 6


@covers("core-004")
def test_gawain_gets_plus_2_during_the_confrontation_phase():
    assert power(game(me("core-004", [at("core-004", "gawain")])), "gawain") == 3 + 2
    assert power(game(me("core-004", [at("core-004", "gawain")]), phase="kingdom"), "gawain") == 3


@covers("core-048")
def test_accolon_gets_plus_2_while_you_control_morgan_le_fay():
    assert power(game(me("core-048", [at("core-048", "accolon"), at("core-040")])), "accolon") == 4 + 2
    assert power(game(me("core-048", [at("core-048", "accolon")])), "accolon") == 4


@pytest.mark.parametrize("code, unit, printed", [
    ("core-052", "ench", 1),    # Castle Chariot: your Enchantresses get +1 Power
    ("core-069", "druid", 1),   # Sacred Grove: your Druids get +1 Power
    ("core-191", "king", 1),    # Alliance of Kings (destiny): your Kings get +1 Power
    ("core-128", "core-125", 1),   # Harbour of the Far Traders: units you control with Haste get +1 (Swift Courier, 1)
])
def test_your_units_of_a_kind_get_plus_power(code, unit, printed):
    base = CORE[unit]["power"] if unit in CORE else 2
    where = {"destiny": code} if CORE[code]["type"] == "destiny" else {}
    field = [at(unit, "u")] + ([] if where else [at(code)])
    assert power(game(me(code, field, **where)), "u") == base + printed
    assert power(game(me(code, [at(unit, "u")])), "u") == base


covers("core-052", "core-069", "core-191", "core-128")


@covers("core-078")
def test_gwythyr_during_the_confrontation_your_other_fae_get_plus_1():
    assert power(game(me("core-078", [at("core-078", "gw"), at("fae")])), "fae") == 2 + 1
    assert power(game(me("core-078", [at("core-078", "gw"), at("fae")]), phase="kingdom"), "fae") == 2
    assert power(game(me("core-078", [at("core-078", "gw")])), "gw") == 4


@covers("core-105")
def test_crone_of_the_long_night_exhausted_enemy_units_get_minus_1():
    g = game(me("core-105", [at("core-105")]), side([at("u3", "tired", exhausted=True), at("u3", "fresh")]))
    assert power(g, "tired") == 3 - 1 and power(g, "fresh") == 3


# attachments: "Attached unit gets +N Power" (and the keyword it gains), on a host of the attribute they need
@pytest.mark.parametrize("code, host, printed, keyword", [
    ("core-015", "knight", 2, "Prowess"),     # Excalibur
    ("core-016", "knight", 1, None),          # Oath of Chivalry
    ("core-034", "u2", 1, "Ruthless"),        # War-Axe of the North
    ("core-035", "king", 2, None),            # Iron Crown
    ("core-072", "druid", 1, "Wary"),         # Mistletoe Crown
    ("core-091", "u2", 1, "Cunning"),         # Garland of Midsummer
    ("core-092", "fae", 2, None),             # Summer's Favour
    ("core-110", "fae", 1, "Compel"),         # Crown of Frost
    ("core-129", "u2", 1, "Prowess"),         # Curved Blade
    ("core-130", "u2", 0, "Subtle"),          # Diplomatic Seal: gains Subtle
    ("core-156", "knight", 1, None),          # Knight's Lance
    ("core-157", "u2", 1, "Prowess"),         # Warhorse
    ("core-158", "u2", 1, "Wary"),            # Holy Relic
])
def test_attachment_printed_power_and_keyword(code, host, printed, keyword):
    g = game(me(code, [at(host, "h", attachments=[{"card": code, "id": "a"}])]))
    assert power(g, "h") == 2 + printed
    if keyword:
        assert has_kw(g, "h", keyword)
    bare = game(me(code, [at(host, "h")]))
    assert power(bare, "h") == 2 and not (keyword and has_kw(bare, "h", keyword))


covers("core-015", "core-016", "core-034", "core-035", "core-072", "core-091", "core-092", "core-110", "core-129",
       "core-130", "core-156", "core-157", "core-158")


@covers("core-054")
def test_binding_hex_attached_enemy_unit_gets_minus_2():
    g = game(me("core-054"), side([at("u3", "foe", attachments=[{"card": "core-054", "id": "hex", "owner": 0,
                                                                   "controller": 0}])]))
    assert power(g, "foe") == 3 - 2


@pytest.mark.parametrize("code, host", [("core-015", "u2"), ("core-035", "u2"), ("core-092", "u2"),
                                        ("core-072", "u2")])
def test_attachments_need_the_host_their_text_names(code, host):
    """"Attach to a Knight / King / Fae / Druid you control": a host without the attribute is not offered."""
    g = game(me(code, [at(host)], hand=[code]), phase="kingdom")
    assert not any(t.startswith(f"play {code}") for t in option_texts(g))
    g = game(me(code, [at({"core-015": "knight", "core-035": "king", "core-092": "fae",
                          "core-072": "druid"}[code])], hand=[code]), phase="kingdom")
    assert any(t.startswith(f"play {code}") for t in option_texts(g))


def option_texts(g):
    from simulator.engines.r1.actions import option_texts as texts
    return texts(g)


# ---------------------------------------------------------------- Power in a struggle (§6.3), read off S.8
def s8(g) -> list[str]:
    return [line for line in g.logs if "S.8" in line]


@covers("core-010")
def test_guinevere_defending_knights_you_control_get_plus_1():
    g, _ = run(me("core-010", [at("core-010", "guin", exhausted=True), at("knight")]), side([at("u2")]),
               "struggle combat", "attack u2", "defend knight", until="struggle", first=1, active=1)
    assert logged(g, "S.8 Combat: 2 vs 3")          # the Knight defends at 2 + 1


@covers("core-148")
def test_the_black_knight_defending_gets_plus_2():
    g, _ = run(me("core-148", [at("core-148", "bk")]), side([at("u4")]), "struggle combat", "attack u4",
               "defend bk", until="struggle", first=1, active=1)
    assert logged(g, "S.8 Combat: 4 vs 6")          # 4 + 2


@covers("core-153")
def test_watchtower_defending_units_you_control_get_plus_1():
    g, _ = run(me("core-153", [at("core-153"), at("u2")]), side([at("u2", "att")]), "struggle combat",
               "attack att", "defend u2", until="struggle", first=1, active=1)
    assert logged(g, "S.8 Combat: 2 vs 3")


@covers("core-108")
def test_hoarfrost_field_attacking_enemy_units_get_minus_1():
    g, _ = run(me("core-108", [at("core-108")]), side([at("u3")]), "struggle combat", "attack u3",
               until="struggle", first=1, active=1)
    assert logged(g, "S.8 Combat: 2 vs 0")          # 3 - 1


@covers("core-067")
def test_white_hart_participating_gets_plus_1():
    g, _ = run(me("core-067", [at("core-067", "hart")]), None, "struggle faith", "attack hart", until="struggle")
    assert logged(g, "S.8 Faith: 3 vs 0")           # 2 + 1


@covers("core-188")
def test_the_sword_alone_attacking_units_with_a_combat_icon_get_plus_1():
    g, _ = run(me("core-188", [at("u2"), at("nofaith", "c")], destiny="core-188"), None,
               "struggle combat", "attack u2 c", until="struggle")
    assert logged(g, "S.8 Combat: 6 vs 0")          # (2 + 1) + (2 + 1)


# ---------------------------------------------------------------- Authority, quest stats and the setup budget
def authority(g, p=0) -> int:
    return g.view(0).authority_total(p)


@pytest.mark.parametrize("code", ["core-014", "core-184"])   # Chapel of the Holy Thorn; Oath of Fellowship
def test_your_authority_total_gets_plus_1(code):
    where = {"destiny": code} if CORE[code]["type"] == "destiny" else {}
    with_it = game(me(code, [at("u2")] + ([] if where else [at(code)]), **where), phase="authority")
    without = game(me(code, [at("u2")]), phase="authority")
    assert authority(with_it) == authority(without) + 1


covers("core-014", "core-184")


@covers("core-029")
def test_clarivaus_with_2_kings_your_authority_total_gets_plus_1():
    one = game(me("core-029", [at("core-029", "cl")], pool=0), phase="authority")
    two = game(me("core-029", [at("core-029", "cl"), at("king", "k1")], pool=0), phase="authority")
    assert authority(one) == 2                           # Clarivaus (a King, Power 2) alone: one King, no bonus
    assert authority(two) == 2 + 2 + 1


@covers("core-088")
def test_the_sunlit_hall_your_active_quest_gets_plus_1_wealth():
    g = game(me("core-088", [at("core-088")]))
    assert g.view(0).quest_stat(0, "wealth") == QUEST["wealth"] + 1


@covers("core-185")
def test_the_long_campaign_your_active_quest_gets_plus_2_levy():
    g = game(me("core-185", destiny="core-185"))
    assert g.view(0).quest_stat(0, "levy") == QUEST["levy"] + 2


@covers("core-187")
def test_vow_of_poverty_your_setup_budget_gets_plus_2():
    from simulator.engines.r1 import Game
    deck = make_deck((U2, 20), destiny=CORE["core-187"])
    g = Game(deck, None, seed=0, log=True)
    play(g, "keep", "done")
    assert logged(g, "§4 player 0 places 0 card(s) facedown, budget 0/10")     # 8 + 2


# ---------------------------------------------------------------- rules a card gives ("cannot ...")
@pytest.mark.parametrize("code, host", [("core-006", None), ("core-053", "u2")])   # Galahad; The Stolen Scabbard
def test_cannot_be_killed(code, host):
    unit = at(code, "x") if host is None else at(host, "x", attachments=[{"card": code}])
    g = game(me(code, [unit, at("u1")], hand=["kill"]), None, "play kill")
    if g.pending.kind == "target" and "target x" in option_texts(g):
        play(g, "target x")
    g = finish(g, "turn")
    assert "x" in [e.get("id") for e in pl(to_position(g))["field"]] and not logged(g, "is killed")


covers("core-006", "core-053")


@covers("core-106")
def test_frostbitten_thrall_cannot_defend():
    g = game(me("core-106", [at("core-106", "thrall"), at("u1")]), side([at("u2")]), "struggle combat",
             "attack u2", first=1, active=1)
    assert g.pending.kind == "defenders" and option_texts(g) == ["defend u1", "defend none"]


@covers("core-109")
def test_chains_of_ice_attached_unit_does_not_ready_during_refresh():
    foe = at("u2", "foe", exhausted=True, attachments=[{"card": "core-109", "owner": 0, "controller": 0}])
    _, pos = run(me("core-109"), side([foe, at("u2", "other", exhausted=True)]), phase="refresh", until="phase")
    field = {e.get("id"): e for e in pl(pos, 1)["field"]}
    assert field["foe"]["exhausted"] is True and field["other"]["exhausted"] is False


@covers("core-073")
def test_blessing_of_the_lake_attached_unit_cannot_be_exhausted_by_your_opponent():
    mine = at("u2", "blessed", attachments=[{"card": "core-073"}])
    g = game(me("core-073", [mine]), side(hand=["tire"]), first=1, active=1)
    if "play tire" in option_texts(g):        # offered or not (§8.11), it cannot exhaust the blessed unit
        play(g, "play tire")
    assert g.view(0).exh[ids(g)["blessed"]] == 0


# ---------------------------------------------------------------- Action abilities of cards in the field
def hand(pos, p=0) -> int:
    return len(pl(pos, p)["hand"])


def deck(pos, p=0) -> int:
    return len(pl(pos, p)["deck"])


@covers("core-008")
def test_squire_of_caerleon_a_knight_gets_plus_1():
    g = game(me("core-008", [at("core-008", "sq"), at("knight")]), None, "use sq", "target knight")
    assert power(g, "knight") == 2 + 1


@covers("core-009")
def test_kay_pay_1_ready_another_exhausted_knight_limit_1_per_round():
    g = game(me("core-009", [at("core-009", "kay"), at("knight", exhausted=True)], pool=3), None, "use kay")
    assert g.view(0).exh[ids(g)["knight"]] == 0 and g.view(0).pool[0] == 3 - 1


@covers("core-011", "core-141", "core-165", "core-177")
@pytest.mark.parametrize("code, how", [("core-011", "use"), ("core-141", "play"), ("core-165", "play")])
def test_remove_1_sorcery_emblem_from_a_card_you_control(code, how):
    field = [at("u2", "hexed", emblems=2)] + ([at(code, "src")] if how == "use" else [])
    g = game(me(code, field, hand=[code] if how == "play" else []), None,
             "use src" if how == "use" else f"play {code}", "target hexed",
             phase="kingdom" if code == "core-141" else "confrontation")
    assert g.view(0).emb[ids(g)["hexed"]] == 2 - 1


@covers("core-012")
def test_the_round_table_a_participating_knight_gets_plus_2():
    g, _ = run(me("core-012", [at("core-012", "rt"), at("knight")]), None, "struggle combat", "attack knight",
               "use rt", "target knight", until="struggle")
    assert logged(g, "S.8 Combat: 4 vs 0")          # 2 + 2


@covers("core-031")
def test_camp_follower_sacrifice_gain_1_wealth():
    _, pos = run(me("core-031", [at("core-031", "cf")], pool=0), None, "use cf", phase="kingdom")
    assert codes(pos, 0, "discard") == ["core-031"] and pl(pos)["pool"] == 0 + 1


@covers("core-032")
def test_the_northern_muster_pay_1_a_king_gets_plus_1():
    g = game(me("core-032", [at("core-032", "nm"), at("king")], pool=2), None, "use nm", "target king")
    assert power(g, "king") == 2 + 1 and g.view(0).pool[0] == 2 - 1


@covers("core-040")
def test_morgan_le_fay_places_1_sorcery_emblem_on_an_enemy_unit():
    g = game(me("core-040", [at("core-040", "morgan")]), side([at("u2", "foe")]), "use morgan", "target foe")
    assert g.view(0).emb[ids(g)["foe"]] == 1 and g.view(0).exh[ids(g)["morgan"]] == 1


@covers("core-049")
def test_raven_familiar_sacrifice_draw_1_card():
    _, pos = run(me("core-049", [at("core-049", "raven")]), None, "use raven")
    assert hand(pos) == 0 + 1 and codes(pos, 0, "discard") == ["core-049"]


@covers("core-051")
def test_the_chapel_perilous_places_1_sorcery_emblem_on_an_exhausted_enemy_unit():
    g = game(me("core-051", [at("core-051", "cp")]), side([at("u2", "foe", exhausted=True)]), "use cp",
             "target foe")
    assert g.view(0).emb[ids(g)["foe"]] == 1


@covers("core-059")
def test_merlin_exhaust_draw_1_card():
    _, pos = run(me("core-059", [at("core-059", "merlin")]), None, "use merlin")
    assert hand(pos) == 0 + 1 and entry(pos, 0, "core-059")["exhausted"] is True


@covers("core-064")
def test_bard_of_the_old_tongue_looks_at_the_top_2_cards():
    g = game(me("core-064", [at("core-064", "bard")], deck=["u1", "u2", "u3"]), None, "use bard")
    assert g.pending.kind == "scout" and option_texts(g) == ["top u1", "bottom u1"]
    play(g, "bottom u1")
    assert option_texts(g) == ["top u2", "bottom u2"]     # 2 cards: the second, then no third


@covers("core-071")
def test_ring_of_standing_stones_pay_1_ready_an_exhausted_druid():
    g = game(me("core-071", [at("core-071", "ring"), at("druid", exhausted=True)], pool=2), None, "use ring")
    assert g.view(0).exh[ids(g)["druid"]] == 0 and g.view(0).pool[0] == 2 - 1


@covers("core-082")
def test_gilded_reveller_pay_2_gets_plus_2():
    g = game(me("core-082", [at("core-082", "gr")], pool=2), None, "use gr")
    assert power(g, "gr") == 2 + 2 and g.view(0).pool[0] == 2 - 2


@pytest.mark.parametrize("code, printed", [("core-086", 1), ("core-127", 1)])   # Midsummer Piper; Envoy's Pavilion
def test_exhaust_gain_wealth(code, printed):
    g = game(me(code, [at(code, "src")], pool=0), None, "use src")
    assert g.view(0).pool[0] == 0 + printed


covers("core-086", "core-127")


@pytest.mark.parametrize("code, sel", [("core-089", "fae"), ("core-151", "u2")])   # Fairy Ring; Roadside Shrine
def test_exhaust_a_unit_you_control_gets_plus_1(code, sel):
    g = game(me(code, [at(code, "src"), at(sel, "u")]), None, "use src", "target u")
    assert power(g, "u") == 2 + 1


covers("core-089", "core-151")


@pytest.mark.parametrize("code, foe_power", [("core-097", 3), ("core-107", 3)])   # Gwyn ap Nudd; Caer Wydyr
def test_exhaust_an_enemy_unit_with_3_or_less_power(code, foe_power):
    foes = side([at("u3", "small"), at("u4", "big")])
    g = game(me(code, [at(code, "src")]), foes, "use src")   # the only target: Power 4 is more than 3
    assert g.view(0).exh[ids(g)["small"]] == 1 and g.view(0).exh[ids(g)["big"]] == 0


covers("core-097", "core-107")


@covers("core-147")
def test_siege_engineer_pay_2_discard_a_location():
    _, pos = run(me("core-147", [at("core-147", "se")], pool=2), side([at("loc")]), "use se", "target loc")
    assert codes(pos, 1, "discard") == ["loc"] and pl(pos)["pool"] == 2 - 2


@covers("core-154")
def test_abbey_library_pay_1_draw_1_card():
    _, pos = run(me("core-154", [at("core-154", "lib")], pool=1), None, "use lib")
    assert hand(pos) == 0 + 1 and pl(pos)["pool"] == 1 - 1


# ---------------------------------------------------------------- deeds (§10.4): pay, resolve, discard
@pytest.mark.parametrize("code, cost", [("core-017", 1), ("core-159", 1), ("core-074", 1)])
def test_ready_an_exhausted_unit_you_control(code, cost):
    """Rally to the Banner (a Knight), Forced March (a unit), Rite of Renewal (a unit with a Faith icon)."""
    unit = {"core-017": "knight", "core-159": "u2", "core-074": "u2"}[code]
    g = game(me(code, [at(unit, "u", exhausted=True)], hand=[code], pool=cost), None, f"play {code}")
    assert g.view(0).exh[ids(g)["u"]] == 0 and g.view(0).pool[0] == cost - cost


covers("core-017", "core-159", "core-074")


@covers("core-074")
def test_rite_of_renewal_needs_a_faith_icon():
    g = game(me("core-074", [at("nofaith", exhausted=True)], hand=["core-074"]))
    assert "play core-074" not in option_texts(g)


@pytest.mark.parametrize("code, printed", [("core-018", 3), ("core-037", 2)])   # Trial by Combat; War Cry
def test_a_participating_unit_you_control_gets_plus_power(code, printed):
    g, _ = run(me(code, [at("u2")], hand=[code]), None, "struggle combat", "attack u2", f"play {code}",
               until="struggle")
    assert logged(g, f"S.8 Combat: {2 + printed} vs 0")


covers("core-018", "core-037")


@pytest.mark.parametrize("code, sel", [("core-019", "knight"), ("core-094", "fae")])   # Vision of the Grail; Gift
def test_x_deed_a_unit_gets_plus_x_power(code, sel):
    g = game(me(code, [at(sel, "u")], hand=[code], pool=3), None, f"play {code}", "x 3")
    assert power(g, "u") == 2 + 3 and g.view(0).pool[0] == 3 - 3


covers("core-019", "core-094")


@pytest.mark.parametrize("code, foe, ok", [
    ("core-036", at("u2", "f", exhausted=True), True),    # Night Assault: an exhausted enemy unit, 2 or less Power
    ("core-036", at("u3", "f", exhausted=True), False),
    ("core-036", at("u2", "f"), False),
    ("core-057", at("u3", "f"), True),                    # Morgan's Betrayal: 3 or less Power (revealed, Secret 2)
    ("core-057", at("u4", "f"), False),
    ("core-111", at("u4", "f", exhausted=True), True),    # Killing Frost: an exhausted enemy unit
    ("core-111", at("u4", "f"), False),
])
def test_kill_an_enemy_unit(code, foe, ok):
    secret = code == "core-057"
    mine = me(code, hand=[] if secret else [code], secret=[code] if secret else [])
    g = game(mine, side([foe]))
    verb = "reveal" if secret else "play"
    assert (f"{verb} {code}" in option_texts(g)) is ok
    if ok:
        _, pos = run(mine, side([foe]), f"{verb} {code}")
        assert codes(pos, 1, "dead") == [foe["card"]]


covers("core-036", "core-057", "core-111")


@covers("core-160")
def test_ambush_at_the_ford_kills_a_participating_enemy_unit_with_1_or_less_power():
    g, pos = run(me("core-160", [at("u3")], hand=["core-160"]), side([at("u1", "f")]),
                 "struggle combat", "attack f", "play core-160", "defend none", until="struggle", first=1, active=1)
    assert codes(pos, 1, "dead") == ["u1"]


@covers("core-038")
def test_harrying_the_marches_opponent_discards_the_top_x_cards():
    _, pos = run(me("core-038", hand=["core-038"], pool=2), None, "play core-038", "x 2")
    assert deck(pos, 1) == 10 - 2 and len(pl(pos, 1)["discard"]) == 2


@pytest.mark.parametrize("code, foe_power, ok", [
    ("core-055", 3, True), ("core-055", 4, False),     # Enchanted Sleep: 3 or less Power
    ("core-113", 2, True), ("core-113", 3, False),     # Biting Wind: 2 or less Power
    ("core-095", 4, True),                             # Midsummer Madness: any enemy unit, then gain 1 wealth
])
def test_exhaust_an_enemy_unit_deed(code, foe_power, ok):
    foe = side([at(f"u{foe_power}", "f")])
    g = game(me(code, hand=[code], pool=2), foe)
    assert (f"play {code}" in option_texts(g)) is ok
    if ok:
        play(g, f"play {code}")
        assert g.view(0).exh[ids(g)["f"]] == 1
        if code == "core-095":
            assert g.view(0).pool[0] == 2 - 2 + 1


covers("core-055", "core-113", "core-095")


@covers("core-056")
def test_glamour_of_seeming_opponent_discards_x_cards_at_random():
    _, pos = run(me("core-056", hand=["core-056"], pool=2), side(hand=["u1", "u2", "u3"]), "play core-056", "x 2")
    assert hand(pos, 1) == 3 - 2


@covers("core-075")
def test_wild_summoning_search_for_a_beast_and_put_it_into_play():
    _, pos = run(me("core-075", hand=["core-075"], deck=["u1", "beast", "u2"], pool=3), None,
                 "play core-075", "target beast")
    assert codes(pos, 0, "field") == ["beast"] and deck(pos) == 3 - 1 and pl(pos)["pool"] == 3 - 3


@covers("core-076")
def test_druids_foresight_draw_1_then_discard_1():
    _, pos = run(me("core-076", hand=["core-076", "u1"]), None, "play core-076", "discard u1")
    assert hand(pos) == 1 + 1 - 1 and deck(pos) == 10 - 1


@covers("core-093")
def test_feast_of_midsummer_kingdom_gain_2_wealth_max_1_per_round():
    g = game(me("core-093", hand=["core-093", "core-093"], pool=0), None, "play core-093", phase="kingdom")
    assert g.view(0).pool[0] == 0 + 2
    assert "play core-093" not in option_texts(g)             # max 1 per round
    assert "play core-093" not in option_texts(game(me("core-093", hand=["core-093"])))   # Kingdom only


@covers("core-112")
def test_the_long_night_exhausts_each_enemy_unit():
    g = game(me("core-112", hand=["core-112"], pool=4), side([at("u1", "a"), at("u4", "b")]), "play core-112")
    assert g.view(0).exh[ids(g)["a"]] == 1 and g.view(0).exh[ids(g)["b"]] == 1 and g.view(0).pool[0] == 0


@covers("core-114")
def test_sleep_beneath_the_snow_saves_a_unit_you_control():
    _, pos = run(me("core-114", [at("u2")], hand=["kill", "core-114"]), None, "play kill", "target u2",
                 "play core-114")
    assert codes(pos, 0, "field") == ["u2"] and sorted(codes(pos, 0, "discard")) == ["core-114", "kill"]


@pytest.mark.parametrize("code, printed", [("core-131", 2), ("core-162", 2)])   # Turn of Fortune; Desperate Defence
def test_disrupt_when_a_struggle_is_resolving_a_unit_gets_plus_2(code, printed):
    g, _ = run(me(code, [at("u2")], hand=[code]), side([at("u3")]), "struggle combat", "attack u3",
               "defend u2", f"play {code}", until="struggle", first=1, active=1)
    assert logged(g, f"S.8 Combat: 3 vs {2 + printed}")


covers("core-131", "core-162")


@covers("core-132")
def test_tribute_from_the_east_draw_1_and_gain_2_wealth():
    _, pos = run(me("core-132", hand=["core-132"], pool=1), None, "play core-132")
    assert hand(pos) == 0 + 1 and pl(pos)["pool"] == 1 - 1 + 2


@covers("core-133")
def test_bought_silence_returns_an_enemy_unit_with_2_or_less_power():
    _, pos = run(me("core-133", hand=["core-133"]), side([at("u2", "f")]), "play core-133")
    assert codes(pos, 1, "hand") == ["u2"] and codes(pos, 1, "field") == []
    assert "play core-133" not in option_texts(game(me("core-133", hand=["core-133"]), side([at("u3")])))


@covers("core-161")
def test_fortunes_favour_draw_2_cards():
    _, pos = run(me("core-161", hand=["core-161"]), None, "play core-161")
    assert hand(pos) == 0 + 2 and deck(pos) == 10 - 2


@covers("core-163")
def test_hidden_cache_gain_4_wealth():
    g = game(me("core-163", secret=["core-163"], pool=1), None, "reveal core-163")
    assert g.view(0).pool[0] == 1 - 1 + 4               # Secret (1)


@covers("core-164")
def test_sorcerous_binding_places_1_sorcery_emblem_on_an_enemy_unit():
    g = game(me("core-164", hand=["core-164"]), side([at("u2", "f")]), "play core-164")
    assert g.view(0).emb[ids(g)["f"]] == 1


@covers("core-166")
def test_call_the_banners_draw_x_cards_max_1_per_round():
    g = game(me("core-166", hand=["core-166", "core-166"], pool=4), None, "play core-166", "x 3")
    assert len(g.view(0).my_hand) == 1 + 3 and g.view(0).pool[0] == 4 - 3
    assert "play core-166" not in option_texts(g)          # 1 wealth left would pay X = 1: max 1 per round


# ---------------------------------------------------------------- "When this enters play" (§8.6)
@pytest.mark.parametrize("code, my_hand, opp_hand, pool_gain", [
    ("core-041", 1, 3, 0),       # Sebile: draw 1 card (revealed, Secret 2)
    ("core-087", 1, 3, 0),       # Keeper of the Orchard: draw 1 card
    ("core-125", 1, 3, 0),       # Swift Courier: draw 1 card
    ("core-126", 1, 3, 0),       # Masked Emissary: draw 1 card (revealed)
    ("core-030", 0, 3 - 1, 0),   # Lothian Hedge-Witch: your opponent discards 1 card at random
    ("core-042", 0, 3 - 1, 0),   # Hellawes (revealed)
    ("core-063", 0, 3, 1),       # Ovate of the Mistletoe: gain 1 wealth
    ("core-081", 0, 3, 1),       # Harvest Sprite: gain 1 wealth
    ("core-120", 0, 3, 2),       # Spice Merchant: gain 2 wealth
])
def test_when_this_enters_play(code, my_hand, opp_hand, pool_gain):
    secret = CORE[code]["cost"] == "-" or code in ("core-041",)
    mine = me(code, hand=[] if secret else [code], secret=[code] if secret else [], pool=5)
    g = game(mine, side(hand=["u1", "u2", "u3"]), f"{'reveal' if secret else 'play'} {code}", phase="kingdom")
    paid = {"core-041": 2, "core-042": 3, "core-126": 2}.get(code, CORE[code]["cost"])
    v = g.view(0)
    assert len(v.my_hand) == my_hand and v.hand_count(1) == opp_hand and v.pool[0] == 5 - paid + pool_gain


covers("core-041", "core-087", "core-125", "core-126", "core-030", "core-042", "core-063", "core-081", "core-120")


@covers("core-022")
def test_urien_each_other_king_you_control_gets_plus_1_until_end_of_round():
    g = game(me("core-022", [at("king")], hand=["core-022"]), None, "play core-022", phase="kingdom")
    assert power(g, "king") == 2 + 1


@covers("core-025")
def test_king_of_the_hundred_knights_creates_a_1_power_knight_token_with_a_combat_icon():
    g = game(me("core-025", hand=["core-025"]), None, "play core-025", phase="kingdom")
    v = g.view(0)
    tokens = [i for i in v.field[0] if v.cdef[i].code != "core-025"]
    assert len(tokens) == 1 and v.power(tokens[0]) == 1
    assert v.cdef[tokens[0]].icons == ICON_BITS["combat"]        # a Combat icon, and only that


@covers("core-099")
def test_frost_maiden_exhausts_an_enemy_unit():
    g = game(me("core-099", hand=["core-099"]), side([at("u2", "f")]), "play core-099", phase="kingdom")
    assert g.view(0).exh[ids(g)["f"]] == 1


@covers("core-102")
def test_snow_wraith_exhausts_each_enemy_unit_with_2_or_less_power():
    g = game(me("core-102", secret=["core-102"]), side([at("u2", "a"), at("u3", "b")]), "reveal core-102",
             phase="kingdom")
    assert g.view(0).exh[ids(g)["a"]] == 1 and g.view(0).exh[ids(g)["b"]] == 0


# ---------------------------------------------------------------- Responses after a struggle is won (§8.4)
@pytest.mark.parametrize("code, stype, src, hand_gain, pool_gain", [
    ("core-005", "faith", "self", 1, 0),       # Percival: after Percival wins a Faith struggle, draw 1 card
    ("core-137", "faith", "self", 1, 0),       # Wandering Pilgrim: after this unit wins a Faith struggle
    ("core-021", "combat", "self", 1, 0),      # Lot: ... a Combat struggle as the attacker, draw 1 card
    ("core-043", "guile", "self", 0, 1),       # Annowre: ... a Guile struggle, gain 1 wealth
    ("core-116", "combat", "self", 0, 2),      # Palamedes: ... a Combat struggle, gain 2 wealth
    ("core-079", "faith", "u2", 0, 2),         # Creiddylad: after you win a Faith struggle, gain 2 wealth
    ("core-121", "guile", "u2", 1, 0),         # Silk-Road Envoy: after you win a Guile struggle, draw 1 card
    ("core-013", "combat", "u2", 0, 1),        # The Lists of Camelot: ... Combat struggle as the attacker
    ("core-189", "faith", "u2", 1, 0),         # The Old Ways Remembered (destiny): ... Faith, draw 1 card
])
def test_response_after_a_struggle_is_won(code, stype, src, hand_gain, pool_gain):
    kind = CORE[code]["type"]
    attacker = "s" if src == "self" else "u"
    field = [at(code, "s")] if kind in ("unit", "location") else []
    if src != "self":
        field.append(at("u2", "u"))
    mine = me(code, field, pool=0, **({"destiny": code} if kind == "destiny" else {}))
    g, pos = run(mine, None, f"struggle {stype}", f"attack {attacker}", "pass", until="struggle")
    base_hand, base_pool = hand(pos), pl(pos)["pool"]      # the same struggle, the response declined
    g, pos = run(mine, None, f"struggle {stype}", f"attack {attacker}",
                 f"use {'s' if kind != 'destiny' else code}", until="struggle")
    assert hand(pos) == base_hand + hand_gain and pl(pos)["pool"] == base_pool + pool_gain


covers("core-005", "core-137", "core-021", "core-043", "core-116", "core-079", "core-121", "core-013", "core-189")


@covers("core-033")
def test_the_burned_marches_after_a_combat_win_as_attacker_opponent_discards_the_top_card():
    _, pos = run(me("core-033", [at("core-033", "bm"), at("u2")]), None, "struggle combat", "attack u2", "use bm",
                 until="struggle")
    assert deck(pos, 1) == 10 - 1


@covers("core-130")
def test_diplomatic_seal_after_you_win_a_guile_struggle_as_the_attacker_gain_1_wealth():
    unit = at("u2", "u", attachments=[{"card": "core-130", "id": "seal"}])
    _, pos = run(me("core-130", [unit], pool=0), None, "struggle guile", "attack u", "use seal 3", until="struggle")
    assert pl(pos)["pool"] == 0 + 1


@covers("core-024")
def test_nentres_after_a_king_you_control_is_killed_draw_1_card():
    _, pos = run(me("core-024", [at("core-024", "n"), at("king")], hand=["kill"]), None, "play kill",
                 "target king", "use n")
    assert hand(pos) == 1 - 1 + 1 and codes(pos, 0, "dead") == ["king"]


@covers("core-050")
def test_fallen_abbess_after_you_play_a_deed_gets_plus_1_until_end_of_round():
    g = game(me("core-050", [at("core-050", "ab")], hand=["core-161"]), None, "play core-161", "use ab")
    assert power(g, "ab") == 2 + 1


@covers("core-155")
def test_corbenic_after_you_take_the_authority_emblem_draw_1_card():
    mine = me("core-155", [at("core-155", "cor"), at("u4")])
    g, pos = run(mine, side([at("u1")]), "use cor", phase="authority", until="phase")
    assert logged(g, "use", "Corbenic") and hand(pos) == 0 + 1


# ---------------------------------------------------------------- Halt saves (§7.3)
@covers("core-060")
def test_nimue_exhausts_to_save_another_unit_you_control():
    _, pos = run(me("core-060", [at("core-060", "nimue"), at("u2")], hand=["kill"]), None, "play kill",
                 "target u2", "use nimue")
    assert codes(pos, 0, "field") == ["core-060", "u2"] and entry(pos, 0, "core-060")["exhausted"] is True


@covers("core-083")
def test_the_green_knight_pays_2_to_save_himself():
    _, pos = run(me("core-083", [at("core-083", "gk")], hand=["kill"], pool=2), None, "play kill", "target gk",
                 "use gk")
    assert codes(pos, 0, "field") == ["core-083"] and pl(pos)["pool"] == 2 - 2


@covers("core-123")
def test_envoys_bodyguard_sacrifices_itself_to_save_another_unit():
    _, pos = run(me("core-123", [at("core-123", "bg"), at("u2")], hand=["kill"]), None, "play kill",
                 "target u2", "use bg")
    assert codes(pos, 0, "field") == ["u2"] and sorted(codes(pos, 0, "discard")) == ["core-123", "kill"]


# ---------------------------------------------------------------- Forced abilities at the start of a phase
@pytest.mark.parametrize("code, phase, what, printed", [
    ("core-090", "kingdom", "pool", 1),   # Golden Orchard: at the start of the Kingdom phase, gain 1 wealth
    ("core-124", "kingdom", "pool", 1),   # Master of Caravans
    ("core-152", "kingdom", "pool", 1),   # Market Town
    ("core-070", "draw", "hand", 1),      # Avalon: at the start of the Draw phase, draw 1 card
])
def test_forced_at_the_start_of_a_phase(code, phase, what, printed):
    before = {"kingdom": "draw", "draw": "quest"}[phase]

    def measure(with_card):
        mine = me(code, [at(code)] if with_card else [], pool=0)
        _, pos = run(mine, side(), phase=before if phase == "kingdom" else phase, until="phase")
        return hand(pos) if what == "hand" else pl(pos)["pool"]
    assert measure(True) == measure(False) + printed


covers("core-090", "core-124", "core-152", "core-070")


@covers("core-190")
def test_a_kingdom_divided_draw_1_when_you_have_less_influence():
    def drawn(mine_infl, their_infl):
        _, pos = run(me("core-190", destiny="core-190", influence=mine_infl), side(influence=their_infl),
                     phase="draw", until="phase")
        return hand(pos)
    assert drawn(1, 3) == drawn(3, 3) + 1 and drawn(4, 3) == drawn(3, 3)


# ---------------------------------------------------------------- quests: Embark (§5.1)
def embark(code, mine=None, theirs=None, seen=None):
    """(game, position) at the end of the Quest phase in which player 0 embarks on `code` and player 1 on the plain
    quest: player 0 is made first player, every other choice is the first option printed (kept in `seen`)."""
    m = dict(mine or me(code), quest=None, quest_deck=[code])
    t = dict(theirs or side(), quest=None, quest_deck=[QUEST["code"]])
    g = load(position(m, t, phase="quest"), CARDS)
    while g.pending is not None:
        d = g.pending
        if d.kind == "boundary":
            if d.info[0] == "phase" and d.info[1] != QUEST_P:    # the Draw phase begins
                break
            g.apply_action(d.options[0])
            continue
        text = "pass" if d.kind in ("window", "react") else "first 0" if d.kind == "first_player" \
            else option_texts(g)[0]
        if seen is not None:
            seen.append((d.kind, text))
        g.apply_action(text)
    return g, to_position(g)


@pytest.mark.parametrize("code, my_hand", [("core-167", 1), ("core-172", 2)])   # Seek the Holy Grail; Pilgrimage
def test_embark_draw_cards(code, my_hand):
    _, pos = embark(code)
    assert hand(pos) == my_hand


covers("core-167", "core-172")


@covers("core-175")
def test_a_royal_wedding_embark_gain_1_influence():
    _, pos = embark("core-175")
    assert pl(pos)["influence"] == 0 + 1


@covers("core-171")
def test_court_intrigue_embark_your_opponent_discards_1_card_at_random():
    _, pos = embark("core-171", theirs=side(hand=["u1", "u2"]))
    assert hand(pos, 1) == 2 - 1


@covers("core-178")
def test_lay_waste_the_land_embark_your_opponent_discards_the_top_2_cards_of_their_deck():
    _, pos = embark("core-178")
    assert deck(pos, 1) == 10 - 2


@covers("core-181")
def test_visit_the_market_embark_draw_1_then_discard_1():
    _, pos = embark("core-181", me("core-181", hand=["u1"]))
    assert hand(pos) == 1 + 1 - 1 and len(pl(pos)["discard"]) == 1


@pytest.mark.parametrize("code, target, deck_", [("core-179", "beast", ["u1", "beast"]),
                                                  ("core-182", "core-015", ["u1", "core-015"])])
def test_embark_search_your_deck_and_put_it_into_your_hand(code, target, deck_):
    """Hunt the White Stag (a Beast), Quest for the Sword (Excalibur)."""
    _, pos = embark(code, me(code, deck=deck_))
    assert target in codes(pos, 0, "hand") and deck(pos) == 2 - 1


covers("core-179", "core-182")


@pytest.mark.parametrize("code, unit, printed", [("core-168", "u2", 1), ("core-170", "u2", 2),
                                                 ("core-173", "knight", 2)])
def test_embark_a_unit_gets_plus_power_until_end_of_round(code, unit, printed):
    """Hold the Border (+1), Ride to War (+2), Tourney at Caerleon (a Knight, +2)."""
    g, _ = embark(code, me(code, [at(unit, "u")]))
    assert power(g, "u") == 2 + printed


covers("core-168", "core-170", "core-173")


@pytest.mark.parametrize("code, foe", [("core-180", "u2"), ("core-183", "u4")])   # Night Raid (2 or less); Wild Hunt
def test_embark_exhaust_an_enemy_unit(code, foe):
    _, pos = embark(code, theirs=side([at(foe, "f")]))
    assert entry(pos, 1, foe)["exhausted"] is True


covers("core-180", "core-183")


@covers("core-176")
def test_council_of_war_embark_looks_at_the_top_3_cards():
    seen = []
    embark("core-176", me("core-176", deck=["u1", "u2", "u3", "u4"]), seen=seen)
    assert [text for kind, text in seen if kind == "scout"] == ["top u1", "top u2", "top u3"]   # 3, top first


@covers("core-177")
def test_forge_an_alliance_embark_remove_1_sorcery_emblem():
    _, pos = embark("core-177", me("core-177", [at("u2", "h", emblems=1)]))
    assert entry(pos, 0, "u2")["emblems"] == 1 - 1


# ---------------------------------------------------------------- the whole list
def test_every_core_card_with_abilities_has_a_test():
    missing = [f"{code} {CORE[code]['name']}" for code in WITH_ABILITIES if code not in COVERED]
    assert not missing, missing


@pytest.mark.parametrize("c", TEXT_ONLY, ids=[c["name"] for c in TEXT_ONLY])
def test_core_cards_without_abilities_only_have_keyword_text(c):
    """A card with text and no abilities must be fully covered by its keywords (or be deckbuilding text)."""
    deck = build_deck([(card("fac", "faction", faction="camelot"), 1), (card("q", "quest"), 7),
                       (c, 1) if c["type"] not in ("quest", "destiny") else (card("f", "unit"), 1)]
                      + ([(c, 7)] if c["type"] == "quest" else [])
                      + ([(c, 1)] if c["type"] == "destiny" else []))
    assert c["name"] not in deck.unsupported_cards


def test_starter_decks_have_no_unsupported_cards():
    for name, deck in starter_decks().items():
        assert deck.unsupported_cards == [], f"{name}: {deck.unsupported_cards}"
