"""The deck doctor in Debian's Chromium at 1366 and 390 px: the editor's panel names the old Le Fay starter's
undefended struggle types and redraws as the list changes (htmx), and the deck page shows the same finding."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import browser, page, shot  # noqa: F401  (shared Playwright fixtures)

from .test_editor_browser import _sign_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEFAY = (Path(__file__).resolve().parent / "data" / "lefay_old.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("width", [1366, 390])
def test_editor_panel_and_deck_page_show_the_doctor(live_server, page, shot, width):  # noqa: F811
    page.set_viewport_size({"width": width, "height": 900})
    _sign_in(page, live_server, name=f"vivien{width}")
    page.goto(live_server.url + "/decks/new/")
    page.get_by_label("Name", exact=True).fill("Old Le Fay")
    page.fill("#deck-text", LEFAY)
    finding = page.locator("#legality #finding-undefended_icon")
    finding.wait_for(state="attached")
    assert "No unit can defend a Combat or Faith struggle" in finding.inner_text()
    # two Combat-and-Faith units for two Guile ones: the panel redraws, the icons are no longer absent
    page.fill("#deck-text", LEFAY.replace("3x Cutpurse", "3x Shield-Maiden of the Marches"))
    page.wait_for_function("() => !document.querySelector('#legality #finding-undefended_icon p')"
                           ".textContent.includes('No unit can defend')")
    assert "Only 3 units bear Combat" in finding.inner_text()
    page.fill("#deck-text", LEFAY)
    page.wait_for_function("() => document.querySelector('#legality #finding-undefended_icon p')"
                           ".textContent.includes('No unit can defend')")
    page.locator("button[form=deck-form]").click()
    page.wait_for_url(lambda url: "/edit" not in url and "/new" not in url)
    doctor = page.locator("#doctor")
    assert doctor.is_visible() and "Undefended icon" in doctor.inner_text() and "undefended_icon" not in doctor.inner_text()
    assert page.locator("#doctor a.rule-ref[href='/rules/#S.6']").count() >= 1
    box = doctor.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1   # nothing runs off the screen
    shot(f"deck-doctor-{width}")
