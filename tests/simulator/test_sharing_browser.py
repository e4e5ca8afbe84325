"""Sharing a run in Debian's Chromium: its owner presses Share on the report (htmx) and gets a link that another
visitor opens, read-only, with its replay; Stop sharing kills the link; without JavaScript the same buttons work
as plain forms. Screenshots at 1366 and 390 px under var/screenshots/share-*.png."""
from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from tests.browser.conftest import browser, own_runs  # noqa: F401  (shared Playwright fixtures)

from .engines.r1.helpers import CORE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def finished_run(transactional_db):
    from cards.starters import starter
    from simulator import services

    call_command("loadcards", str(CORE), verbosity=0)
    run, _ = services.run_request(mode="versus", text=starter("camelot").text, opponent_text=starter("winter").text,
                                  games=2, seed=4, dispatch=False)
    services.run_execute_here(run)
    return run


def test_share_a_report_open_it_elsewhere_and_stop_sharing(live_server, browser, finished_run):  # noqa: F811
    from simulator.models import SimulationRun

    run = finished_run
    for width in (1366, 390):
        owner_ctx = browser.new_context(viewport={"width": width, "height": 900})
        own_runs(owner_ctx, live_server.url, run)
        owner = owner_ctx.new_page()
        owner.set_default_timeout(15_000)
        owner.goto(live_server.url + f"/simulate/runs/{run.pk}/")
        assert "Only you can see this run" in owner.inner_text("#run-share")
        owner.click("#share-toggle")                      # htmx: the control is swapped in place
        owner.wait_for_selector("#share-link")
        link = owner.get_attribute("#share-link", "href")
        token = SimulationRun.objects.get(pk=run.pk).share_token
        assert link == f"{live_server.url}/simulate/runs/{token}/"
        assert owner.evaluate("document.documentElement.scrollWidth") <= width   # the long link wraps
        owner.screenshot(path=f"var/screenshots/share-owner-report-{width}.png")
        # the owner's replay page offers this moment's shared link
        owner.goto(live_server.url + f"/simulate/runs/{run.pk}/games/0/?step=5")
        moment = owner.get_attribute("#share-moment", "href")
        assert moment == f"{live_server.url}/simulate/runs/{token}/games/0/?step=5"
        owner.screenshot(path=f"var/screenshots/share-owner-replay-{width}.png")

        # someone else, signed out, with the link
        other_ctx = browser.new_context(viewport={"width": width, "height": 900})
        other = other_ctx.new_page()
        other.set_default_timeout(15_000)
        assert other.goto(live_server.url + f"/simulate/runs/{run.pk}/").status == 404   # not by its id
        assert other.goto(link).status == 200
        assert other.locator("#share-toggle").count() == 0 and "you can look, not change it" in other.inner_text("body")
        other.screenshot(path=f"var/screenshots/share-visitor-report-{width}.png")
        other.click("#replay-link")
        other.wait_for_url(re.compile(rf"/simulate/runs/{token}/games/0/$"))
        other.click("#step-next")
        other.wait_for_url(re.compile(r"step=1$"))
        assert f"/runs/{run.pk}/" not in other.content()

        # stop sharing: the link is dead
        owner.goto(live_server.url + f"/simulate/runs/{run.pk}/")
        owner.click("#share-toggle")
        owner.wait_for_selector("text=Only you can see this run")
        assert other.goto(link).status == 404
        assert SimulationRun.objects.get(pk=run.pk).share_token is None
        other_ctx.close()
        owner_ctx.close()


def test_share_without_javascript(live_server, browser, finished_run):  # noqa: F811
    from simulator.models import SimulationRun

    run = finished_run
    ctx = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=False)
    own_runs(ctx, live_server.url, run)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + f"/simulate/runs/{run.pk}/")
    page.click("#share-toggle")                  # a plain form post, back to the report
    page.wait_for_selector("#share-link")
    assert page.url == live_server.url + f"/simulate/runs/{run.pk}/"
    assert SimulationRun.objects.get(pk=run.pk).share_token
    page.screenshot(path="var/screenshots/share-nojs-390.png")
    page.click("#share-toggle")
    page.wait_for_selector("text=Only you can see this run")
    assert SimulationRun.objects.get(pk=run.pk).share_token is None
    ctx.close()


def test_the_share_control_on_tuning_and_realms_reports(live_server, browser, transactional_db):  # noqa: F811
    from simulator.models import SimulationRun, TuningRun

    tuning = TuningRun.objects.create(kind="matrix", games=10, seed=1, engine_version="x", request_key="k", spec={},
                                      status="queued", title="Meta matrix of 2 decks")
    realms = SimulationRun.objects.create(mode="goldfish", games=10, seed=1, request_key="k", status="queued",
                                          spec={"game": "realms"}, deck_name="Sunward")
    for width in (1366, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 900})
        own_runs(ctx, live_server.url, tuning, realms)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        for name, run, pattern in (("tuning", tuning, r"/tune/runs/[\w-]{20,}/$"),
                                   ("realms", realms, r"/realms/simulate/runs/[\w-]{20,}/$")):
            page.goto(live_server.url + run.get_absolute_url())
            page.click("#share-toggle")
            page.wait_for_selector("#share-link")
            assert re.search(pattern, page.get_attribute("#share-link", "href"))
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=f"var/screenshots/share-{name}-{width}.png")
            page.click("#share-toggle")   # stop sharing again, for the next width
            page.wait_for_selector("text=Only you can see this run")
        ctx.close()
