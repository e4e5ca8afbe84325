"""The playtest table: a person plays player 0 through action texts against the greedy AI; the game
is saved (decks, seed, history) and resumes from the database alone; hidden cards never reach the page."""
from __future__ import annotations

import random
import re

import pytest

from simulator import playtest

pytestmark = pytest.mark.django_db


def _start(client, camelot_text, winter_text):
    r = client.post("/play/", {"deck_source": "", "deck_text": camelot_text, "opponent_source": "",
                               "opponent_text": winter_text, "policy": "greedy"})
    assert r.status_code == 302, r.content.decode()[:2000]
    return r["Location"]


def _options(body: str) -> list[str]:
    import html
    return [html.unescape(v) for v in re.findall(r'data-action="([^"]+)"', body)]


def test_a_whole_game_through_the_page(client, sim_db, camelot_text, winter_text):
    from simulator.models import PlaytestGame
    url = _start(client, camelot_text, winter_text)
    rng = random.Random(3)
    body = client.get(url).content.decode()
    for _ in range(3000):
        opts = _options(body)
        if not opts:
            break
        rec = PlaytestGame.objects.get()
        g = playtest.game_for(rec)
        # the buttons are exactly the options of the person's pending decision
        from simulator.engines.r1.actions import option_texts
        assert g.pending.player == 0 and opts == option_texts(g)
        # the AI's hand is not on the page (its codes appear only where they are public)
        public = {g.cdef[i].code for p in (0, 1) for z in (g.field[p], g.discard[p], g.dead[p]) for i in z}
        public |= {g.cdef[i].code for i in g.hand[0] + g.secret[0]} | {g.cdef[g.quest[p]].code for p in (0, 1) if g.quest[p] >= 0}
        hidden = {g.cdef[i].code for i in g.hand[1]} - public
        assert not any(f"/cards/{c}.png" in body for c in hidden)
        choice = rng.choice(opts)
        r = client.post(url + "act/", {"action": choice})
        assert r.status_code == 302
        body = client.get(url).content.decode()
    assert 'id="game-over"' in body
    rec = PlaytestGame.objects.get()
    assert rec.finished and rec.frames.count() > 10
    assert client.get(url + "replay/?step=5").status_code == 200


def test_a_game_resumes_from_the_database_alone(client, sim_db, camelot_text, winter_text):
    from simulator.models import PlaytestGame
    url = _start(client, camelot_text, winter_text)
    for _ in range(25):
        opts = _options(client.get(url).content.decode())
        if not opts:   # the game ended (the seed of a new game is random)
            break
        client.post(url + "act/", {"action": opts[-1]})
    rec = PlaytestGame.objects.get()
    live = playtest.game_for(rec)
    playtest._live.clear()   # a new process: nothing in memory
    again = playtest.game_for(rec)
    assert again is not live and again.state_text() == live.state_text()
    from simulator.engines.r1.actions import option_texts
    assert option_texts(again) == option_texts(live)


def test_an_action_that_is_not_an_option_is_refused_and_changes_nothing(client, sim_db, camelot_text, winter_text):
    from simulator.models import PlaytestGame
    url = _start(client, camelot_text, winter_text)
    before = PlaytestGame.objects.get().history
    r = client.post(url + "act/", {"action": "struggle banana"})
    assert r.status_code == 400 and "is not an option" in r.content.decode()
    assert PlaytestGame.objects.get().history == before


def test_someone_elses_game_is_not_found(client, sim_db, camelot_text, winter_text):
    url = _start(client, camelot_text, winter_text)
    from django.test import Client
    assert Client().get(url).status_code == 404


def test_a_bad_decklist_is_named_next_to_its_field(client, sim_db, camelot_text):
    r = client.post("/play/", {"deck_text": "3x No Such Card", "opponent_text": camelot_text, "policy": "greedy"})
    assert r.status_code == 400 and 'id="deck-error"' in r.content.decode()


def test_options_that_name_a_card_are_offered_on_the_card(client, sim_db, camelot_text, winter_text):
    import html
    url = _start(client, camelot_text, winter_text)
    for _ in range(40):
        body = client.get(url).content.decode()
        on_cards = [html.unescape(v) for v in re.findall(r'data-card-action="([^"]+)"', body)]
        opts = _options(body)
        assert set(on_cards) <= set(opts)
        if on_cards:
            assert 'form="act-form"' in body
            r = client.post(url + "act/", {"action": on_cards[0]})
            assert r.status_code == 302
            return
        client.post(url + "act/", {"action": opts[0]})
    pytest.fail("no option named a card in 40 decisions")


def _start_seat(client, camelot_text, winter_text, seat):
    return client.post("/play/", {"deck_source": "", "deck_text": camelot_text, "opponent_source": "",
                                  "opponent_text": winter_text, "policy": "greedy", "seat": seat})


@pytest.mark.parametrize("seat,first", [("first", 0), ("second", 1)])
def test_the_person_chooses_who_goes_first(client, sim_db, camelot_text, winter_text, seat, first):
    from simulator.models import PlaytestGame
    r = _start_seat(client, camelot_text, winter_text, seat)
    assert r.status_code == 302
    rec = PlaytestGame.objects.get()
    assert rec.first_player == first
    g = playtest.game_for(rec)
    # the first player of §4 (setup: mulligans and opening boards in that order); round 1's Quest phase then
    # lets §5.1's Momentum decide, as every round
    assert g.logs[0] == f"R0 §4 setup: player {first} is the first player"
    # the seat survives a rebuild from the database alone (a new process)
    for _ in range(6):
        opts = _options(client.get(r["Location"]).content.decode())
        if not opts:
            break
        client.post(r["Location"] + "act/", {"action": opts[0]})
    rec.refresh_from_db()
    live = playtest.game_for(rec)
    playtest._live.clear()
    again = playtest.game_for(rec)
    assert again.logs[0] == live.logs[0] and again.state_text() == live.state_text()


def test_by_the_rules_the_first_player_is_drawn_and_a_bad_seat_is_refused(client, sim_db, camelot_text, winter_text):
    from simulator.models import PlaytestGame
    r = _start_seat(client, camelot_text, winter_text, "rules")
    assert r.status_code == 302 and PlaytestGame.objects.get().first_player is None
    r = _start_seat(client, camelot_text, winter_text, "banana")
    assert r.status_code == 400 and 'id="seat-error"' in r.content.decode()
    assert PlaytestGame.objects.count() == 1


def test_the_first_player_choice_is_offered_in_words():
    from simulator.playtest import _option_label
    names = ("You", "AI (Winter)")
    assert _option_label("first 0", {}, names) == "You go first"
    assert _option_label("first 1", {}, names) == "AI (Winter) goes first"


def test_what_the_ai_did_is_shown_and_its_hidden_cards_never_are(client, sim_db, camelot_text, winter_text):
    """After each click the table shows the AI's moves since the person's last decision, in words; no line names a
    card the AI holds in hand or deck that the person has not seen."""
    import html
    from simulator.models import PlaytestGame
    r = _start_seat(client, camelot_text, winter_text, "second")
    url = r["Location"]
    rng = random.Random(5)
    saw_ai = False
    for _ in range(400):
        body = client.get(url).content.decode()
        opts = _options(body)
        if not opts:
            break
        rec = PlaytestGame.objects.get()
        g = playtest.game_for(rec)
        happened = body.split('id="happened"')[1].split("</div>")[0] if 'id="happened"' in body else ""
        text = html.unescape(re.sub(r"<[^>]+>", " ", happened))
        saw_ai = saw_ai or "AI (" in text
        assert "player 1" not in text and "player 0" not in text
        seen = {g.cdef[i].name for p in (0, 1) for z in (g.field[p], g.discard[p], g.dead[p]) for i in z}
        seen |= {c["name"] for c, _n in rec.deck["entries"]}
        hidden = {g.cdef[i].name for i in g.hand[1] + g.deck[1] + g.secret[1]} - seen
        assert not any(name in text for name in hidden), [n for n in hidden if n in text]
        assert not any(f"/cards/{g.cdef[i].code}.png" in body for i in g.deck[1] + g.secret[1]
                       if g.cdef[i].name in hidden)
        client.post(url + "act/", {"action": rng.choice(opts)})
    assert saw_ai


def test_an_anonymous_game_follows_its_player_into_their_account(client, sim_db, camelot_text, winter_text,
                                                                  django_user_model):
    from django.test import Client
    from simulator.models import PlaytestGame
    url = _start(client, camelot_text, winter_text)
    user = django_user_model.objects.create_user("ann", password="pw-long-enough-1")
    client.force_login(user)   # the session's data (its games) survive the log-in
    assert client.get(url).status_code == 200
    assert PlaytestGame.objects.get().user == user
    other = Client()   # a new log-in elsewhere: the game is listed and resumes
    other.force_login(user)
    listing = other.get("/play/").content.decode()
    assert url.split("/")[2] in listing
    assert other.get(url).status_code == 200


def _publish(django_user_model, username, text, title):
    from decks.services import deck_import_text, decklist_publish
    # the site's own account (decks.services.STARTER_ACCOUNT) publishes the starter decks; it has no password
    user = django_user_model.objects.create_user(username, password=None if username == "ReignOfKingsDB"
                                                 else "pw-12345-x")
    return decklist_publish(deck=deck_import_text(owner=user, text=text, name=title).deck, title=title)


def test_the_ai_can_play_a_published_decklist_picked_from_the_list(client, sim_db, camelot_text, winter_text,
                                                                     django_user_model):
    from simulator.models import PlaytestGame
    frost = _publish(django_user_model, "ReignOfKingsDB", winter_text, "Winter — Frost and Iron")
    mine = _publish(django_user_model, "queen", camelot_text, "Queen's Camelot")
    # the picker lists published decklists with their faction, starter decks marked, others by their author
    page = client.get("/play/").content.decode()
    assert f'name="opponent_decklist" value="{frost.pk}"' in page and f'value="{mine.pk}"' in page
    row = re.search(rf'data-decklist="{frost.pk}".*?</li>', page, re.S).group(0)
    assert frost.faction.name in row and "starter deck" in row
    row = re.search(rf'data-decklist="{mine.pk}".*?</li>', page, re.S).group(0)
    assert "by queen" in row and "starter deck" not in row
    # searching by name (the htmx list, and the form itself without scripts)
    found = client.get("/play/decklists/", {"decklist_q": "frost"}).content.decode()
    assert f'value="{frost.pk}"' in found and f'value="{mine.pk}"' not in found
    assert "is named like" in client.get("/play/decklists/", {"decklist_q": "zzz"}).content.decode()
    r = client.post("/play/", {"op": "search", "decklist_q": "queen", "deck_source": "starter:camelot"})
    assert r.status_code == 200 and f'value="{mine.pk}"' in r.content.decode()
    assert f'value="{frost.pk}"' not in r.content.decode() and not PlaytestGame.objects.exists()
    # the one picked stays at the top of another search, and a decklist's page preselects it
    kept = client.get("/play/decklists/", {"decklist_q": "queen", "opponent_decklist": frost.pk}).content.decode()
    assert re.search(rf'value="{frost.pk}" checked', kept) and f'value="{mine.pk}"' in kept
    assert re.search(rf'value="{frost.pk}" checked', client.get(f"/play/?opponent_decklist={frost.pk}").content.decode())
    # picked: the AI plays that list (its frozen cards), under its title
    r = client.post("/play/", {"deck_source": "", "deck_text": camelot_text, "opponent_source": "starter:camelot",
                               "opponent_decklist": str(frost.pk), "opponent_text": "", "policy": "greedy"})
    assert r.status_code == 302, r.content.decode()[:2000]
    rec = PlaytestGame.objects.get()
    assert rec.opponent_name == frost.title and rec.opponent["counts"] == frost.cards
    assert "AI (Winter — Frost and Iron)" in client.get(r["Location"]).content.decode()


@pytest.mark.parametrize("bad, message", [("abc", "pick a published decklist from the list"),
                                          ("0", "pick a published decklist from the list"),
                                          ("999999", "no published decklist #999999")])
def test_a_bad_or_unknown_decklist_id_is_the_pickers_error(client, sim_db, camelot_text, bad, message):
    import html
    from simulator.models import PlaytestGame
    r = client.post("/play/", {"deck_source": "", "deck_text": camelot_text, "opponent_source": "starter:camelot",
                               "opponent_decklist": bad, "opponent_text": "", "policy": "greedy"})
    assert r.status_code == 400
    err = re.search(r'id="opponent-error">(.*?)</p>', r.content.decode(), re.S)
    assert err and message in html.unescape(err.group(1))
    assert not PlaytestGame.objects.exists()
    r = client.get("/play/decklists/", {"opponent_decklist": bad})
    assert r.status_code == 400


def test_the_replay_of_a_playtest_game_shows_each_event_with_its_own_board(client, sim_db, camelot_text,
                                                                           winter_text):
    """A playtest replay's events after one decision of the person each show the board right after their own
    line (the game played again from its seed and choices), not all the board at the person's next decision."""
    from simulator import views_play
    from simulator.models import PlaytestGame
    url = _start(client, camelot_text, winter_text)
    rng = random.Random(5)
    for _ in range(3000):
        opts = _options(client.get(url).content.decode())
        if not opts:
            break
        client.post(url + "act/", {"action": rng.choice(opts)})
    rec = PlaytestGame.objects.get()
    assert rec.finished
    logs, boards = playtest.boards_by_line(rec.deck, rec.opponent, rec.seed, rec.history, rec.first_player)
    assert logs == playtest.game_for(rec).logs   # the same game, line for line
    frames = views_play._one_event_each([f.data for f in rec.frames.order_by("number")])
    views_play._board_per_event(rec, frames)
    checked = inside = 0
    for k, f in enumerate(frames[1:], 1):
        raw = f["raw"][0] if f["raw"] else ""
        m = re.search(r"player ([01]) gains (\d+) Influence \((\d+)\)", raw)
        if m and frames[k - 1]["raw"]:
            p, n, total = int(m.group(1)), int(m.group(2)), int(m.group(3))
            assert f["board"]["players"][p]["influence"] == total, raw
            assert frames[k - 1]["board"]["players"][p]["influence"] == total - n, (frames[k - 1]["raw"], raw)
            checked += 1
            inside += not f["last_of_stretch"]   # before: this event showed the board of the stretch's end
    assert checked and inside
    assert client.get(url + "replay/?step=3").status_code == 200
