"""The replay of a realms or regions table game (/<game>/play/TOKEN/replay/?step=S), through the Django test client:
a game played by its buttons is played again a step per decision (both players'), on the board of the game's run
replays, its last step the table's board now; the log reads as the table told it (names, never codes; the AI's
draws a count) and only the person's choices are named; a finished game's table links it; hand-edited addresses
(another game's token, someone else's game, a step out of range or not a number) are 404 or 400, never 500."""
from __future__ import annotations

import html
import random
import re

import pytest
from django.core.cache import cache
from django.test import Client

from simulator import playtest, views_play
from simulator.models import PlaytestGame
from tests.simulator.games.test_game_play import CODE, _labels, _options, _start, _text, realms_cards  # noqa: F401

pytestmark = pytest.mark.django_db
GAMES = ["realms", "regions"]


def _play(client, url: str, decisions: int, seed: int = 1) -> list[str]:
    """Click `decisions` random options (fewer if the game ends); the labels of the buttons clicked."""
    rng = random.Random(seed)
    clicked = []
    for _ in range(decisions):
        body = client.get(url).content.decode()
        opts = _options(body)
        if not opts:
            break
        k = rng.randrange(len(opts))
        clicked.append(_labels(body)[k])
        assert client.post(url + "act/", {"action": opts[k]}).status_code == 302
    return clicked


def _steps(body: str) -> int:
    return int(re.search(r'id="step-no">step \d+ / (\d+)<', body).group(1))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_in_progress_replays_to_where_it_stands(client, game, realms_cards):
    url = _start(client, game)
    kit = playtest.kit_for(game)
    clicked = _play(client, url, 8)
    for seed in range(2, 60):   # on until the AI has decided too (a game's seed is random)
        if any(f["actor"] == 1 for f in views_play._hosted_replay(kit, PlaytestGame.objects.get())["frames"]):
            break
        clicked += _play(client, url, 1, seed)
    rec = PlaytestGame.objects.get()
    t = playtest.hosted_game_for(kit, rec)
    r = client.get(url + "replay/")
    assert r.status_code == 200
    body = r.content.decode()
    n = _steps(body)
    assert n == len(rec.history) + 1                          # a step per decision, both players', and now
    assert f'href="{url}"' in body and 'id="replay-nav"' in body
    data = views_play._hosted_replay(kit, rec)
    assert data["frames"][-1]["board"] == kit.replay_board(t.g)   # the same game, to where the table stands
    assert [x for f in data["frames"] for x in f["lines"]] == list(t.g.logs)   # every line, once, in order
    choices, ai_steps = [], 0
    for step in range(n):
        page = client.get(f"{url}replay/?step={step}").content.decode()
        seen = _text(page)
        assert f"step {step + 1} / {n}" in seen
        assert not CODE.findall(seen), CODE.findall(seen)[:5]     # names, never codes
        log = seen.split("since the step before", 1)[1] if game == "regions" else seen
        assert not re.search(r"AI \([^)]*\)\s+draws \d+ \(", log)   # the AI's draws are counts
        got = re.search(r'id="step-choice">Next, you choose: <strong>([^<]*)</strong>', page)
        if data["frames"][step]["actor"] == 1:
            ai_steps += 1
            assert got is None and "chooses" not in _text(page.split('id="step-decision"', 1)[-1][:400])
        elif got:
            choices.append(html.unescape(got.group(1)))
    it = iter(choices)   # the labels clicked at the table, in order, among the person's choices
    assert all(any(c == label for c in it) for label in clicked), (clicked, choices)
    assert ai_steps > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_links_its_replay_from_the_table(client, game, realms_cards):
    url = _start(client, game)
    _play(client, url, 500)
    body = client.get(url).content.decode()
    assert 'id="game-over"' in body
    assert f'<a href="{url}replay/" id="game-replay">Replay this game</a>' in body
    rec = PlaytestGame.objects.get()
    last = client.get(f"{url}replay/?step={len(rec.history)}")
    assert last.status_code == 200
    outcome = _text(re.search(r'id="play-outcome">(.*?)</span>', last.content.decode(), re.S).group(1)).strip()
    assert outcome.startswith({0: "You won", 1: "AI ("}.get(rec.winner, "No winner")), outcome


@pytest.mark.parametrize("game", GAMES)
def test_hand_edited_replay_addresses_are_404_or_400(client, game, realms_cards):
    url = _start(client, game)
    _play(client, url, 2)
    token = url.rstrip("/").rsplit("/", 1)[1]
    other = "regions" if game == "realms" else "realms"
    n = len(PlaytestGame.objects.get().history) + 1
    assert client.get(f"/{other}/play/{token}/replay/").status_code == 404   # a game of another game
    assert client.get(f"/play/{token}/replay/").status_code == 404            # r1's replay holds r1 games only
    assert client.get(f"/{game}/play/nope/replay/").status_code == 404
    assert Client().get(url + "replay/").status_code == 404                   # someone else's game
    for bad in ("-1", str(n), "99999999", "abc", "1.5", "1e3", "0x1", " 1"):
        r = client.get(url + "replay/", {"step": bad})
        assert r.status_code == 400, bad
        assert f"this game's steps are 0 to {n - 1}" in _text(r.content.decode())
    assert client.get(url + "replay/?step=").status_code == 200               # no step: the first
    assert client.get(f"{url}replay/?step={n - 1}").status_code == 200


@pytest.mark.parametrize("game", GAMES)
def test_a_game_whose_history_no_longer_plays_is_a_409_not_a_500(client, game, realms_cards):
    url = _start(client, game)
    rec = PlaytestGame.objects.get()
    rec.history = list(rec.history) + ["an action of an older engine"]
    rec.save()
    cache.clear()
    r = client.get(url + "replay/")
    assert r.status_code == 409 and "cannot be replayed" in r.content.decode()
