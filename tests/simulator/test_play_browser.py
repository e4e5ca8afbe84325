"""Replays, the playtest table and the judge sandbox in Debian's Chromium: stepping a replay with the
keyboard, building a position and stepping a struggle in the sandbox, a whole game against the greedy AI through
clicks only, and resuming it after a reload. Screenshots at 1366 and 390 px under var/screenshots/."""
from __future__ import annotations

import random
import re

import pytest
from django.core.management import call_command

from tests.browser.conftest import browser, own_runs, page, shot  # noqa: F401  (shared Playwright fixtures)

from .engines.r1.helpers import CORE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def core_cards(transactional_db):
    call_command("loadcards", str(CORE), verbosity=0)


def _pages(browser, own=(), base=""):  # noqa: F811
    """A page at each width; its context owns the runs `own` (runs are private to their owner)."""
    for width in (1366, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        if own:
            own_runs(ctx, base, *own)
        pg = ctx.new_page()
        pg.set_default_timeout(15_000)
        yield width, pg
        ctx.close()


def test_replay_stepping_by_keys_and_links(live_server, browser, core_cards):  # noqa: F811
    from cards.starters import starter
    from simulator import services
    run, _ = services.run_request(mode="versus", text=starter("camelot").text, opponent_text=starter("winter").text,
                                  games=2, seed=4, dispatch=False)
    services.run_execute_here(run)
    gold, _ = services.run_request(mode="goldfish", text=starter("camelot").text, games=2, seed=4, dispatch=False)
    services.run_execute_here(gold)
    from decks.pool import CardPool
    from simulator import replay
    from simulator import sandbox as sb
    data = replay.replay_run_game(run.spec, 0)
    pool = CardPool.from_db()

    def opens_inside(k):
        position, actions, how = sb.at_replay_step(data, k, pool)
        return how == "decision" and actions and sb.run(position, actions, pool).struggle is not None
    inside = next(k for k, f in enumerate(data["frames"]) if f["board"]["struggle"] and f["position"] is None
                  and " S.8 " in f["raw"][0] and opens_inside(k))
    for width, pg in _pages(browser, own=(run, gold), base=live_server.url):
        # the goldfish report's sample game: a round-by-round summary and its replay
        pg.goto(live_server.url + gold.get_absolute_url())
        assert "Round 1" in pg.inner_text("#sample-game")
        pg.locator("#sample-game").screenshot(path=f"var/screenshots/report-goldfish-sample-{width}.png")
        pg.goto(live_server.url + run.get_absolute_url())
        pg.locator("#sample-game").screenshot(path=f"var/screenshots/report-versus-sample-{width}.png")
        pg.click("#replay-link")
        pg.wait_for_url(re.compile(r"/games/0/$"))   # loaded, its key script too
        assert "step 1 /" in pg.inner_text("#step-no")
        pg.keyboard.press("ArrowRight")
        pg.wait_for_url(re.compile(r"step=1$"))
        assert "step 2 /" in pg.inner_text("#step-no")
        pg.keyboard.press("]")
        pg.wait_for_url(lambda u: not u.endswith("step=1"))
        assert "struggle" in pg.inner_text("#step-log").lower()
        before = pg.url
        pg.keyboard.press("PageDown")
        pg.wait_for_url(lambda u: u != before)
        n = int(re.search(r"step=(\d+)", pg.url).group(1))
        pg.keyboard.press("ArrowLeft")
        pg.wait_for_url(re.compile(rf"step={n - 1}$"))
        # a step's address shows that step to anyone who opens it
        pg.goto(live_server.url + f"/simulate/runs/{run.pk}/games/0/?step=60")
        assert "step 61 /" in pg.inner_text("#step-no")
        assert pg.locator(".play-card img").count() > 0
        assert pg.locator("#step-event").count() == 1   # one event per step
        shot_path = f"var/screenshots/replay-{width}.png"
        pg.screenshot(path=shot_path, full_page=True)
        step_url = pg.url
        # the rule of an event is a small link to its section of the rulebook page
        link = pg.locator("#step-log a.rule-ref").first
        href = link.get_attribute("href")
        assert href.startswith("/rules/#")
        link.click()
        pg.wait_for_url(re.compile(r"/rules/#"))
        target = href.split("#")[1]
        assert pg.locator(f"[id='{target}']").count() == 1
        pg.screenshot(path=f"var/screenshots/rules-{width}.png")
        pg.goto(step_url)
        pg.click("#open-sandbox")
        assert pg.locator("#sb-options button").count() > 0
        # a step inside a struggle opens at its last decision, inside the same struggle
        pg.goto(live_server.url + f"/simulate/runs/{run.pk}/games/0/?step={inside}")
        pg.screenshot(path=f"var/screenshots/replay-struggle-{width}.png", full_page=True)
        pg.click("#open-sandbox")
        assert "inside the same struggle" in pg.inner_text("#sb-from-replay")
        assert pg.locator("#sb-options button").count() > 1
        pg.screenshot(path=f"var/screenshots/sandbox-from-replay-{width}.png", full_page=True)


def test_sandbox_build_a_position_and_step_a_struggle(live_server, browser, core_cards):  # noqa: F811
    for width, pg in _pages(browser):
        pg.goto(live_server.url + "/play/sandbox/")
        pg.select_option("#build-phase", "confrontation")
        # cards picked with the card search
        pg.select_option("#sb-zone", "p0_faction")
        pg.fill("#sb-q", "camelot t:faction")
        pg.click("#sb-go")
        pg.click("#sb-results button[data-code='core-001']")
        assert pg.input_value("#p0_faction") == "core-001"
        pg.select_option("#sb-zone", "p0_field")
        pg.fill("#sb-q", "hedge knight")
        pg.click("#sb-go")
        pg.click("#sb-results button[data-code='core-135']")
        pg.fill("#p0_quest", "core-170")
        pg.fill("#p0_deck", "core-010 core-011 core-012")
        pg.fill("#p1_faction", "core-096")
        pg.fill("#p1_quest", "core-171")
        pg.fill("#p1_field", "core-098")
        pg.fill("#p1_deck", "core-100 core-101")
        pg.click("#build")
        pg.click("#sb-options button[data-action='struggle combat']")
        assert "Combat struggle" in pg.inner_text("#sb-step")
        pg.click("#sb-options button[data-action='defend core-098']")
        step = pg.inner_text("#sb-step")
        assert "Combat: 2 vs 2, attacker wins, margin 0" in step and "S.8" in step
        pg.screenshot(path=f"var/screenshots/sandbox-{width}.png", full_page=True)
        # a bad position: the loader's message next to the field
        pg.fill("#position", '{"players": [{"faction": "core-001", "hand": ["nope-1"]}, {}]}')
        pg.click("#load")
        assert "player 0, hand: unknown card nope-1" in pg.inner_text("#position-error")


def _click_through(pg, rng, limit):
    """Click one of the offered option buttons until the game ends (or `limit` clicks)."""
    for _ in range(limit):
        if pg.locator("#game-over").count():
            return True
        buttons = pg.locator(".play-options button")
        n = buttons.count()
        assert n > 0, pg.inner_text("#decision")
        buttons.nth(rng.randrange(n)).click()
        pg.wait_for_load_state()
        pg.wait_for_function("() => !document.querySelector('.htmx-request')")
    return pg.locator("#game-over").count() > 0


def test_a_whole_game_against_greedy_through_clicks_and_resume_after_reload(live_server, browser, core_cards):  # noqa: F811
    rng = random.Random(7)
    for width, pg in _pages(browser):
        pg.goto(live_server.url + "/play/")
        pg.select_option("#deck-source", "starter:camelot")
        pg.select_option("#opponent-source", "starter:winter")
        pg.select_option("#policy", "greedy")
        pg.check("input[name=seat][value=%s]" % ("first" if width == 1366 else "second"))
        pg.click("#start-game")
        assert pg.locator(".play-options button").count() > 0
        _click_through(pg, rng, 15)
        pg.screenshot(path=f"var/screenshots/playtest-{width}.png", full_page=True)
        before = pg.inner_text("#decision")
        url = pg.url
        pg.reload()
        assert pg.url == url and pg.inner_text("#decision").split("Answered in")[0].strip() in before
        if width == 1366:
            assert _click_through(pg, rng, 3000)
            assert "Game over" in pg.inner_text("#game-over")
            pg.click("#game-replay")
            assert "step 1 /" in pg.inner_text("#step-no")


def test_playtest_against_a_published_decklist_picked_from_the_list(live_server, browser, core_cards):  # noqa: F811
    from cards.starters import starters
    from decks.models import Decklist
    from decks.services import starter_decklists_publish
    starter_decklists_publish(starters=starters())
    winter = Decklist.objects.get(title__startswith="The Winter Court")
    for width, pg in _pages(browser):
        pg.goto(live_server.url + "/play/")
        pg.select_option("#deck-source", "starter:camelot")
        assert pg.locator("#opponent-decklists .play-dl").count() == len(starters())
        pg.fill("#decklist-q", "winter")   # the list follows the search as one types (htmx)
        pg.wait_for_function("() => document.querySelectorAll('#opponent-decklists .play-dl').length === 1")
        row = pg.locator(f"#opponent-decklists [data-decklist='{winter.pk}']")
        assert "The Winter Court" in row.inner_text() and "starter deck" in row.inner_text()
        row.locator("input[type=radio]").check()
        pg.screenshot(path=f"var/screenshots/playtest-picker-{width}.png", full_page=True)
        pg.click("#start-game")
        pg.wait_for_url(re.compile(r"/play/[^/]+/$"))
        assert winter.title in pg.inner_text("body")
        assert pg.locator(".play-options button").count() > 0
        # a decklist's page opens the table with it picked
        pg.goto(live_server.url + winter.get_absolute_url())
        pg.screenshot(path=f"var/screenshots/decklist-playtest-link-{width}.png")
        pg.click("#playtest-against")
        assert pg.locator(f"input[name=opponent_decklist][value='{winter.pk}']").is_checked()
