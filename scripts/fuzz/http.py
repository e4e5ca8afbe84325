"""Fuzz targets for the HTTP input surfaces: hostile or careless bodies, fields, query strings and paths sent to
every endpoint that reads them, through Django's test client (the whole middleware stack, as a browser or script
would meet it).

One target per kind of input (`http-nested`, `http-surrogate`, `http-nul`, `http-number`, `http-body`); each case
is (slot, payload): a slot is one place of one endpoint a value goes (a JSON body's field, a form field, a query
parameter, a path segment), the payload a JSON fragment (for JSON bodies) and its plain text (forms, queries).
Every case asserts:

- the status is below 500;
- where JSON is due (an /api/ address), the answer is JSON, and a refusal carries a `detail`;
- a refused request (4xx) changed no table's row count (the session table aside: a visitor's session is not
  something the request stored).

Needs a database with the core cards (tests: the `db` fixture; `scripts/fuzz/run.py` makes a test database).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
DECK = (ROOT / "cards" / "data" / "starters" / "camelot.txt").read_text(encoding="utf-8")
REALMS_DECK = sorted((ROOT / "cards" / "games" / "realms" / "data" / "starters").glob("*.txt"))[0].read_text(
    encoding="utf-8")
REALMS_SET = ROOT / "cards" / "games" / "realms" / "data" / "realms.json"
REALMS_CODE = json.loads(REALMS_SET.read_text(encoding="utf-8"))["cards"][0]["code"]
USERNAME = "fuzz-user"


@dataclass(frozen=True)
class Slot:
    """`where` holds "@" for the payload: a JSON body template (kind "json"), a dict of form fields ("form",
    "multipart": "@" in a value; "file" uploads the payload as a file), a query string or a path."""

    name: str
    method: str
    path: str
    kind: str                 # json | form | file | query | path
    where: object = None
    login: bool = False
    json_due: bool = field(default=False)


SLOTS: tuple[Slot, ...] = (
    # the decks API (DRF)
    Slot("validate.text", "POST", "/api/decks/validate/", "json", '{"text": @}', json_due=True),
    Slot("validate.body", "POST", "/api/decks/validate/", "json", "@", json_due=True),
    Slot("doctor.text", "POST", "/api/decks/doctor/", "json", '{"text": @}', json_due=True),
    Slot("decks.name", "POST", "/api/decks/", "json", '{"name": @, "text": "1x core-004"}', True, True),
    Slot("decks.cards", "POST", "/api/decks/", "json", '{"name": "x", "cards": {"core-004": @}}', True, True),
    Slot("decks.card_key", "POST", "/api/decks/", "json", '{"name": "x", "cards": {@: 1}}', True, True),
    Slot("decks.tags", "POST", "/api/decks/", "json", '{"name": "x", "text": "1x core-004", "tags": [@]}',
         True, True),
    Slot("archive.body", "POST", "/api/decks/archive/", "json", '{"format": "roc-account", "decks": [@]}',
         True, True),
    Slot("collection.sets", "POST", "/api/collection/sets/", "json", '{"set": @}', True, True),
    # simulations and tuning (DRF)
    Slot("sim.seed", "POST", "/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(DECK) + ', "seed": @}', json_due=True),
    Slot("sim.games", "POST", "/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(DECK) + ', "games": @}', json_due=True),
    Slot("sim.settings", "POST", "/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(DECK) + ', "settings": {"mulligan": @}}', json_due=True),
    Slot("sim.settings_key", "POST", "/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(DECK) + ', "settings": {@: 1}}', json_due=True),
    Slot("sim.policy", "POST", "/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(DECK) + ', "policy": @}', json_due=True),
    Slot("tuning.decks", "POST", "/api/tuning/", "json", '{"kind": "compare", "decks": [@, "1x core-004"]}',
         json_due=True),
    Slot("tuning.seed", "POST", "/api/tuning/", "json",
         '{"kind": "compare", "decks": ["1x core-004", "1x core-005"], "seed": @}', json_due=True),
    Slot("tuning.name", "POST", "/api/tuning/", "json",
         '{"kind": "compare", "decks": [{"name": @, "text": "1x core-004"}, "1x core-005"]}', json_due=True),
    # the hosted games' APIs (plain Django views)
    Slot("realms.sim.text", "POST", "/realms/api/simulations/", "json", '{"mode": "goldfish", "text": @}',
         json_due=True),
    Slot("realms.simulate.name", "POST", "/realms/simulate/", "form", {"mode": "goldfish", "text": REALMS_DECK,
                                                                       "name": "@"}),
    Slot("realms.sim.seed", "POST", "/realms/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(REALMS_DECK) + ', "seed": @}', json_due=True),
    Slot("realms.sim.name", "POST", "/realms/api/simulations/", "json",
         '{"mode": "goldfish", "text": ' + json.dumps(REALMS_DECK) + ', "name": @}', json_due=True),
    Slot("regions.sim.strategy", "POST", "/regions/api/simulations/", "json",
         '{"mode": "versus", "strategy": @, "opponent_strategy": "big-money"}', json_due=True),
    Slot("regions.sim.seed", "POST", "/regions/api/simulations/", "json",
         '{"mode": "versus", "strategy": "big-money", "opponent_strategy": "big-money", "seed": @}', json_due=True),
    Slot("realms.validate", "POST", "/realms/api/decks/validate/", "json", '{"text": @}', json_due=True),
    Slot("realms.hands.k", "POST", "/realms/api/hands/", "json",
         '{"text": ' + json.dumps(REALMS_DECK) + ', "groups": [{"query": "t:place", "k": @}]}', json_due=True),
    # pages with forms
    Slot("sandbox.position", "POST", "/play/sandbox/", "form", {"op": "load", "position": "@"}),
    Slot("sandbox.upload", "POST", "/play/sandbox/", "file", {"op": "load", "upload": "@"}),
    Slot("sandbox.start", "POST", "/play/sandbox/", "form", {"op": "step", "start": "@", "actions": "[]"}),
    Slot("sandbox.actions", "POST", "/play/sandbox/", "form",
         {"op": "step", "start": '{"players": [{"faction": "core-001"}, {"faction": "core-096"}]}',
          "actions": "@"}),
    Slot("sandbox.build.hand", "POST", "/play/sandbox/", "form", {"op": "build", "p0_faction": "core-001",
                                                                  "p0_hand": "@"}),
    Slot("sandbox.build.round", "POST", "/play/sandbox/", "form", {"op": "build", "p0_faction": "core-001",
                                                                   "round": "@"}),
    Slot("archive.import", "POST", "/decks/archive/import/", "file", {"file": "@"}, login=True),
    Slot("tune.seed", "POST", "/tune/", "form", {"kind": "compare", "a": DECK, "b": DECK, "seed": "@"}),
    Slot("tune.title", "POST", "/tune/", "form", {"kind": "compare", "a": "# @\n" + DECK, "b": DECK}),
    Slot("realms.simulate.seed", "POST", "/realms/simulate/", "form", {"mode": "goldfish", "text": REALMS_DECK,
                                                                       "seed": "@"}),
    Slot("realms.collection", "POST", "/realms/collection/", "form", {f"own_{REALMS_CODE}": "@"}, login=True),
    # queries and paths
    Slot("cards.path", "GET", "/api/cards/@/", "path", json_due=True),
    Slot("play.path", "GET", "/play/@/", "path"),
    Slot("sim.game", "GET", "/api/simulations/", "query", "game=@", json_due=True),
    Slot("decklists.q", "GET", "/api/decklists/", "query", "q=@", json_due=True),
)


@dataclass(frozen=True)
class Payload:
    fragment: str     # JSON text
    plain: str        # the same as text for a form field, a query or a path
    claimed_length: int | None = None   # a Content-Length header larger than the body


def _nested(depth: int, opener: str) -> Payload:
    text = ("[" * depth + "]" * depth) if opener == "[" else ('{"a":' * depth + "1" + "}" * depth)
    return Payload(text, text)


NESTED = st.builds(_nested, st.sampled_from([33, 100, 1_000, 5_000, 20_000]), st.sampled_from(["[", "{"]))
SURROGATE = st.builds(
    lambda before, cp, after: Payload(json.dumps(before)[:-1] + f"\\u{cp:04x}" + json.dumps(after)[1:],
                                      json.dumps(before)[:-1] + f"\\u{cp:04x}" + json.dumps(after)[1:]),
    st.text(max_size=5), st.integers(0xD800, 0xDFFF), st.text(max_size=5))
NUL = st.builds(lambda before, after: Payload(json.dumps(before + "\x00" + after), before + "\x00" + after),
                st.text(alphabet="abc-019 ", max_size=6), st.text(alphabet="abc-019 ", max_size=6))
NUMBER = st.builds(lambda digits, sign: Payload(sign + "9" * digits, sign + "9" * digits),
                   st.sampled_from([19, 20, 30, 310, 4_301, 5_000]), st.sampled_from(["", "-"]))
BODY = st.one_of(
    st.builds(lambda n: Payload(json.dumps("x" * n), "x" * n), st.sampled_from([20_001, 100_001, 1_000_001])),
    st.builds(lambda n: Payload('"x"', "x", claimed_length=n), st.sampled_from([13 * 2**20, 10**12])),
    st.builds(lambda n: Payload(json.dumps(" core-004" * n), " core-004" * n), st.sampled_from([600, 5_000])),
)

# one payload of each kind, for the normal suite's pass over every slot (tests/reliability/test_fuzz.py)
EXAMPLES = {"http-nested": _nested(5_000, "["), "http-surrogate": Payload('"a\\ud800"', '"a\\ud800"'),
            "http-nul": Payload('"a\\u0000b"', "a\x00b"), "http-number": Payload("9" * 5_000, "9" * 5_000),
            "http-body": Payload('"x"', "x", claimed_length=13 * 2**20)}

SURFACES = {"http-nested": NESTED, "http-surrogate": SURROGATE, "http-nul": NUL, "http-number": NUMBER,
            "http-body": BODY}


def _request(client, slot: Slot, payload: Payload):
    extra = {}
    if payload.claimed_length is not None:
        extra["CONTENT_LENGTH"] = str(payload.claimed_length)
    if slot.kind == "json":
        body = slot.where.replace("@", payload.fragment).encode("utf-8")
        return client.generic(slot.method, slot.path, body, content_type="application/json", **extra)
    if slot.kind == "path":
        from urllib.parse import quote
        return client.get(slot.path.replace("@", quote(payload.plain[:5_000], safe="")), **extra)
    if slot.kind == "query":
        from urllib.parse import quote
        return client.get(slot.path + "?" + slot.where.replace("@", quote(payload.plain, safe="")), **extra)
    data = {k: v.replace("@", payload.plain) for k, v in slot.where.items()}
    if slot.kind == "file":
        from django.core.files.uploadedfile import SimpleUploadedFile
        data = {k: (SimpleUploadedFile("f.json", v.encode("utf-8", "surrogatepass"), "application/json")
                    if "@" in slot.where[k] else v) for k, v in data.items()}
    return client.post(slot.path, data, **extra)


def table_counts() -> dict[str, int]:
    """Rows per table (the session table aside)."""
    from django.db import connection

    out = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(include_views=False):
            if table == "django_session":
                continue
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"')
            out[table] = cursor.fetchone()[0]
    return out


def prepare() -> None:
    """The realms cards beside the core set, so that a realms request is otherwise valid and the payload alone is
    what is wrong with it."""
    from django.core.management import call_command

    from cards.selectors import game_cards

    if not game_cards("realms"):
        call_command("loadcards", str(REALMS_SET), verbosity=0)


def _clients():
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username=USERNAME, defaults={"email": "fuzz@example.com"})
    signed_in = Client()
    signed_in.force_login(user)
    return Client(), signed_in


def check_case(case) -> None:
    from django.core.cache import cache
    from django.db import transaction

    slot, payload = case
    prepare()
    anonymous, signed_in = _clients()
    cache.clear()   # throttles: every case meets the endpoint fresh
    before = table_counts()
    where = f"{slot.name} {slot.method} {slot.path} payload {payload.plain[:60]!r}…"
    try:
        with transaction.atomic():   # a savepoint: on PostgreSQL a failed statement must not poison the next case
            response = _request(signed_in if slot.login else anonymous, slot, payload)
    except Exception as exc:   # the test client re-raises what a server would answer with a 500
        raise AssertionError((where, "raised", repr(exc)[:300])) from exc
    assert response.status_code < 500, (where, response.status_code, response.content[:300])
    if slot.json_due:
        assert response["Content-Type"].startswith("application/json"), (where, response["Content-Type"])
        if response.status_code >= 400:
            assert json.loads(response.content).get("detail"), (where, response.content[:300])
    if response.status_code >= 400:
        after = table_counts()
        changed = {t: (before[t], after.get(t)) for t in before if before[t] != after.get(t)}
        assert not changed, (where, response.status_code, changed)


def case_strategy(surface: str, slots: tuple[Slot, ...] = SLOTS):
    return st.tuples(st.sampled_from(slots), SURFACES[surface])


TARGETS = {name: (case_strategy(name), check_case) for name in SURFACES}
