"""The core set (`cards/data/core.json`) and the seven starter decks (`cards/data/starters/`).

These tests pin what the game needs from its first set: every faction playable on its own and as a splash
(§9.3), every keyword of §9 present, every deckbuilding rule of CONTRACTS §1 used by a destiny, rules text the
engine can execute (docs/engine-abilities.md), and a legal starter deck per faction (§11). They read the JSON
with `parse_card_file` and need no database, except the last one, which checks what `loadcards` stored.
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from cards.cardfile import (
    DECKBUILDING_KEYS, DRAW_TYPES, FACTIONS, ICONS, PARAM_KEYWORDS, PLAIN_KEYWORDS, modernise_text,
    parse_card_file, parse_keyword,
)

ROOT = Path(__file__).resolve().parents[2]
CORE_SET = ROOT / "cards" / "data" / "core.json"
STARTERS_DIR = ROOT / "cards" / "data" / "starters"
SEVEN = [f for f in FACTIONS if f != "neutral"]
ALL_KEYWORDS = (*PLAIN_KEYWORDS, *PARAM_KEYWORDS)


@pytest.fixture(scope="module")
def card_file():
    return parse_card_file(CORE_SET.read_text(encoding="utf-8"), source=str(CORE_SET))


@pytest.fixture(scope="module")
def cards(card_file):
    return card_file.cards


def kw_names(card) -> list[str]:
    return [parse_keyword(k)[0] for k in card["keywords"]]


def kw_param(card, name) -> int | None:
    for k in card["keywords"]:
        n, p = parse_keyword(k)
        if n == name:
            return int(p)
    return None


def draw_cards(cards, faction=None):
    return [c for c in cards if c["type"] in DRAW_TYPES and (faction is None or c["faction"] == faction)]


# --------------------------------------------------------------------------------------------------------------
# The file itself (CONTRACTS §1)

def test_core_set_parses_without_errors_or_old_terms(card_file):
    assert card_file.errors == []
    assert card_file.set_code == "core"
    # Appendix B rewrites would mean our own text used old words ("claim", "stand", ...): write current terms.
    assert card_file.rewritten == []
    for card in card_file.cards:
        assert modernise_text(card["text"]) == card["text"], card["name"]


def test_codes_and_numbers_follow_the_position_in_the_set(cards):
    for position, card in enumerate(cards, start=1):
        assert card["code"] == f"core-{position:03d}"
        assert card["number"] == position


def test_names_with_subtitles_are_unique_titles(cards):
    titles = Counter((c["name"], c["subtitle"]) for c in cards)
    assert [t for t, n in titles.items() if n > 1] == []
    # §2.3: copy limits go by name, so two different cards must not share a name by accident.
    names = Counter(c["name"] for c in cards)
    assert [n for n, k in names.items() if k > 1] == []


def test_every_card_has_flavour(cards):
    assert [c["name"] for c in cards if not c["flavor"]] == []


# --------------------------------------------------------------------------------------------------------------
# Counts and spreads

@pytest.mark.parametrize("faction", SEVEN)
def test_each_faction_has_one_faction_card_and_18_draw_cards_of_every_type(cards, faction):
    assert [c["type"] for c in cards if c["faction"] == faction and c["type"] == "faction"] == ["faction"]
    draw = draw_cards(cards, faction)
    assert len(draw) == 18
    types = Counter(c["type"] for c in draw)
    assert set(types) == set(DRAW_TYPES), types
    assert types["unit"] >= 9


@pytest.mark.parametrize("faction", SEVEN)
def test_each_faction_spreads_icons_costs_and_uniques(cards, faction):
    draw = draw_cards(cards, faction)
    units = [c for c in draw if c["type"] == "unit"]
    assert {i for u in units for i in u["icons"]} == set(ICONS), "all four icons across the faction"
    numeric_costs = {c["cost"] for c in draw if isinstance(c["cost"], int)}
    assert len(numeric_costs) >= 5 and min(numeric_costs) <= 1 and max(numeric_costs) >= 5
    assert any(c["cost"] in ("X", "-") for c in draw), "a few X or – costs"
    assert sum(c["unique"] for c in draw) >= 3


@pytest.mark.parametrize("faction", SEVEN)
def test_faction_cards_can_be_splashed_with_loyalty_and_a_few_are_bound_or_restricted(cards, faction):
    draw = draw_cards(cards, faction)
    bound = [c for c in draw if "Bound" in kw_names(c)]
    assert 2 <= len(bound) <= 3
    assert all(c["loyalty"] is None for c in bound), "§9.3: a Bound card cannot be off-faction, so no Loyalty"
    unbound = [c for c in draw if "Bound" not in kw_names(c)]
    assert all(c["loyalty"] in (1, 2, 3) for c in unbound), [c["name"] for c in unbound if not c["loyalty"]]
    assert len({c["loyalty"] for c in unbound}) == 3, "Loyalty 1, 2 and 3 all appear"
    assert sum("Restricted" in kw_names(c) for c in draw) >= 2


def test_at_least_24_neutral_draw_cards_without_loyalty(cards):
    neutral = draw_cards(cards, "neutral")
    assert len(neutral) >= 24
    assert set(Counter(c["type"] for c in neutral)) == set(DRAW_TYPES)
    assert [c["name"] for c in neutral if c["loyalty"] is not None] == []
    assert [c["name"] for c in neutral if "Bound" in kw_names(c)] == []


def test_costs_and_power_cover_the_whole_range(cards):
    draw = draw_cards(cards)
    assert set(range(0, 7)) <= {c["cost"] for c in draw}
    assert {"X", "-"} <= {c["cost"] for c in draw}
    units = [c for c in cards if c["type"] == "unit"]
    assert set(range(0, 7)) <= {u["power"] for u in units}
    # Balance for the simulator: most units are cheap and modest.
    modest = [u for u in units if isinstance(u["cost"], int) and 1 <= u["cost"] <= 4 and 1 <= u["power"] <= 4]
    assert len(modest) >= 0.6 * len(units)


def test_only_units_have_power_and_icons_and_every_unit_has_an_icon(cards):
    for c in cards:
        if c["type"] == "unit":
            assert isinstance(c["power"], int) and c["icons"], c["name"]
        else:
            assert c["power"] is None and c["icons"] == [], c["name"]


@pytest.mark.parametrize("keyword", ALL_KEYWORDS)
def test_every_keyword_of_section_9_is_on_at_least_two_cards(cards, keyword):
    assert sum(keyword in kw_names(c) for c in cards) >= 2


def test_keywords_sit_on_card_types_they_can_work_on(cards):
    for c in cards:
        names = kw_names(c)
        if "Lasting" in names:
            assert c["type"] == "attachment", c["name"]  # §9.3, §10.3
        if "No Attachments" in names or set(names) & {"Subtle", "Glory", "Mastery", "Cunning", "Compel",
                                                       "Ravage", "Prowess", "Wary", "Ruthless", "Scout"}:
            assert c["type"] == "unit", c["name"]
        if "Restricted" in names:
            assert c["type"] in ("unit", "location", "attachment"), c["name"]  # deeds never enter the field
        if "Haste" in names:
            assert c["type"] == "unit", c["name"]


def test_cards_costing_dash_can_reach_play(cards):
    """§2.5, §10.9: a '–' card cannot be played from hand, so it needs Secret (X) or another card's effect."""
    fetchers = []
    for c in cards:
        for ab in c["abilities"] or []:
            for effect in ab.get("effects") or []:
                if "search" in effect and effect.get("to") == "field":
                    fetchers.append(effect["search"])
    for c in cards:
        if c["cost"] != "-":
            continue
        by_secret = kw_param(c, "Secret") is not None
        by_effect = any(sel.get("attribute") in c["attributes"] and sel.get("type") in (None, c["type"])
                        for sel in fetchers)
        assert by_secret or by_effect, c["name"]


# --------------------------------------------------------------------------------------------------------------
# Quests and destinies

def quest_stats(q):
    return q["wealth"], q["momentum"], q["spoils"], q["levy"]


def test_quests_have_varied_stats_in_range(cards):
    quests = [c for c in cards if c["type"] == "quest"]
    assert len(quests) >= 14
    assert sum(q["faction"] == "neutral" for q in quests) > len(quests) / 2
    for q in quests:
        w, m, s, lv = quest_stats(q)
        assert 2 <= w <= 6 and 0 <= m <= 4 and 1 <= s <= 3 and 5 <= lv <= 9, q["name"]
        assert q["cost"] is None and q["loyalty"] is None
    for i, stat in enumerate(("wealth", "momentum", "spoils", "levy")):
        values = Counter(quest_stats(q)[i] for q in quests)
        assert len(values) >= 3, stat
    assert sum(q["spoils"] <= 2 for q in quests) >= 0.75 * len(quests), "spoils 1-2 mostly"
    assert sum(q["text"].startswith("Embark:") for q in quests) >= len(quests) // 2, "many with Embark"
    assert len({quest_stats(q) for q in quests}) == len(quests), "no two quests share a stat line"


def test_quest_stats_trade_off(cards):
    """No quest is at least as good as another in all four stats (more is better for each, §2.4), unless the
    weaker one pays for it with an Embark that gains Influence."""
    quests = [c for c in cards if c["type"] == "quest"]
    for a in quests:
        for b in quests:
            if a is b:
                continue
            dominated = all(x >= y for x, y in zip(quest_stats(a), quest_stats(b)))
            gains_influence = any("gain_influence" in e for ab in b["abilities"] for e in ab["effects"])
            assert not dominated or gains_influence, f"{a['name']} beats {b['name']} in every stat"


def test_destinies_use_every_deckbuilding_rule_and_several_have_abilities(cards):
    destinies = [c for c in cards if c["type"] == "destiny"]
    assert len(destinies) >= 7
    used = {key for d in destinies for key in (d["deckbuilding"] or {})}
    assert used == set(DECKBUILDING_KEYS)
    assert sum(bool(d["abilities"]) for d in destinies) >= 4
    for d in destinies:
        if d["deckbuilding"]:
            assert d["text"].startswith("Deckbuilding:"), d["name"]
        assert d["cost"] is None and d["loyalty"] is None


# --------------------------------------------------------------------------------------------------------------
# Rules text and the engine's ability format (docs/engine-abilities.md)

TIMINGS = {"static", "action", "response", "disrupt", "halt", "forced", "enters", "embark", "attach"}
EVENTS = {
    "enters_play": {"card"}, "would_leave_play": {"card", "how"}, "leaves_play": {"card", "how"},
    "struggle_declared": {"type", "side", "participating"}, "defenders_declared": {"type", "side", "participating"},
    "struggle_resolving": {"type", "side", "participating"},
    "struggle_won": {"type", "side", "participating", "unopposed"},
    "struggle_lost": {"type", "side", "participating", "unopposed"},
    "phase_start": {"phase"}, "phase_end": {"phase"}, "card_played": {"card", "player"},
    "influence_gained": {"player"}, "authority_claimed": {"player"}, "quest_revealed": {"player"},
}
PHASES = {"quest", "draw", "kingdom", "confrontation", "authority", "refresh", "toll"}
SELECTOR_KEYS = {
    "zone", "controller", "type", "attribute", "faction", "name", "unique", "keyword", "icon", "power_lt",
    "power_lte", "power_gt", "power_gte", "cost_lte", "cost_gte", "ready", "exhausted", "participating",
    "not_self", "blanked", "has_emblem", "has_influence", "is_token", "count", "up_to",
}
REFERENCES = {"self", "host", "target", "event_card"}
AMOUNT_EFFECTS = {"draw", "gain_wealth", "gain_influence", "place_influence", "move_influence", "lose_influence",
                  "discard_random", "discard_from_hand", "mill", "modify_spoils", "scout"}
REF_EFFECTS = {"exhaust", "ready", "kill", "discard", "sacrifice", "return_to_hand", "return_to_deck",
               "place_emblem", "remove_emblem", "put_into_play", "join_struggle", "remove_from_struggle"}
OTHER_EFFECTS = {"modify_power", "gain_keyword", "search", "create_token", "save", "cancel", "then", "script"}
EFFECT_OPTIONS = {"player", "on", "position", "who", "until", "zone", "to", "count"}
CONDITIONS = {"controls", "opponent_controls", "min", "influence_lte", "influence_gte", "behind_on_influence",
              "hand_gte", "hand_lte", "phase", "in_struggle", "participating", "holds_authority", "all", "any", "not"}
COSTS = {"exhaust", "pay", "sacrifice", "discard_from_hand", "remove_influence", "return_to_hand"}
MODIFY = {"power", "cost", "authority", "struggle_total", "levy", "wealth", "spoils", "momentum", "setup_budget"}
RULES = {"cannot_be_killed", "cannot_attack", "cannot_defend", "cannot_be_exhausted_by_opponent", "does_not_ready",
         "immune_to_deeds", "immune_to_opponent_effects"}
ABILITY_KEYS = {"timing", "when", "phase", "condition", "limit", "limit_per", "max", "cost", "target", "effects",
                "x", "text", "affects", "modify", "grant", "rule"}


def selector_problems(sel, *, allow_refs=True, allow_players=False) -> list[str]:
    if isinstance(sel, str):
        ok = (allow_refs and sel in REFERENCES) or (allow_players and sel in ("you", "opponent"))
        return [] if ok else [f"unknown reference {sel!r}"]
    if not isinstance(sel, dict):
        return [f"a selector must be an object, not {sel!r}"]
    if set(sel) == {"each"}:
        return selector_problems(sel["each"], allow_refs=False)
    problems = [f"unknown selector key {k!r}" for k in set(sel) - SELECTOR_KEYS]
    if sel.get("zone", "field") not in {"field", "hand", "deck", "discard", "dead", "secret"}:
        problems.append(f"unknown zone {sel['zone']!r}")
    if sel.get("controller", "you") not in {"you", "opponent", "any"}:
        problems.append(f"unknown controller {sel['controller']!r}")
    types = sel.get("type", [])
    for t in types if isinstance(types, list) else [types]:
        if t not in {"unit", "location", "attachment", "deed", "quest", "faction", "destiny"}:
            problems.append(f"unknown type {t!r}")
    if sel.get("icon", "combat") not in ICONS:
        problems.append(f"unknown icon {sel['icon']!r}")
    if sel.get("participating", True) not in (True, False, "attacking", "defending"):
        problems.append(f"unknown participating {sel['participating']!r}")
    return problems


def amount_ok(v) -> bool:
    if isinstance(v, bool):
        return False
    return isinstance(v, int) or v == "X" or (isinstance(v, dict) and set(v) == {"count"}
                                              and not selector_problems(v["count"], allow_refs=False))


def effect_problems(effects) -> list[str]:
    problems = []
    for e in effects:
        main = set(e) - EFFECT_OPTIONS
        if len(main) != 1 or not main <= AMOUNT_EFFECTS | REF_EFFECTS | OTHER_EFFECTS:
            problems.append(f"unknown effect {e!r}")
            continue
        (name,) = main
        v = e[name]
        if name in AMOUNT_EFFECTS and not amount_ok(v):
            problems.append(f"{name}: bad amount {v!r}")
        if name in REF_EFFECTS:
            problems += selector_problems(v)
        if name in ("modify_power", "gain_keyword"):
            if name == "modify_power" and not amount_ok(v) and not (isinstance(v, int)):
                problems.append(f"modify_power: bad amount {v!r}")
            problems += selector_problems(e.get("who", "self"))
            if e.get("until") not in ("phase", "struggle", "round"):
                problems.append(f"{name}: `until` must be phase, struggle or round")
        if name == "search":
            problems += selector_problems(v, allow_refs=False)
            if e.get("zone", "deck") not in ("deck", "discard", "dead") or e.get("to") not in ("hand", "field"):
                problems.append(f"search: bad zone/to in {e!r}")
        if name == "create_token" and not (isinstance(v, dict) and {"name", "power", "icons"} <= set(v)):
            problems.append("create_token needs name, power and icons")
        if name == "save" and v != "event_card":
            problems.append("save acts on event_card")
        if name == "then":
            problems += effect_problems(v)
        if "player" in e and e["player"] not in ("you", "opponent"):
            problems.append(f"unknown player {e['player']!r}")
    return problems


def condition_problems(cond) -> list[str]:
    if not isinstance(cond, dict):
        return ["a condition must be an object"]
    problems = [f"unknown condition {k!r}" for k in set(cond) - CONDITIONS]
    for k in ("controls", "opponent_controls"):
        if k in cond:
            problems += selector_problems(cond[k], allow_refs=False)
    for k in ("all", "any"):
        for c in cond.get(k, []):
            problems += condition_problems(c)
    if "phase" in cond and cond["phase"] not in PHASES:
        problems.append(f"unknown phase {cond['phase']!r}")
    return problems


def ability_problems(ab) -> list[str]:
    problems = [f"unknown key {k!r}" for k in set(ab) - ABILITY_KEYS]
    timing = ab.get("timing")
    if timing not in TIMINGS:
        return problems + [f"unknown timing {timing!r}"]
    if timing in ("response", "forced", "halt", "disrupt"):
        when = ab.get("when") or {}
        if when.get("event") not in EVENTS:
            problems.append(f"{timing} needs a known event, not {when.get('event')!r}")
        else:
            problems += [f"filter {k!r} does not apply to {when['event']}"
                         for k in set(when) - {"event"} - EVENTS[when["event"]]]
            if isinstance(when.get("card"), dict) or when.get("card") not in (None, "self"):
                problems += selector_problems(when["card"], allow_refs=False)
            if when.get("phase", "draw") not in PHASES:
                problems.append(f"unknown phase {when['phase']!r}")
    elif "when" in ab:
        problems.append(f"`when` is only for response/forced/halt/disrupt, not {timing}")
    if ab.get("phase") not in (None, "struggle", *PHASES):
        problems.append(f"unknown phase {ab['phase']!r}")
    if "phase" in ab and timing != "action":
        problems.append("`phase` limits action abilities only")
    if "condition" in ab:
        problems += condition_problems(ab["condition"])
    for cost in ab.get("cost", []):
        if not isinstance(cost, dict) or len(cost) != 1 or not set(cost) <= COSTS:
            problems.append(f"unknown cost {cost!r}")
        elif "pay" in cost and not amount_ok(cost["pay"]):
            problems.append(f"bad pay {cost['pay']!r}")
        elif set(cost) & {"exhaust", "sacrifice", "return_to_hand"}:
            problems += selector_problems(next(iter(cost.values())), allow_refs=False) \
                if isinstance(next(iter(cost.values())), dict) else \
                ([] if next(iter(cost.values())) == "self" else [f"bad cost {cost!r}"])
    if "target" in ab:
        problems += selector_problems(ab["target"], allow_refs=False)
    if "x" in ab and ab["x"] != {"max": "wealth"}:
        problems.append(f"unknown x {ab['x']!r}")
    if timing == "static":
        problems += selector_problems(ab.get("affects"), allow_players=True)
        if not (ab.get("modify") or ab.get("grant") or ab.get("rule")):
            problems.append("a static ability needs modify, grant or rule")
        problems += [f"unknown modifier {k!r}" for k in set(ab.get("modify", {})) - MODIFY]
        for g in ab.get("grant", []):
            try:
                parse_keyword(g)
            except ValueError as e:
                problems.append(str(e))
        problems += [f"unknown rule {r!r}" for r in set(ab.get("rule", [])) - RULES]
        if "effects" in ab:
            problems.append("a static ability has no effects")
    elif timing == "attach":
        if "effects" in ab:
            problems.append("an attach ability only names the legal host")
    else:
        if not ab.get("effects"):
            problems.append(f"a {timing} ability needs effects")
        problems += effect_problems(ab.get("effects", []))
        uses_target = "target" in repr(ab.get("effects"))
        if uses_target != ("target" in ab):
            problems.append("effects act on 'target' exactly when the ability chooses a target")
    return problems


def test_every_ability_uses_only_the_documented_vocabulary(cards):
    problems = {c["name"]: p for c in cards for ab in c["abilities"] or [] if (p := ability_problems(ab))}
    assert problems == {}


def test_ability_checker_rejects_what_the_format_does_not_know():
    assert ability_problems({"timing": "action", "effects": [{"draw": 1}]}) == []
    assert ability_problems({"timing": "sometimes", "effects": [{"draw": 1}]})
    assert ability_problems({"timing": "action", "effects": [{"teleport": 1}]})
    assert ability_problems({"timing": "response", "when": {"event": "lunch"}, "effects": [{"draw": 1}]})
    assert ability_problems({"timing": "action", "effects": [{"kill": "target"}]})  # kills a target it never chose
    assert ability_problems({"timing": "static", "affects": "self", "modify": {"toughness": 1}})
    assert ability_problems({"timing": "action", "target": {"colour": "red"}, "effects": [{"kill": "target"}]})


TIMING_WORDS = {  # how each timing reads in printed text (rulebook §8.3, §5.1; "When this enters play")
    "action": re.compile(r"^(?:(?:Quest|Draw|Kingdom|Confrontation|Authority|Refresh|Toll) )?Action: "),
    "response": re.compile(r"^Response: After "),
    "disrupt": re.compile(r"^Disrupt: When "),
    "halt": re.compile(r"^Halt: When "),
    "forced": re.compile(r"^Forced: "),
    "enters": re.compile(r"^When this enters play, "),
    "embark": re.compile(r"^Embark: "),
    "attach": re.compile(r"^Attach to "),
}


def text_sentences(card) -> list[str]:
    """The card's text lines other than its keyword line and its destiny deckbuilding line."""
    lines = [ln for ln in card["text"].split("\n") if ln]
    if card["keywords"]:
        assert lines[0] == " ".join(k + "." for k in card["keywords"]), card["name"]
        lines = lines[1:]
    return [ln for ln in lines if not ln.startswith("Deckbuilding:")]


def test_every_card_with_text_has_abilities_covering_each_line(cards):
    for c in cards:
        assert isinstance(c["abilities"], list), c["name"]
        lines = text_sentences(c)
        covered = [ab["text"] for ab in c["abilities"]]
        assert covered == lines, c["name"]  # one ability per printed line, in order, naming it
        if not lines:
            assert c["abilities"] == [], f"{c['name']}: keywords only, so abilities: []"


def test_printed_timing_words_match_ability_timings(cards):
    for c in cards:
        for ab in c["abilities"]:
            pattern = TIMING_WORDS.get(ab["timing"])
            if pattern is None:  # static: no timing word at all
                assert not re.match(r"^\w+( \w+)?: ", ab["text"]) and not ab["text"].startswith("When "), \
                    c["name"]
            else:
                assert pattern.match(ab["text"]), (c["name"], ab["text"])
            if ab["timing"] == "embark":
                assert c["type"] == "quest"
            if ab["timing"] == "attach":
                assert c["type"] == "attachment"
        if c["type"] == "attachment":
            assert [ab["timing"] for ab in c["abilities"]][:1] == ["attach"], c["name"]
        if c["type"] == "deed":
            assert {ab["timing"] for ab in c["abilities"]} <= {"action", "response", "disrupt", "halt"}
            assert c["abilities"], c["name"]


def test_text_states_what_the_script_does(cards):
    """Spot-check that numbers and limits in the script are the ones printed."""
    for c in cards:
        for ab in c["abilities"]:
            text = ab["text"]
            assert ("Limit 1 per round" in text) == (ab.get("limit") == 1), c["name"]
            assert ("Max 1 per round" in text) == (ab.get("max") == 1), c["name"]
            assert bool(re.search(r"\bX\b", text)) == ("x" in ab), c["name"]
            for e in ab.get("effects", []):
                if isinstance(e.get("draw"), int):
                    n = e["draw"]
                    assert f"draw {n} card" in text.lower(), (c["name"], text)
                if isinstance(e.get("gain_wealth"), int):
                    assert f"gain {e['gain_wealth']} wealth" in text.lower(), (c["name"], text)
                if isinstance(e.get("modify_power"), int) and e["modify_power"] > 0:
                    assert f"+{e['modify_power']} Power until end of the {e['until']}" in text, (c["name"], text)
            if ab["timing"] == "static" and "power" in ab.get("modify", {}):
                n = ab["modify"]["power"]
                assert (f"+{n} Power" if n > 0 else f"-{-n} Power") in text, (c["name"], text)
            for g in ab.get("grant", []):
                assert f"gains {g}" in text, (c["name"], text)


# --------------------------------------------------------------------------------------------------------------
# Starter decks (CONTRACTS §2 format; legal under §11 and the destiny's deckbuilding rules)

LINE_RE = re.compile(r"^(?P<count>\d+)x (?P<title>.+)$")
HEADERS = ["Faction:", "Destiny:", "Quests:", "Units:", "Locations:", "Attachments:", "Deeds:"]
HEADER_TYPE = {"Faction:": "faction", "Destiny:": "destiny", "Quests:": "quest", "Units:": "unit",
               "Locations:": "location", "Attachments:": "attachment", "Deeds:": "deed"}


def read_starter(path: Path, cards) -> list[tuple[dict, int]]:
    """A small reader for the export format: every line resolves to exactly one card under the right header."""
    by_title = {(f"{c['name']}, {c['subtitle']}" if c["subtitle"] else c["name"]): c for c in cards}
    deck, header, seen_headers = [], None, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        if line in HEADERS:
            header = line
            seen_headers.append(line)
            continue
        m = LINE_RE.match(line)
        assert m and header, f"{path.name} line {number}: not '3x Name' under a header: {line!r}"
        card = by_title.get(m["title"])
        assert card is not None, f"{path.name} line {number}: no card titled {m['title']!r}"
        assert card["type"] == HEADER_TYPE[header], f"{path.name} line {number}: {card['name']} under {header}"
        deck.append((card, int(m["count"])))
    assert seen_headers == [h for h in HEADERS if h in seen_headers], f"{path.name}: headers out of order"
    return deck


def section_11_problems(deck: list[tuple[dict, int]]) -> list[str]:
    """§11 plus the destiny's deckbuilding rules (CONTRACTS §1), naming each problem."""
    problems = []
    by_type = Counter()
    for card, n in deck:
        by_type[card["type"]] += n
    factions = [c for c, n in deck if c["type"] == "faction"]
    destinies = [c for c, n in deck if c["type"] == "destiny"]
    if by_type["faction"] != 1:
        problems.append(f"{by_type['faction']} faction cards (exactly 1)")
    if by_type["destiny"] != 1:
        problems.append(f"{by_type['destiny']} destinies (exactly 1)")
    if by_type["quest"] != 7:
        problems.append(f"{by_type['quest']} quests (exactly 7)")
    rules = (destinies[0]["deckbuilding"] if destinies else None) or {}
    draw = sum(n for c, n in deck if c["type"] in DRAW_TYPES)
    if draw < rules.get("min_draw_cards", 60):
        problems.append(f"{draw} draw cards (at least {rules.get('min_draw_cards', 60)})")
    per_name = Counter()
    for card, n in deck:
        per_name[card["name"]] += n
    limit = rules.get("max_copies", 3)
    problems += [f"{k} copies of {name} (at most {limit})" for name, k in per_name.items() if k > limit]
    faction = factions[0]["faction"] if factions else None
    allowed_bound = {faction, *rules.get("bound_factions", [])}
    for card, n in deck:
        if "Bound" in kw_names(card) and card["faction"] not in allowed_bound:
            problems.append(f"{card['name']} is Bound to {card['faction']}")
        if card["type"] in rules.get("forbidden_types", []):
            problems.append(f"{card['name']}: the destiny forbids {card['type']}s")
        if "max_cost" in rules and card["type"] in DRAW_TYPES and isinstance(card["cost"], int) \
                and card["cost"] > rules["max_cost"]:
            problems.append(f"{card['name']} costs {card['cost']} (at most {rules['max_cost']})")
    return problems


def test_section_11_checker_finds_each_kind_of_problem(cards):
    by_name = {c["name"]: c for c in cards}
    good = read_starter(STARTERS_DIR / "winter.txt", cards)
    assert section_11_problems(good) == []
    assert any("copies of Hound of Annwn" in p
               for p in section_11_problems(good + [(by_name["Hound of Annwn"], 1)]))
    assert any("Bound to camelot" in p for p in section_11_problems(good + [(by_name["Excalibur"], 1)]))
    assert any("costs 4" in p for p in section_11_problems(good + [(by_name["Icebound Sentinel"], 1)]))
    assert any("quests" in p for p in section_11_problems([e for e in good if e[0]["type"] != "quest"]))
    assert any("draw cards" in p for p in section_11_problems(good[:20]))


@pytest.mark.parametrize("faction", SEVEN)
def test_starter_deck_is_legal(cards, faction):
    path = STARTERS_DIR / f"{faction}.txt"
    deck = read_starter(path, cards)
    assert section_11_problems(deck) == []
    faction_cards = [c for c, _ in deck if c["type"] == "faction"]
    assert faction_cards[0]["faction"] == faction
    draw = [(c, n) for c, n in deck if c["type"] in DRAW_TYPES]
    assert 60 <= sum(n for _, n in draw) <= 62
    # Mostly in-faction plus neutrals.
    own = sum(n for c, n in draw if c["faction"] in (faction, "neutral"))
    assert own >= 0.9 * sum(n for _, n in draw)
    assert sum(n for c, n in draw if c["faction"] == faction) >= 25
    # Enough units to attack, defend and claim Authority every round.
    assert sum(n for c, n in draw if c["type"] == "unit") >= 30


def test_some_starters_show_the_loyalty_surcharge_and_a_destiny_bound_permission(cards):
    splashes, bound_guests = [], []
    for faction in SEVEN:
        deck = read_starter(STARTERS_DIR / f"{faction}.txt", cards)
        for card, _ in deck:
            if card["type"] in DRAW_TYPES and card["faction"] not in (faction, "neutral"):
                (bound_guests if "Bound" in kw_names(card) else splashes).append((faction, card["name"]))
                if "Bound" not in kw_names(card):
                    assert card["loyalty"], card["name"]
    assert 1 <= len({f for f, _ in splashes}) <= 2
    assert bound_guests  # e.g. Iron Crown in Camelot under Alliance of Kings


# --------------------------------------------------------------------------------------------------------------
# What `loadcards` stored (tests/conftest.py loads the core set into the test database once per session)

@pytest.mark.django_db
def test_loaded_catalogue_round_trips_to_the_file(cards):
    from cards.cardfile import card_to_json
    from cards.models import Card

    stored = {c.code: c.to_data() for c in Card.objects.filter(card_set__code="core").select_related("faction")}
    assert len(stored) == len(cards)
    for card in cards:
        assert stored[card["code"]] == card_to_json(card), card["code"]


# --------------------------------------------------------------------------------------------------------------
# The same files through the other workstreams' public interfaces (decks: CONTRACTS §2/§3; engine: play_game)

def starter_counts(faction, pool):
    from decks.decklist import parse_decklist

    parsed = parse_decklist((STARTERS_DIR / f"{faction}.txt").read_text(encoding="utf-8"), pool)
    assert [p.message for p in parsed.problems] == []
    return parsed.counts


@pytest.fixture(scope="module")
def pool(cards):
    from decks.pool import CardPool

    return CardPool.from_cards(cards)


@pytest.mark.parametrize("faction", SEVEN)
def test_starter_deck_passes_the_deck_legality_module(pool, faction):
    from decks.legality import check_deck

    verdict = check_deck(starter_counts(faction, pool), pool)
    assert verdict.errors == [] and verdict.legal
    assert verdict.to_json()["faction"] == faction


def test_engine_executes_every_card_of_the_core_set(cards):
    """docs/engine-abilities.md: no core card may show up in a simulation's `unsupported_cards`."""
    from simulator.engines.r1 import build_deck

    by_type = {t: [c for c in cards if c["type"] == t] for t in ("faction", "destiny")}
    rest = [(c, 1) for c in cards if c["type"] not in ("faction", "destiny")]
    unsupported = set()
    for faction, destiny in zip(by_type["faction"] * 2, by_type["destiny"]):
        unsupported |= set(build_deck([(faction, 1), (destiny, 1), *rest]).unsupported_cards)
    assert sorted(unsupported) == []


@pytest.mark.parametrize("faction", SEVEN)
def test_starter_deck_beats_the_goldfish_within_ten_rounds(pool, faction):
    """CONTRACTS §3 goldfish: a reasonable deck against an empty opponent reaches 15 Influence (§1.1) in a
    handful of rounds, never by the round limit and never by drawing out (§12)."""
    from simulator.engines.r1 import build_deck, play_game

    deck = build_deck([(pool.get(code), n) for code, n in starter_counts(faction, pool).items()])
    results = [play_game(deck, None, seed=seed) for seed in range(8)]
    assert [(r.winner, r.reason) for r in results] == [(0, "influence")] * 8
    assert all(3 <= r.rounds <= 10 for r in results), [r.rounds for r in results]
