"""The judge sandbox: a built, pasted or uploaded position stepped with its options, the rules of
each step shown, the export loading again in the judge, and refused positions answered next to the field."""
from __future__ import annotations

import html
import json
import re

import pytest
from django.core.management import call_command

from .engines.r1.helpers import CORE
from tests.simulator.conftest import own

pytestmark = pytest.mark.django_db

BUILD = {"op": "build", "round": "2", "phase": "confrontation", "first": "0", "p0_faction": "core-001",
         "p0_quest": "core-170", "p0_field": "core-135 core-137", "p0_deck": "core-010 core-011 core-012",
         "p0_hand": "core-010", "p1_faction": "core-096", "p1_quest": "core-171", "p1_field": "core-098",
         "p1_deck": "core-100 core-101 core-102"}


@pytest.fixture
def core_db(db):
    call_command("loadcards", str(CORE), verbosity=0)


def _state(body: str) -> dict:
    start = html.unescape(re.search(r'name="start" value="([^"]*)"', body).group(1))
    actions = html.unescape(re.search(r'name="actions" value="([^"]*)"', body).group(1))
    return {"start": start, "actions": actions}


def _options(body: str) -> list[str]:
    return [html.unescape(v) for v in re.findall(r'data-action="([^"]+)"', body)]


def test_build_and_step_a_struggle_with_its_rules(client, core_db):
    r = client.post("/play/sandbox/", BUILD)
    body = r.content.decode()
    assert r.status_code == 200 and _options(body) == ["struggle combat", "struggle faith", "pass"]
    r = client.post("/play/sandbox/", dict(_state(body), op="step", action="struggle combat"))
    body = r.content.decode()
    assert _options(body) == ["defend core-098", "defend none"]
    assert "declares a Combat struggle with Hedge Knight" in body and "§6.2 S.3" in body
    r = client.post("/play/sandbox/", dict(_state(body), op="step", action="defend core-098"))
    body = r.content.decode()
    assert re.search(r"Combat: 2 vs 2, attacker wins, margin 0 <a class=\"rule-ref\" href=\"/rules/#S\.8\"[^>]*>S\.8", body)
    # export: position + actions, which the judge loads and plays to the same point
    exported = client.post("/play/sandbox/", dict(_state(body), op="export"))
    assert exported["Content-Type"] == "application/json"
    data = json.loads(exported.content)
    assert data["actions"] == ["struggle combat", "defend core-098"]
    from decks.pool import CardPool
    from simulator.engines.r1.positions import judge
    out = judge(data, CardPool.from_db())
    assert out["pending"]["options"] == _options(body)
    # undo goes back one action
    r = client.post("/play/sandbox/", dict(_state(body), op="undo"))
    assert _options(r.content.decode()) == ["defend core-098", "defend none"]


def test_a_refused_position_shows_the_loaders_message_next_to_the_field(client, core_db):
    r = client.post("/play/sandbox/", dict(BUILD, p0_hand="nope-1"))
    body = r.content.decode()
    assert r.status_code == 400
    # a built position: the message is next to the builder's field it names, and the builder keeps what was typed
    assert re.search(r'id="p0_hand-error">player 0, hand: unknown card nope-1', body)
    assert re.search(r'<textarea name="p0_hand" id="p0_hand"[^>]*aria-invalid="true"[^>]*>nope-1</textarea>', body)
    assert 'value="core-001"' in body and "<details class=\"panel\" id=\"builder\" open" in body
    r = client.post("/play/sandbox/", dict(BUILD, p1_influence="lots"))
    assert r.status_code == 400 and 'id="p1_influence-error">player 1, influence:' in r.content.decode()
    # a pasted one: next to the position field
    bad = '{"players": [{"faction": "core-001", "hand": ["nope-1"]}, {"faction": null}]}'
    r = client.post("/play/sandbox/", {"op": "load", "position": bad})
    assert re.search(r'id="position-error">player 0, hand: unknown card nope-1', r.content.decode())
    r = client.post("/play/sandbox/", {"op": "load", "position": "{not json"})
    assert r.status_code == 400 and 'id="position-error">not JSON' in r.content.decode()


def test_paste_and_upload_load_the_same_position(client, core_db):
    from django.core.files.uploadedfile import SimpleUploadedFile
    body = client.post("/play/sandbox/", BUILD).content.decode()
    pos = _state(body)["start"]
    pasted = client.post("/play/sandbox/", {"op": "load", "position": pos}).content.decode()
    up = client.post("/play/sandbox/", {"op": "load", "upload": SimpleUploadedFile("p.json", pos.encode())})
    assert _options(pasted) == _options(up.content.decode()) == _options(body)


def test_an_action_that_is_not_an_option_is_named(client, core_db):
    body = client.post("/play/sandbox/", BUILD).content.decode()
    r = client.post("/play/sandbox/", dict(_state(body), op="step", action="struggle banana"))
    text = r.content.decode()
    assert r.status_code == 400 and "is not an option; the options: struggle combat, struggle faith, pass" in text
    assert _options(text) == ["struggle combat", "struggle faith", "pass"]


def test_a_replay_step_opens_in_the_sandbox(client, sim_db, camelot_text, winter_text):
    from simulator import services
    run, _ = services.run_request(mode="versus", text=camelot_text, opponent_text=winter_text, games=2, seed=11,
                                  dispatch=False)
    services.run_execute_here(run)
    own(client, run)
    page = client.get(f"/simulate/runs/{run.pk}/games/0/?step=40").content.decode()
    link = html.unescape(re.search(r'href="([^"]+)" id="open-sandbox"', page).group(1))
    body = client.get(link).content.decode()
    assert _options(body) and 'name="start"' in body


@pytest.mark.parametrize("text", ['[]', '{"players": 3}', '{"players": [{"faction": 5}, {}]}',
                                  '{"round": "x", "players": [{"faction": "core-001"}, {}]}',
                                  '{"players": [{"faction": "core-001", "field": [{"card": "core-135", "attachments": 7}]}, {}]}',
                                  '{"players": [{"faction": "core-001", "hand": [[1]]}, {"faction": null}]}'])
def test_odd_positions_are_refused_with_a_message_never_a_500(client, core_db, text):
    r = client.post("/play/sandbox/", {"op": "load", "position": text})
    assert r.status_code == 400 and 'id="position-error"' in r.content.decode()


def test_odd_builder_and_step_fields_answer_400(client, core_db):
    assert client.post("/play/sandbox/", dict(BUILD, first="7")).status_code == 400
    assert client.post("/play/sandbox/", dict(BUILD, p0_influence="lots")).status_code == 400
    assert client.post("/play/sandbox/", {"op": "step", "start": "{", "actions": "[]"}).status_code == 400
    body = client.post("/play/sandbox/", BUILD).content.decode()
    assert client.post("/play/sandbox/", dict(_state(body), op="step", actions="{}")).status_code == 400


def test_the_sandbox_speaks_in_names_not_codes(client, core_db):
    """The page names cards and sides as a player would: "Attack Hedge Knight"-style buttons, the sides by their
    factions, "1 line", never "use core-008", "Player 0" or "(1 lines)"."""
    r = client.post("/play/sandbox/", BUILD)
    body = r.content.decode()
    labels = [html.unescape(v) for v in re.findall(r'data-action="[^"]*"[^>]*>([^<]*)</button>', body)]
    assert labels == ["Initiate a Combat struggle", "Initiate a Faith struggle", "Pass"]
    r = client.post("/play/sandbox/", dict(_state(body), op="step", action="struggle combat"))
    body = r.content.decode()
    labels = [html.unescape(v) for v in re.findall(r'data-action="[^"]*"[^>]*>([^<]*)</button>', body)]
    assert labels == ["Defend Hound of Annwn", "Defend none"]   # core-098
    # what a reader sees outside the position's own editors (its JSON and the builder, which hold codes)
    page = re.sub(r"<textarea.*?</textarea>", " ", body, flags=re.S)
    page = page.split('<details class="panel" id="builder"')[0] + page.split("</form></details>")[-1]
    shown = html.unescape(re.sub(r"<[^>]+>", " ", page))
    assert not re.findall(r"\bcore-\d{3}\b", shown), re.findall(r"\bcore-\d{3}\b", shown)[:5]
    assert "Player 0" not in shown and "Player 1" not in shown and "player 1" not in shown
    assert not re.search(r"\(1 lines\)", shown)
    decides = re.sub(r"<[^>]+>", "", re.search(r'id="sb-decides">(.*?)</p>', body).group(1))
    assert decides.startswith("The Winter Court decides"), decides   # the defender, by its faction
