"""Positions, action texts and the judge (CONTRACTS §6)."""
import copy
import itertools
import json
import random

import pytest

from simulator.engines.r1 import Game
from simulator.engines.r1.actions import apply_text, option_texts, parse_text
from simulator.engines.r1.game import IllegalAction
from simulator.engines.r1.policies import GreedyPolicy
from simulator.engines.r1.positions import JudgeError, PositionError, from_position, judge, to_position

from .helpers import CORE, starter_decks


def _catalogue():
    raw = json.loads(CORE.read_text())
    return {c["code"]: c for c in (raw["cards"] if isinstance(raw, dict) else raw)}


CAT = _catalogue()


def _greedy_step(g, pols):
    d = g.pending
    g.apply_action(pols[d.player].choose(g.view(d.player), d))


def _boundaries(a, b, seed):
    """A greedy game driven through apply_action, paused at every point a position can be taken."""
    g = Game(a, b, seed=seed)     # started: the mulligan is pending, before the first boundary
    g.stops = True
    pols = (GreedyPolicy(1), GreedyPolicy(2))
    while not g.is_terminal():
        if g.pending.kind == "boundary":
            yield g, pols
            g.apply_action(("continue",))
        else:
            _greedy_step(g, pols)


@pytest.mark.parametrize("pair,seed", [(("camelot", "lefay"), 1), (("summer", "winter"), 2), (("keepers", "eleven"), 3)])
def test_saving_then_loading_gives_the_same_state_and_the_same_pending_decision(pair, seed):
    decks = starter_decks()
    n = 0
    for g, pols in _boundaries(decks[pair[0]], decks[pair[1]], seed):
        pos = to_position(g)
        h = from_position(json.loads(json.dumps(pos)), CAT, advance=False)
        assert to_position(h) == pos
        if g.pending.info[:2] != ("phase", 0):
            continue   # a position holds no "once per round" uses or round-long effects: compare at round starts
        # from the same random state both run on identically: same decisions, same end
        h.rng.setstate(g.rng.getstate())
        h._advance(None, first=True)
        g2 = g.clone()
        g2.rng.setstate(g.rng.getstate())
        while g2.pending is not None and g2.pending.kind == "boundary":
            g2.apply_action(("continue",))
        n += 1
        # the same pending decision (a field lists attachments after their hosts: compare options as sets)
        assert (h.pending.kind, h.pending.player) == (g2.pending.kind, g2.pending.player)
        assert sorted(option_texts(h)) == sorted(option_texts(g2))
        if not any(i in g.host for p in (0, 1) for i in g.field[p]):
            for _ in range(40):   # with the same field order they play on identically
                if g2.is_terminal() or h.is_terminal():
                    break
                assert option_texts(h) == option_texts(g2)
                _greedy_step(g2, (GreedyPolicy(1), GreedyPolicy(2)))
                _greedy_step(h, (GreedyPolicy(1), GreedyPolicy(2)))
    assert n >= 3


def _pos():
    decks = starter_decks()
    for g, _ in _boundaries(decks["camelot"], decks["lefay"], 4):
        if g.round_no == 2 and g.pending.info[:2] == ("turn", 3):
            return g, to_position(g)
    raise AssertionError("no Confrontation turn in round 2")


@pytest.mark.parametrize("breakage,message", [
    (lambda pos: pos["players"][0]["hand"].append("nope-999"), "player 0, hand: unknown card nope-999"),
    (lambda pos: pos["players"][1]["deck"].append("core-170"), "player 1, deck: core-170"),
    (lambda pos: pos["players"][0].__setitem__("pool", -1), "player 0, pool: a negative count"),
    (lambda pos: pos["players"][0]["field"][0].__setitem__("emblems", -2), "player 0, field: "),
    (lambda pos: pos["players"][0].__setitem__("quest", ["core-170", "core-171"]), "player 0, quest: a second active"),
    (lambda pos: pos["players"][1]["field"].append(copy.deepcopy(next(e for e in pos["players"][1]["field"]
                                                                       if CAT[e["card"]].get("unique")))),
     "is unique and player 1 already controls a copy"),
    (lambda pos: pos["players"][0]["field"].append({"card": "core-015"}), "player 0, field: core-015"),
    (lambda pos: pos.__setitem__("phase", "lunch"), "phase: 'lunch'"),
    (lambda pos: pos["players"][0]["hand"].__setitem__(0, {"card": pos["players"][0]["hand"][0], "id": "x"})
     or pos["players"][0]["hand"].__setitem__(1, {"card": pos["players"][0]["hand"][1], "id": "x"}), "the id 'x'"),
])
def test_a_broken_position_is_refused_naming_player_zone_and_card(breakage, message):
    _g, pos = _pos()
    bad = copy.deepcopy(pos)
    breakage(bad)
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace("[", r"\[")):
        from_position(bad, CAT)
    if "no host" not in message and "core-015" in message:
        pass
    from_position(pos, CAT)   # the unbroken one loads


def test_an_attachment_outside_its_host_is_refused():
    _g, pos = _pos()
    bad = copy.deepcopy(pos)
    bad["players"][0]["field"].append({"card": "core-015"})   # Excalibur-like attachment of the core set
    if CAT["core-015"]["type"] == "attachment":
        with pytest.raises(PositionError, match="attachment with no host"):
            from_position(bad, CAT)


# every row of the action table, as the engine prints and reads them back
TABLE = {"pass", "keep", "mulligan", "place", "hide", "done", "quest", "first", "play", "secret", "reveal", "haste",
         "use", "struggle", "attack", "bar", "bar none", "defend", "defend none", "kill", "emblem", "discard", "yes",
         "no", "target", "x"}


def test_every_option_prints_as_an_action_text_that_reads_back():
    decks = starter_decks()
    names = sorted(decks)
    kinds: dict[str, set] = {}
    for (a, b), seed in itertools.product(itertools.combinations(names, 2), range(2)):
        g = Game(decks[a], decks[b], seed=seed)
        rng = random.Random(seed)
        while not g.is_terminal():
            opts = option_texts(g)
            assert len(set(opts)) == len(opts)
            for t in opts:
                steps = parse_text(g, t)
                assert steps[0] in g.pending.options, (t, steps)
                verb = " ".join(t.split()[:2]) if t in ("defend none", "bar none") else t.split()[0]
                kinds.setdefault(verb, set()).add(g.pending.kind)
            g.apply_action(rng.choice(opts))   # apply_action takes the text
    assert TABLE <= set(kinds), TABLE - set(kinds)
    assert kinds["attack"] == {"attackers"} and kinds["defend"] == {"defenders"} and kinds["bar"] == {"subtle"}
    assert kinds["kill"] == {"kill_own"} and kinds["x"] == {"x"} and {"onwin"} <= kinds["yes"]


def test_a_listing_declares_several_units_in_one_action_and_a_bad_text_changes_nothing():
    g, pos = _pos()
    h = from_position(pos, CAT)
    while h.pending.kind != "window" or not any(t.startswith("struggle") for t in option_texts(h)):
        h.apply_action(option_texts(h)[0])
    t = next(t for t in option_texts(h) if t.startswith("struggle"))
    h.apply_action(t)
    if h.pending.kind == "attackers":
        atts = [o.split()[1] for o in option_texts(h)]
        before = h.state_text()
        with pytest.raises(IllegalAction, match="the options: attack"):
            h.apply_action("attack nobody")
        assert h.state_text() == before
        h.apply_action("attack " + " ".join(atts))
        assert len(atts) > 1
        assert sorted(h.cdef[i].code for i in h.struggle.attackers) == sorted(a.split(".")[0] for a in atts)


def test_labels_name_cards_in_actions_and_output():
    _g, pos = _pos()
    pos = copy.deepcopy(pos)
    p = pos["active_player"]
    pos["players"][p]["field"][0]["id"] = "hero"
    h = from_position(pos, CAT)
    texts = " ".join(option_texts(h))
    assert to_position(h)["players"][p]["field"][0]["id"] == "hero"
    r = judge(pos, CAT, [], until="decision")
    assert r["position"]["players"][p]["field"][0]["id"] == "hero"
    assert "hero" not in texts   # the struggle choice names no card
    # the Combat struggle's S.3 attackers name the labelled unit by its label, the rest by their codes
    r = judge(pos, CAT, ["struggle combat"], until="decision")
    assert r["pending"]["decision"] == "attackers" and "attack hero" in r["pending"]["options"]
    assert not any(CAT[pos["players"][p]["field"][0]["card"]]["code"] in o for o in r["pending"]["options"])
    r = judge(pos, CAT, ["struggle combat", "attack hero"], until="decision")
    assert f"S.3 player {p} declares a Combat struggle with Gawain" in " ".join(r["log"])


def test_the_judge_stops_where_asked_and_refuses_an_action_that_is_not_an_option():
    _g, pos = _pos()
    r = judge(pos, CAT, [], until="decision")
    assert r["pending"]["player"] == pos["active_player"] and r["winner"] is None
    assert r["position"]["phase"] == "confrontation"
    r = judge(pos, CAT, [], until="phase")
    assert r["pending"] is None or r["pending"]["decision"] not in ("window", "react")
    if r["pending"] is None:
        assert (r["position"]["round"], r["position"]["phase"]) != (pos["round"], pos["phase"])
    g = judge(pos, CAT, [], until="game", policy="greedy")
    assert g["winner"] in (0, 1) and g["reason"] in ("influence", "elimination") and g["position"] is None
    assert any("§" in line for line in g["log"])
    c = judge(pos, CAT, [], until="decision", policy="greedy")
    assert c["choice"] in c["pending"]["options"]
    with pytest.raises(JudgeError) as exc:
        judge(pos, CAT, ["pass", "struggle nothing"])
    assert exc.value.index == 1 and exc.value.options
    # a struggle type the position says was made this turn is not offered again
    made = dict(pos, struggles_made=["combat", "guile", "sorcery", "faith"])
    r = judge(made, CAT, [], until="decision")
    pend = r["pending"] or {}
    if pend.get("player") == pos["active_player"] and r["position"]["active_player"] == pos["active_player"]:
        assert not any(o.startswith("struggle") for o in pend.get("options", []))
    assert judge(pos, CAT, [], until="decision")["pending"]["options"] != pend.get("options")


def test_after_a_struggle_the_judge_gives_a_confrontation_position_with_struggles_made():
    _g, pos = _pos()
    h = from_position(pos, CAT)
    opts = option_texts(h)
    st = [t for t in opts if t.startswith("struggle")]
    if not st:
        pytest.skip("no struggle to initiate in this position")
    r = judge(pos, CAT, [st[0]], until="struggle")
    if r["pending"] is None and r["winner"] is None:
        assert r["position"]["phase"] == "confrontation"
        assert st[0].split()[1] in r["position"]["struggles_made"]
        again = from_position(r["position"], CAT)
        assert not any(t == st[0] for t in option_texts(again))


def test_a_loaded_game_clones_and_determinizes_from_its_position():
    _g, pos = _pos()
    h = from_position(pos, CAT)
    pols = (GreedyPolicy(1), GreedyPolicy(2))
    for _ in range(15):
        if h.is_terminal():
            break
        _greedy_step(h, pols)
    c = h.clone()
    assert c.state_text() == h.state_text() and option_texts(c) == option_texts(h)
    p = h.pending.player
    d = h.view(p).determinize(random.Random(3))
    assert [d.cdef[i].code for i in d.hand[p]] == [h.cdef[i].code for i in h.hand[p]]
    assert d.round_no == h.round_no and d.legal_actions() == h.legal_actions()


def test_the_judge_consumes_an_action_naming_a_single_option_decision():
    """CONTRACTS §6: a decision with one option is taken by itself, and an action naming that very option is
    consumed there (not carried on to the next decision)."""
    from .helpers import card, catalogue, position, side
    u7, u4 = card("u7", power=7), card("u4", power=4)
    pos = position(side(["u7"]), side(["u4"]))
    cat = catalogue(u7, u4)
    g = from_position(pos, cat)
    apply_text(g, "struggle combat")
    assert option_texts(g) == ["attack u7"]            # one unit can attack: a single-option decision
    named = judge(pos, cat, ["struggle combat", "attack u7", "defend u4"], until="struggle")
    alone = judge(pos, cat, ["struggle combat", "defend u4"], until="struggle")
    for r in (named, alone):
        assert any("S.8 Combat: 7 vs 4" in line for line in r["log"]), r["log"]
    assert any("the only option: taken by itself" in line for line in alone["log"])
    assert not any("attack u7 (the only option" in line for line in named["log"])


def test_a_position_keeps_the_lasting_effects_still_running():
    """§8.9: +2 Power and a keyword until the end of the round, and control until then (§3.2), are written on the
    card's entry and loaded again; they expire when the round ends, as in the game they came from."""
    from simulator.engines.r1.cards import KW_RAVAGE

    from .helpers import card, catalogue, position, side
    knight = card("lasting-knight", power=2)
    pos = position(side(field=[{"card": "lasting-knight", "id": "k",
                                "lasting": [{"power": 2, "until": "round"},
                                            {"keyword": "Ravage (1)", "until": "round"}]},
                               {"card": "lasting-knight", "id": "k2", "owner": 1,
                                "lasting": [{"returns_to": 1, "until": "round"}]}]),
                   phase="kingdom")
    cat = catalogue(knight)
    g = from_position(pos, cat, advance=False)
    k = next(i for i, lab in g.labels.items() if lab == "k")
    assert g.power(k) == 4 and g.kw_param(k, KW_RAVAGE) == 1
    out = to_position(g)
    assert out["players"][0]["field"][0]["lasting"] == [{"power": 2, "until": "round"},
                                                         {"keyword": "Ravage (1)", "until": "round"}]
    assert out["players"][0]["field"][1]["lasting"] == [{"returns_to": 1, "until": "round"}]
    assert from_position(out, cat, advance=False).power(k) == 4
    # the round ends: the effects expire and the borrowed Knight goes back to player 1
    g._expire("round")
    k2 = next(i for i, lab in g.labels.items() if lab == "k2")
    assert g.power(k) == 2 and g.ctrl[k2] == 1 and "lasting" not in to_position(g)["players"][0]["field"][0]
    for bad in ([{"power": "x", "until": "round"}], [{"power": 1}], [{"power": 1, "until": "turn"}],
                [{"keyword": "Flying", "until": "round"}], {"power": 1}):
        with pytest.raises(PositionError, match="player 0, field: lasting-knight lasting"):
            from_position(position(side(field=[{"card": "lasting-knight", "lasting": bad}])), cat)


def test_a_unique_attachments_duplicates_are_written_and_loaded():
    """§3.7: a unique attachment's duplicates lie under it; its entry holds their count as a field card's does (a
    position without the key loads as before), and a non-unique attachment cannot have any."""
    from .helpers import card, catalogue, position, side
    crown = card("dup-crown", "attachment", name="Crown", unique=True)
    band = card("dup-band", "attachment", name="Band")
    host = card("dup-host", power=2)
    cat = catalogue(crown, band, host)
    pos = position(side([{"card": "dup-host", "attachments": [{"card": "dup-crown", "duplicates": 2}]}]),
                   phase="kingdom")
    g = from_position(pos, cat, advance=False)
    a = next(i for i in g.field[0] if g.cdef[i].code == "dup-crown")
    assert len(g.dups[a]) == 2 and all(g.cdef[d].code == "dup-crown" and g.owner[d] == 0 for d in g.dups[a])
    out = to_position(g)
    assert out["players"][0]["field"][0]["attachments"] == [{"card": "dup-crown", "duplicates": 2}]
    assert to_position(from_position(out, cat, advance=False)) == out
    plain = position(side([{"card": "dup-host", "attachments": [{"card": "dup-crown"}]}]), phase="kingdom")
    assert "duplicates" not in to_position(from_position(plain, cat, advance=False))["players"][0]["field"][0][
        "attachments"][0]
    with pytest.raises(PositionError, match="dup-band .* is not unique and cannot have duplicates"):
        from_position(position(side([{"card": "dup-host", "attachments": [{"card": "dup-band", "duplicates": 1}]}])),
                      cat)


def test_the_protocols_position_is_printed_only_where_loading_gives_the_same_state():
    """Game.to_position() (the engine protocol's) prints at a turn's window where the first player has priority and
    nobody passed; inside the window after the first player acted it raises ValueError, where
    positions.to_position still writes the turn's start."""
    from .helpers import card, catalogue, load, position, settle, side
    knight = card("pos-knight")
    cat = catalogue(knight)
    g = settle(load(position(side(hand=["pos-knight", "pos-knight"], pool=9), side(), phase="kingdom"), [knight]))
    assert g.pending.kind == "window" and g.pending.player == 0
    printed = g.to_position()
    again = from_position(json.loads(json.dumps(printed)), cat)
    assert again.to_position() == printed and option_texts(again) == option_texts(g)
    g.apply_action("play pos-knight")
    assert g.pending.kind == "window" and g.pending.player == 0   # player 1 had nothing to do: it passed
    with pytest.raises(ValueError, match="inside a phase"):
        g.to_position()
    assert to_position(g)["phase"] == "kingdom"
    h = from_position(printed, cat, advance=False)
    assert h.to_position() == printed   # laid out, not started: the state the position describes
