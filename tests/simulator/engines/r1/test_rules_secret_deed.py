"""§10.9: a Secret deed (cost "–") is secret-placed in the Kingdom phase and played when revealed."""
import json

from simulator.engines.r1.positions import judge

from .helpers import CORE


def _cat():
    raw = json.loads(CORE.read_text())
    return {c["code"]: c for c in (raw["cards"] if isinstance(raw, dict) else raw)}


CAT = _cat()


def _code(name, type_=None):
    return next(c["code"] for c in CAT.values() if c["name"] == name and (type_ is None or c["type"] == type_))


def _position(**p0):
    lefay = next(c["code"] for c in CAT.values() if c["type"] == "faction" and c["faction"] == "lefay")
    camelot = next(c["code"] for c in CAT.values() if c["type"] == "faction" and c["faction"] == "camelot")
    quests = [c["code"] for c in CAT.values() if c["type"] == "quest"]
    filler = [c["code"] for c in CAT.values() if c["type"] == "unit" and c["faction"] == "neutral"][:1] * 10
    me = {"faction": lefay, "quest": quests[0], "deck": list(filler), "pool": 2}
    me.update(p0)
    return {"game": "r1", "seed": 3, "round": 2, "phase": "kingdom", "first_player": 0, "active_player": 0,
            "players": [me, {"faction": camelot, "quest": quests[1], "deck": list(filler)}]}


def test_10_9_a_secret_deed_in_hand_can_be_secret_placed():
    betrayal = _code("Morgan's Betrayal")
    r = judge(_position(hand=[{"card": betrayal, "id": "mb"}]), CAT, [], until="decision")
    assert "secret mb" in r["pending"]["options"]
    assert not any(o.startswith("play mb") for o in r["pending"]["options"])   # cost "–": never from hand
    r = judge(_position(hand=[{"card": betrayal, "id": "mb"}]), CAT, ["secret mb"], until="decision")
    me = r["position"]["players"][0]
    assert [e if isinstance(e, str) else e["card"] for e in me["secret"]] == [betrayal]
    assert me["pool"] == 0   # §10.9: 2 wealth to place


def test_10_9_a_secret_deed_with_too_little_wealth_is_not_offered():
    betrayal = _code("Morgan's Betrayal")
    r = judge(_position(pool=1, hand=[{"card": betrayal, "id": "mb"}]), CAT, [], until="decision")
    assert not any("mb" in o for o in (r["pending"] or {}).get("options", []))
