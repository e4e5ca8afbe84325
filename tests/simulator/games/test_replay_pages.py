"""The realms and regions replays as a new user met them: under r1's address and navigation ("A Reign of Kings"
highlighted), titled "Deck vs Opponent", lines such as "T0 P0 002 §8 keeps its opening hand" and "Next: Opponent
chooses recruit fb-110 strike", a board of text boxes, the same game "game 0" in one link and "game 1" in another,
and a hand-edited address that could answer with another step instead of saying there is none."""
import re

import pytest
from django.core.management import call_command
from django.test import Client

from cards.games.realms import SET_FILE, STARTERS_DIR
from simulator import services
from simulator.engines.regions.sim import shipped_text
from simulator.games import realms_replay, regions_replay
from simulator.games import services as game_services
from tests.simulator.conftest import own

ASHEN = (STARTERS_DIR / "ashen.txt").read_text()
SUNWARD = (STARTERS_DIR / "sunward.txt").read_text()
CODE = re.compile(r"\b(?:fb|core|hr|rg)-\d{3}\b")
ENGINE_SPEAK = re.compile(r"\bT\d+ P\d\b|\b00[23] §|\bp[01]\b")


def _text(html: str) -> str:
    """The words a reader sees: the page's <main> without tags, addresses or scripts."""
    main = re.search(r"<main.*?</main>", html, re.S).group(0)
    main = re.sub(r"<script.*?</script>|<svg.*?</svg>", "", main, flags=re.S)
    return re.sub(r"<[^>]+>", " ", main)


# ---- words --------------------------------------------------------------------------------------------------
NAMES = ["The Ashen Covenant", "Knights of the Dawn"]
CARDS = {"fb-084": "Old Bear of the Wood", "fb-098": "Morvane the Hollow", "fb-110": "Lone Wolf"}


@pytest.mark.parametrize("line, text, rule", [
    ("T0 P0 002 §8 keeps its opening hand", "The Ashen Covenant keeps its opening hand", "§8"),
    ("T2 P1 002 §9 turn 1 begins (VP 0-0, Reserve 5)", "Knights of the Dawn's turn 1 begins (VP 0-0, Reserve 5)",
     "§9"),
    ("T3 P0 002 §12 Resource Balancing done: Reserve 0 -> 2", "The Ashen Covenant: Resource Balancing done: "
     "Reserve 0 → 2", "§12"),
    ("T45 P1 002 §15 Elder Grove is cut off from the Supply Line",
     "Knights of the Dawn's Elder Grove is cut off from the Supply Line", "§15"),
    ("T1 P0 R13 the first player's first turn has no Attack and no Raid",
     "The first player's first turn has no Attack and no Raid", ""),
    ("T0 P0 002 §8 goes first (R13: skips the Attack and Raid steps of its first turn)",
     "The Ashen Covenant goes first (skips the Attack and Raid steps of its first turn)", "§8"),
])
def test_realms_log_lines_read_as_sentences(line, text, rule):
    got = realms_replay.event(line, NAMES, CARDS)
    assert got["text"] == text and got["rule"] == rule
    assert not ENGINE_SPEAK.search(got["text"]) and not CODE.search(got["text"])


@pytest.mark.parametrize("action, words", [
    ("recruit fb-110 strike", "recruits Lone Wolf into the Strike Force"),
    ("recruit fb-084#2 borderlands", "recruits Old Bear of the Wood into the Borderlands"),
    ("leader fb-098", "chooses Morvane the Hollow as Leader"),
    ("attack fb-110+fb-084 fb-098 right", "attacks Morvane the Hollow with Lone Wolf + Old Bear of the Wood on the "
     "right flank"),
    ("raid fb-098 front fb-110", "raids Morvane the Hollow on the front with Lone Wolf"),
    ("play fb-110 on fb-084#3", "plays Lone Wolf on Old Bear of the Wood"),
    ("pay all", "pays for every card"),
    ("done", "ends this step"),
    ("build fb-999", "builds a card"),   # a code not in either deck is never shown as a code
])
def test_realms_choices_read_as_words(action, words):
    assert realms_replay.choice(action, CARDS) == words


@pytest.mark.parametrize("line, text, rule", [
    ("T1 Purchase p1 003 §4.2: buys Dockhand for 2 Goods", "Knights of the Dawn buys Dockhand for 2 Goods", "§4.2"),
    ("T8 Cleanup p0 003 §7.1 at Gig Harbour: takes 5 Damage; discards Tally Clerk",
     "At Gig Harbour: The Ashen Covenant takes 5 Damage; discards Tally Clerk", "§7.1"),
    ("T8 Hero p1 +1 Goods (bank 1)", "Knights of the Dawn gets 1 Goods (bank 1)", ""),
    ("T8 End 003 §9: game over (the Recognition pile is empty); Recognition p0 4, p1 11; p1 wins",
     "Game over (the Recognition pile is empty); Recognition The Ashen Covenant 4, Knights of the Dawn 11; "
     "Knights of the Dawn wins", "§9"),
])
def test_regions_log_lines_read_as_sentences(line, text, rule):
    got = regions_replay.event(line, NAMES)
    assert got["text"] == text and got["rule"] == rule
    assert not ENGINE_SPEAK.search(got["text"])


# ---- the pages ----------------------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _fresh_cache():
    """Replays are cached by run id, and every test's first run is number 1."""
    from django.core.cache import cache
    cache.clear()


@pytest.fixture
def realms_run(db, capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()
    run, _ = game_services.game_run_request("realms", mode="versus", text=ASHEN, opponent_text=SUNWARD, games=3,
                                            seed=1, dispatch=False, deck_name="Cinder Choir",
                                            opponent_name="Knights of the Dawn")
    services.run_execute_here(run)
    run.refresh_from_db()
    return run


@pytest.fixture
def regions_run(db):
    run, _ = game_services.game_run_request("regions", mode="versus", text=shipped_text("big-money"),
                                            opponent_text=shipped_text("region-control"), games=3, seed=2,
                                            dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    return run


def _nav_game(html: str) -> str:
    """The game the navigation has highlighted (templates/_nav_links.html)."""
    return re.search(r'class="chip active" aria-current="true" title="([^"]+)"', html).group(1)


def test_realms_replay_reads_like_r1s(realms_run):
    c = Client()
    own(c, realms_run)
    base = f"/realms/simulate/runs/{realms_run.pk}/games/0/"
    report = c.get(realms_run.get_absolute_url()).content.decode()
    assert f'href="{base}"' in report and ">Watch game 1 on the board<" in report
    pages = [c.get(base + f"?step={s}").content.decode() for s in (0, 2, 12, 40, 120)]
    for html in pages:
        assert _nav_game(html) == "The Realm duel"       # the realms navigation, not r1's
        assert 'href="/realms/simulate/"' in html
        assert "Replay: Cinder Choir vs Knights of the Dawn" in html and "(game 1, seed" in html
        words = _text(html)
        assert not ENGINE_SPEAK.search(words), ENGINE_SPEAK.search(words)
        assert not CODE.search(words), CODE.search(words)
        assert "Deck vs Opponent" not in words and "<code>" not in html
        # the board as card images (r1's board shows images, not text boxes)
    assert re.search(r'<img src="/realms/cards/fb-\d{3}\.png\?size=small" alt="[^"]+"', pages[3])
    assert re.search(r'<p class="rb-line rb-seat\d">[^<]+ <a class="rule-ref" href="/realms/rules/#s\d', pages[3])
    assert "Next, Cinder Choir " in pages[0] or "Next, Knights of the Dawn " in pages[0]
    # the same game has the same number everywhere: the report's "game 1" is the page's game 1, and game 2's
    # link on the page opens a page titled game 2
    second = c.get(f"/realms/simulate/runs/{realms_run.pk}/games/1/").content.decode()
    assert f'<a href="/realms/simulate/runs/{realms_run.pk}/games/1/">game 2</a>' in pages[0]
    assert "(game 2, seed" in second and "<strong>game 2</strong>" in second
    # the step controls sit in the block that stays on screen with the board
    assert re.search(r'<div class="rb-sticky">.*?id="replay-nav"', pages[0], re.S)


def test_regions_replay_reads_in_names(regions_run):
    c = Client()
    own(c, regions_run)
    base = f"/regions/simulate/runs/{regions_run.pk}/games/"
    report = c.get(regions_run.get_absolute_url()).content.decode()
    assert f'href="{base}0/"' in report and f'href="{base}2/">game 3<' in report
    for step in (0, 5, 9, 30):
        html = c.get(f"{base}0/?step={step}").content.decode()
        assert _nav_game(html) == "Heroes and Regions" or "regions" in _nav_game(html).lower()
        assert "Replay: Big Money vs Region Control" in html and "(game 1, seed" in html
        words = _text(html)
        assert not ENGINE_SPEAK.search(words), ENGINE_SPEAK.search(words)
        assert "<code>" not in html
    # every tile carries its card's image, shown large while the tile is pointed at or focused
    tiles = re.findall(r'<a class="rr-tile[^"]*" href="/regions/cards/([\w-]+)/".*?</a>', html, re.S)
    images = re.findall(r'<img class="rr-tile-img" src="/regions/cards/([\w-]+)\.png\?size=small"', html)
    assert tiles and tiles == images


@pytest.mark.parametrize("game", ["realms", "regions"])
def test_hand_edited_replay_addresses_are_404_or_400(game, realms_run, regions_run):
    run, other = (realms_run, regions_run) if game == "realms" else (regions_run, realms_run)
    c = Client()
    own(c, run)
    own(c, other)
    base = f"/{game}/simulate/runs/{run.pk}/games"
    first = c.get(f"{base}/0/").content.decode()
    total = int(re.search(r"step 1 / (\d+)", first).group(1))
    assert c.get(f"{base}/0/?step={total - 1}").status_code == 200
    for url, status in ((f"/{game}/simulate/runs/{other.pk}/games/0/", 404),   # the other game's run id
                        (f"{base}/3/", 404), (f"{base}/99999999999/", 404),    # the run played 3 games
                        (f"{base}/0/?step={total}", 404), (f"{base}/0/?step=99999999999999", 400),
                        (f"{base}/0/?step=-1", 400), (f"{base}/0/?step=two", 400),
                        (f"/{game}/simulate/runs/{run.pk}/replay/?game=x", 400),
                        (f"/{game}/simulate/runs/999999/games/0/", 404)):
        assert c.get(url).status_code == status, url
    # r1's replay address and the old /replay/ address send this game's run to its one address
    moved = c.get(f"/simulate/runs/{run.pk}/games/2/?step=3")
    assert moved.status_code == 302 and moved["Location"] == f"{base}/2/?step=3"
    old = c.get(f"/{game}/simulate/runs/{run.pk}/replay/?step=4")
    assert old.status_code == 302 and old["Location"] == f"{base}/0/?step=4"


# ---- charts -------------------------------------------------------------------------------------------------
def test_chart_axes_are_readable_and_in_words():
    from simulator.charts import histogram, line

    def labels(svg):
        return re.findall(r"<text[^>]*>([^<]*)</text>", svg)

    long_game = histogram("Rounds per game", {str(r): r for r in range(3, 64)}, x_title="rounds",
                          y_title="share of games")
    by_turn = line("Mean VP", {"VP": list(range(60))}, x_labels=[str(t) for t in range(1, 61)], x_title="turn",
                   y_title="VP")
    for svg in (long_game, by_turn):
        shown = labels(svg)
        numbers = [x for x in shown if x.isdigit()]
        assert "…" not in shown and len(numbers) <= 12 + 8, shown   # x ticks plus the y axis's
        assert not any(x.endswith(".0%") for x in shown)
    assert [x for x in labels(by_turn) if x in ("1", "10", "20", "30", "40", "50", "60")]
    small = line("Share", {"s": [0.14, 0.28]}, x_labels=["1", "2"], x_title="turn", y_title="share", percent=True)
    assert "14%" in labels(small) or "10%" in labels(small)
    assert "points of" not in small and "points of" not in long_game


def test_unnamed_lists_are_the_first_and_second_deck_never_their_leaders(db, capsys):
    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()
    run, _ = game_services.game_run_request("realms", mode="versus", text=ASHEN, opponent_text=SUNWARD, games=2,
                                            seed=4, dispatch=False)
    services.run_execute_here(run)
    run.refresh_from_db()
    c = Client()
    own(c, run)
    leaders = run.spec["deck"]["leaders"] + run.spec["opponent"]["leaders"]
    report = c.get(run.get_absolute_url()).content.decode()
    replay = c.get(f"/realms/simulate/runs/{run.pk}/games/0/").content.decode()
    assert "Deck: <strong>First deck</strong> against <strong>Second deck</strong>" in report
    assert "Replay: First deck vs Second deck" in replay and "Deck vs Opponent" not in replay
    for name in leaders:
        assert f"<strong>{name}</strong>" not in report, name
