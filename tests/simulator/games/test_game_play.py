"""The playtest table and the judge sandbox of realms and regions (/<game>/play/, /<game>/play/sandbox/), through
the Django test client: a game started from the form's pickers and played by its buttons, whose options and log
name cards by their names and never show what the AI holds; resumed after the process forgets it; and every
hand-edited address, id, action and position answered 400 or 404 — never 500 — with nothing changed."""
from __future__ import annotations

import html
import json
import random
import re

import pytest
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE
from simulator import playtest
from simulator.models import PlaytestGame

pytestmark = pytest.mark.django_db
CODE = re.compile(r"\b(?:fb|hr|rg|core)-\d{3}\b")
START = {"realms": {"deck_pick": "starter:The Ashen Covenant — the Cinder Choir",
                    "opponent_pick": "starter:The Deepwood Kin — Wardens of the Marches"},
         "regions": {"deck_hero": "hr-010", "opponent_pick": "strategy:region-control"}}


@pytest.fixture
def realms_cards(capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()


def _options(body: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(r'<button type="submit" name="action" value="([^"]*)"[^>]*'
                                                 r'data-action=', body)]


def _labels(body: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(r'data-action="[^"]*">([^<]*)</button>', body)]


def _text(body: str) -> str:
    """What a reader sees: the page's text without its tags, attributes and scripts."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def _start(client, game, **extra) -> str:
    r = client.post(f"/{game}/play/", dict(START[game], player="fast", seat="first", **extra))
    assert r.status_code == 302, _text(r.content.decode())[:2000]
    return r["Location"]


def _hidden_of_ai(rec, t) -> tuple[set[str], set[str]]:
    """Names and codes of the cards only the AI knows of (in its hand, pocket or deck), none of which the person
    has, sees on the board or could buy."""
    g = t.g
    if rec.game == "realms":
        from simulator.engines.realms.state import Z_ASIDE, Z_DECK, Z_HAND
        mine = {c["name"] for c, _n in rec.deck["entries"]}
        secret = [i for z in (Z_HAND, Z_DECK, Z_ASIDE) for i in g.z[1][z]]
        # every other card of the game is in a public zone, or one the log revealed ("searches … (revealed)")
        public = {g.cdef[i].name for i in range(len(g.cdef)) if g.owner[i] == 1 and i not in set(secret)}
        public |= {m.group(1) for x in g.logs or [] for m in [re.search(r"for (.+?) \(revealed\)", x)] if m}
        cards = [(g.cdef[i].name, g.cdef[i].code) for i in secret]
    else:
        # a regions card goes round (placed, discarded, shuffled back, drawn): its name is no secret; what is
        # secret is which cards the AI's Hand and Pocket hold now, which the log tells as a count (checked above)
        # and the page never lists (no hand section of the AI's)
        mine, public, cards = set(), set(), []
    hidden = {(n, c) for n, c in cards if n not in mine and n not in public}
    return {n for n, _ in hidden}, {c for _, c in hidden}


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_a_game_is_played_by_its_buttons_in_words_and_never_shows_the_ais_hand(client, game, realms_cards):
    form = client.get(f"/{game}/play/")
    assert form.status_code == 200
    url = _start(client, game)
    rec = PlaytestGame.objects.get()
    assert rec.game == game and url == f"/{game}/play/{rec.token}/"
    rng = random.Random(3)
    played = 0
    for _ in range(40):
        r = client.get(url)
        assert r.status_code == 200
        body = r.content.decode()
        for sel in ('id="pt-field-0"', 'id="pt-field-1"', 'id="pt-track"', 'id="decision"', 'id="play-log"'):
            assert sel in body, sel
        seen = _text(body)
        assert not CODE.findall(seen), CODE.findall(seen)[:5]   # names, never codes
        assert "p0" not in seen.split() and "player 0" not in seen and "Player 1" not in seen
        t = playtest.hosted_game_for(playtest.kit_for(game), PlaytestGame.objects.get())
        hidden_names, hidden_codes = _hidden_of_ai(rec, t)
        log = seen.split("What happened", 1)[1]
        assert not re.search(r"AI \([^)]*\)\s+draws \d+ \(", log)   # the AI's draws are counts
        # what the AI moves between its Hand and its face-down Pocket is "a card"
        assert not re.search(r"AI \([^)]*\)\s+(moves|takes) (?!a card )[^§]*?(Hand to the Pocket|Pocket into)", log)
        assert 'id="hand-1"' not in body and t.kit.board(t.g, ("a", "b"))["players"][1]["hand_cards"] is None
        leaked = [n for n in hidden_names if re.search(rf"\b{re.escape(n)}\b", log)]
        assert not leaked, [(n, log[max(0, log.find(n) - 100):log.find(n) + 60]) for n in leaked]
        assert not [c for c in hidden_codes if f"/cards/{c}.png" in body]
        opts = _options(body)
        if not opts:
            break
        labels = _labels(body)
        assert len(labels) == len(opts) and all(label and not CODE.search(label) for label in labels)
        choice = rng.choice(opts)
        r = client.post(url + "act/", {"action": choice})
        assert r.status_code == 302
        played += 1
    assert played >= 10
    rec = PlaytestGame.objects.get()
    assert len(rec.history) > played and rec.frames.count() == played + 1


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_a_game_resumes_from_its_saved_history(client, game, realms_cards):
    url = _start(client, game)
    for _ in range(5):
        opts = _options(client.get(url).content.decode())
        client.post(url + "act/", {"action": opts[-1]})
    before = client.get(url).content.decode()
    playtest._live.clear()   # another process, or a restart: the game is rebuilt from its seed and history
    after = client.get(url).content.decode()
    assert _options(before) == _options(after)
    board = re.compile(r'<div class="pt-board".*?</aside>', re.S)
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
    assert token.sub("", board.search(before).group(0)) == token.sub("", board.search(after).group(0))


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_an_option_that_is_not_one_is_a_400_and_changes_nothing(client, game, realms_cards):
    url = _start(client, game)
    rec = PlaytestGame.objects.get()
    history = list(rec.history)
    for bad in ("", "pass pass pass", "x" * 600, "build fb-999", "<script>", "leader fb-001", "done done"):
        r = client.post(url + "act/", {"action": bad})
        assert r.status_code == 400, bad
        assert 'id="act-error"' in r.content.decode()
    assert PlaytestGame.objects.get().history == history
    assert client.get(url + "act/").status_code == 405


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_hand_edited_addresses_are_404s(client, game, realms_cards):
    url = _start(client, game)
    token = url.rstrip("/").rsplit("/", 1)[1]
    other = "regions" if game == "realms" else "realms"
    assert client.get(f"/{other}/play/{token}/").status_code == 404       # a game of another game
    assert client.get(f"/play/{token}/").status_code == 404                 # r1's table holds r1 games only
    assert client.post(f"/play/{token}/act/", {"action": "keep"}).status_code == 404
    assert client.get(f"/{game}/play/nope/").status_code == 404
    assert client.get(f"/{game}/play/{'x' * 300}/").status_code == 404
    assert Client().get(url).status_code == 404                             # someone else's game
    assert client.get("/nogame/play/").status_code == 404


@pytest.mark.parametrize("game,field,value", [
    ("realms", "deck_pick", "starter:no such deck"), ("realms", "deck_pick", "deck:abc"),
    ("realms", "opponent_pick", "decklist:999999"), ("realms", "deck_text", "3x No Such Card"),
    ("realms", "player", "godlike"), ("realms", "seat", "middle"),
    ("regions", "deck_hero", "hr-999"), ("regions", "opponent_pick", "strategy:nope"),
    ("regions", "opponent_text", "hero: Nobody\nbuy: everything"), ("regions", "player", ""),
])
def test_a_bad_set_up_is_a_400_that_starts_nothing(client, game, field, value, realms_cards):
    data = dict(START[game], player="fast", seat="first")
    data[field] = value
    if field == "player" and not value:
        data[field] = "0"
    r = client.post(f"/{game}/play/", data)
    assert r.status_code == 400
    assert "field-error" in r.content.decode()
    assert not PlaytestGame.objects.exists()


def test_my_decks_and_published_decklists_are_on_the_form(realms_cards, django_user_model):
    from decks.game_services import game_decklist_publish

    from .test_game_web import _realms_deck
    from .test_simulate_form import DEEPWOOD, SUNWARD
    ada = django_user_model.objects.create_user("ada", password="pw-ada-12345")
    mine = _realms_deck(ada, "Dawn riders", SUNWARD)
    published = game_decklist_publish(deck=_realms_deck(ada, "Wardens", DEEPWOOD, private=False),
                                      title="Marches of the Deepwood")
    c = Client()
    c.force_login(ada)
    body = c.get("/realms/play/").content.decode()
    assert f'value="deck:{mine.pk}"' in body and f'value="decklist:{published.pk}"' in body
    r = c.post("/realms/play/", {"deck_pick": f"deck:{mine.pk}", "opponent_pick": f"decklist:{published.pk}",
                                 "player": "fast", "seat": "second"})
    assert r.status_code == 302
    rec = PlaytestGame.objects.get()
    assert (rec.deck_name, rec.opponent_name, rec.user) == ("Dawn riders", "Marches of the Deepwood", ada)
    assert "Dawn riders vs Marches of the Deepwood" in _text(c.get("/realms/play/").content.decode())


# ---------------------------------------------------------------- the judge sandbox
@pytest.mark.parametrize("game", ["realms", "regions"])
def test_the_sandbox_loads_steps_undoes_and_exports_in_words(client, game, realms_cards):
    r = client.get(f"/{game}/play/sandbox/")
    assert r.status_code == 200
    body = r.content.decode()
    seen = _text(body.split('id="sb-load"')[0])
    assert not CODE.findall(seen) and "Player 0" not in seen and "player 1" not in seen
    start = html.unescape(re.search(r'name="start" value="([^"]*)"', body).group(1))
    opts = _options(body)
    assert opts and all(not CODE.search(label) for label in _labels(body))
    r = client.post(f"/{game}/play/sandbox/", {"op": "step", "start": start, "actions": "[]", "action": opts[0]})
    assert r.status_code == 200
    actions = json.loads(html.unescape(re.search(r'name="actions" value="([^"]*)"', r.content.decode()).group(1)))
    assert actions == [opts[0]]
    r = client.post(f"/{game}/play/sandbox/", {"op": "undo", "start": start, "actions": json.dumps(actions)})
    assert r.status_code == 200 and _options(r.content.decode()) == opts
    r = client.post(f"/{game}/play/sandbox/", {"op": "export", "start": start, "actions": json.dumps(actions)})
    assert r.status_code == 200 and r["Content-Type"] == "application/json"
    exported = json.loads(r.content)
    assert exported["actions"] == actions
    r = client.post(f"/{game}/play/sandbox/", {"op": "load", "position": json.dumps(exported)})
    assert r.status_code == 200   # the export loads again, its actions applied


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_a_bad_position_or_action_in_the_sandbox_is_a_400(client, game, realms_cards):
    body = client.get(f"/{game}/play/sandbox/").content.decode()
    start = html.unescape(re.search(r'name="start" value="([^"]*)"', body).group(1))
    position = json.loads(start)
    bad_positions = ["", "{", "[]", "null", '"text"', json.dumps({"game": "other"}), json.dumps({"players": 3}),
                     json.dumps(dict(position, players=[{"hand": ["zz-000"]}, {}])),
                     json.dumps(dict(position, players="none")), json.dumps(dict(position, actions="keep")),
                     json.dumps(dict(position, actions=["no such action"])), "x" * 1_100_000]
    for text in bad_positions:
        r = client.post(f"/{game}/play/sandbox/", {"op": "load", "position": text})
        assert r.status_code == 400, text[:80]
        assert "field-error" in r.content.decode()
    for form in ({"op": "step", "start": start, "actions": "[]", "action": "not an option"},
                 {"op": "step", "start": start, "actions": "{}", "action": "done"},
                 {"op": "step", "start": start, "actions": json.dumps(["x"] * 3000), "action": "done"},
                 {"op": "step", "start": "{", "actions": "[]", "action": "done"},
                 {"op": "explode", "start": start, "actions": "[]"},
                 {"op": "undo", "start": start, "actions": json.dumps(["nonsense", "more"])}):
        r = client.post(f"/{game}/play/sandbox/", form)
        assert r.status_code == 400, form
    r = client.post(f"/{game}/play/sandbox/", {"op": "step", "start": start, "actions": "[]", "action": "nope"})
    body = r.content.decode()
    assert "is not an option" in body and _options(body)   # the board before the refused step, its options
    assert json.loads(html.unescape(re.search(r'name="actions" value="([^"]*)"', body).group(1))) == []


def test_the_first_players_choice_reads_as_words():
    names = ("You", "AI (Winter)")
    assert playtest.first_player_words("You choose You as first player", names) == "You go first"
    assert playtest.first_player_words("AI (Winter) chooses You as first player", names) == \
        "AI (Winter) lets you go first"
    assert playtest.first_player_words("You choose AI (Winter) as first player", names) == \
        "You let AI (Winter) go first"
    assert playtest.first_player_words("AI (Winter) chooses AI (Winter) as first player", names) == \
        "AI (Winter) goes first"


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_a_saved_game_whose_history_no_longer_plays_is_a_409_not_a_500(client, game, realms_cards):
    url = _start(client, game)
    rec = PlaytestGame.objects.get()
    rec.history = list(rec.history) + ["an action of an older engine"]
    rec.save()
    playtest._live.clear()
    r = client.get(url)
    assert r.status_code == 409 and "cannot be resumed" in r.content.decode()
    assert client.post(url + "act/", {"action": "done"}).status_code == 409


def test_the_regions_log_keeps_the_ais_hand_and_pocket_secret():
    from simulator.games import regions_play as kit
    lines = ["T1 Hero p1 draws 4 (Sentry, Warden's Mark, Thorne Outrider, Ridge Spear)",
             "T1 Hero p1 003 §4.1: moves Harbour Coin from the Hand to the Pocket",
             "T1 Purchase p1 takes Silver from the Pocket into the Hand"]
    seen = [kit.line(kit.visible_line(x, 0), ("You", "AI (Region Control)"))["text"] for x in lines]
    assert seen == ["draws 4", "moves a card from the Hand to the Pocket", "takes a card from the Pocket into the Hand"]
    mine = [kit.line(kit.visible_line(x.replace("p1", "p0"), 0), ("You", "AI"))["text"] for x in lines]
    assert mine == ["draw 4 (Sentry, Warden's Mark, Thorne Outrider, Ridge Spear)",
                    "move Harbour Coin from the Hand to the Pocket", "take Silver from the Pocket into the Hand"]


def test_the_realms_cell_choice_is_offered_on_the_grid(client, realms_cards):
    """Where a new Place may go is a "+" on the Settlement's grid, one per option, each sending that option."""
    url = _start(client, "realms")
    for _ in range(30):
        body = client.get(url).content.decode()
        opts = _options(body)
        cells = [o for o in opts if o.startswith("at ")]
        if cells:
            offered = [html.unescape(v) for v in re.findall(r'class="pt-cell-choice" data-card-action="([^"]*)"',
                                                             body)]
            assert sorted(offered) == sorted(cells)
            r = client.post(url + "act/", {"action": offered[0]})
            assert r.status_code == 302
            return
        builds = [o for o in opts if o.startswith("build ")]
        client.post(url + "act/", {"action": (builds or opts)[0]})
    pytest.fail("no Place was built in 30 decisions")
