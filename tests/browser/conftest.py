"""Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium) against Django's live server.

Playwright never downloads a browser here; `make test` installs Debian's chromium (Makefile: browser-deps).
"""
import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic",
]
SCREENSHOT_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "var", "screenshots")


_shared: dict = {}


def shared_browser():
    """One Playwright and one Chromium for the whole test session.

    Playwright's sync API cannot start twice in one thread while the first is running, and test modules import
    the fixtures below (which gives each module its own fixture definition), so they all share this one.
    """
    if "browser" not in _shared:
        if not os.path.exists(CHROMIUM):
            pytest.fail(f"Debian's chromium is not installed at {CHROMIUM}; run `make browser-deps`.")
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _shared["playwright"] = playwright
        _shared["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    return _shared["browser"]


def pytest_sessionfinish(session, exitstatus):
    browser = _shared.pop("browser", None)
    if browser is not None:
        browser.close()
        _shared.pop("playwright").stop()


@pytest.fixture(scope="session")
def browser():
    return shared_browser()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    yield pg
    context.close()


@pytest.fixture
def shot(page):
    """shot("name") saves a screenshot under var/screenshots/ for a person to look at."""
    os.makedirs(SCREENSHOT_DIR, exist_ok=True)

    def take(name: str, full_page: bool = True):
        path = os.path.abspath(os.path.join(SCREENSHOT_DIR, f"{name}.png"))
        page.screenshot(path=path, full_page=full_page)
        return path

    return take


def own_runs(context, base_url: str, *runs) -> None:
    """Make the browser `context` the owner of `runs` (made in the test, owned by nobody): a session whose owner
    id the runs are stored under, and its cookie. Runs are private to their owner (simulator/access.py)."""
    from importlib import import_module

    from django.conf import settings

    from simulator.access import SESSION_OWNER

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_OWNER] = "browser-owner"
    store.save()
    for run in runs:
        type(run).objects.filter(pk=run.pk).update(user=None, session_key="o:browser-owner")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": base_url}])


def sign_in(page, base_url: str, username: str, password: str) -> None:
    """Sign `page` in through the site's own log-in form."""
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state("load")


@pytest.fixture
def signed_in_pages(live_server):
    """signed_in_pages(user, password) -> (context options) -> a new page of its own browser context, signed in as
    that user; every context is closed after the test."""
    contexts = []

    def for_user(username: str, password: str):
        def open_page(options):
            context = shared_browser().new_context(**options)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(15_000)
            sign_in(page, live_server.url, username, password)
            return page
        return open_page

    yield for_user
    for context in contexts:
        context.close()
