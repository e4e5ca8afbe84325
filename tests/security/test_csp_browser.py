"""The Content-Security-Policy is one the pages actually satisfy: Chromium visits the main pages, signed out and
signed in, and neither the console nor a `securitypolicyviolation` listener reports a blocked script, style,
image or connection; htmx still works under the policy (the live search swaps results in)."""
from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PUBLIC = ["/", "/cards/", "/cards/syntax/", "/decklists/", "/simulate/", "/accounts/login/", "/accounts/signup/"]
SIGNED_IN = ["/decks/", "/decks/new/", "/collection/", "/accounts/profile/", "/simulate/"]

WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || '') + ':' +
                    e.lineNumber);
});
"""


@pytest.fixture
def chromium():
    from tests.browser.conftest import shared_browser  # one Playwright per test session

    return shared_browser()


@pytest.fixture
def watched(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(WATCH)
    page = context.new_page()
    page.set_default_timeout(15_000)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if "Content Security Policy" in m.text or
            "Content-Security-Policy" in m.text else None)
    yield page, console
    context.close()


def _visit(page, console, url: str) -> list[str]:
    response = page.goto(url)
    assert response is not None and response.status < 400, f"{url}: {response and response.status}"
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_load_state("networkidle")
    return [f"{url}: {v}" for v in page.evaluate("window.__csp")] + [f"{url}: {c}" for c in console]


def _sample_content():
    from django.contrib.auth import get_user_model

    from cards.models import Card
    from decks.models import Decklist
    from decks.services import deck_create

    user = get_user_model().objects.create_user("cspuser", "c@example.com", "csp-user-pw-123")
    units = list(Card.objects.filter(type="unit").order_by("code")[:3])
    deck = deck_create(owner=user, name="CSP deck", counts={c.code: 2 for c in units},
                       notes="**bold** [link](https://example.com)").deck
    decklist = Decklist.objects.create(owner=user, title="CSP list", slug="csp-list",
                                       cards={c.code: 2 for c in units}, content_hash="c", description="*hi*")
    return units[0], deck, decklist


def _finished_runs() -> list[str]:
    """A goldfish and a hands report (with their SVG charts), computed here in-process."""
    from pathlib import Path

    from simulator import services

    text = (Path(__file__).resolve().parents[2] / "cards" / "data" / "starters" / "camelot.txt").read_text()
    urls = []
    for mode, games in (("goldfish", 20), ("hands", 200)):
        run, _ = services.run_request(mode=mode, text=text, games=games, seed=5, dispatch=False)
        services.run_execute_here(run)
        run.refresh_from_db()
        assert run.status == "done", run.error
        from simulator.access import set_shared
        set_shared(run, True)   # runs are private to their owner: the report is visited by its shared link
        run.ref = run.share_token
        urls.append(run.get_absolute_url())
    return urls


def test_main_pages_raise_no_csp_violation(live_server, watched):
    page, console = watched
    card, deck, decklist = _sample_content()
    violations = []
    for url in PUBLIC + [f"/cards/{card.code}/", f"/decklists/{decklist.pk}/"] + _finished_runs():
        violations += _visit(page, console, live_server.url + url)
        console.clear()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", "cspuser")
    page.fill("input[name=password]", "csp-user-pw-123")
    page.click("main button[type=submit], main input[type=submit]")
    page.wait_for_load_state("networkidle")
    for url in SIGNED_IN + [f"/decks/{deck.pk}/", f"/decks/{deck.pk}/edit/"]:
        violations += _visit(page, console, live_server.url + url)
        console.clear()
    assert not violations, "\n".join(violations)


def test_htmx_works_under_the_policy(live_server, watched):
    page, console = watched
    _visit(page, console, live_server.url + "/cards/")
    page.evaluate("window.__same_page = true")
    box = page.locator("input[name=q]").first
    box.fill("t:unit")
    page.wait_for_function("document.querySelector('.result-count') && "
                           "/unit|card/.test(document.querySelector('.result-count').innerText)")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("window.__same_page") is True
    assert page.evaluate("window.__csp") == [] and console == []


def test_the_api_docs_list_the_operations_under_the_policy(live_server, watched):
    """Regression: /api/docs/ (the footer's "API" link) was blank: Swagger UI came from a CDN and its inline start-up
    script was blocked by the site's own policy. Now the page loads only from the site and lists every operation."""
    page, console = watched
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(live_server.url)
            and not r.url.startswith("data:") else None)
    violations = _visit(page, console, live_server.url + "/api/docs/")
    page.locator(".opblock").first.wait_for()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    for path in ("/api/cards/", "/api/decks/validate/", "/api/decklists/", "/api/simulations/"):
        assert any(p.replace("\u200b", "") == path for p in paths), (path, paths[:10])
    assert page.locator(".opblock").count() >= 20
    assert page.get_by_text("Reign of Kings DB API").first.is_visible()
    # Open one operation: its parameters and responses render (the UI is live, not a static list).
    page.locator(".opblock-summary", has_text="/api/cards/").first.click()
    page.get_by_text("Parameters").first.wait_for()
    assert not violations and not page.evaluate("window.__csp") and not console, violations + console
    assert not outside, outside
