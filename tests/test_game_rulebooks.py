"""Every game's rulebook page: r1's at /rules/, realms' and regions' at /<game>/rules/ (their texts shipped with the
site, roc_site/rulebooks/), one view and one template through the registry's `rulebook`; an anchor per numbered
section, a table of contents; the realms and regions pages cite their rules as links to it ("§8", never the source
document's "002 §8")."""
from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client

from cards.games import registry
from roc_site import rulebook
from simulator import services
from simulator.games import services as game_services
from tests.simulator.conftest import own

REALMS_SECTIONS = [f"s{n}" for n in range(1, 20)] + ["s7.1", "s7.4", "s8.1"]
REGIONS_SECTIONS = ["s1", "s1.1", "s2", "s2.6", "s3", "s4", "s4.2", "s4.5", "s5.4", "s7.1", "s8.3", "s9", "s9.2",
                    "glossary"]


def _ids(html: str) -> list[str]:
    return re.findall(r'\bid="([^"]+)"', html)


@pytest.mark.django_db
@pytest.mark.parametrize("slug, sections, headings", [
    ("realms", REALMS_SECTIONS, ["Goal and victory conditions", "Game setup", "Step 5 — Raid", "Deckbuilding"]),
    ("regions", REGIONS_SECTIONS, ["Components", "Setup", "The turn", "Purchase phase", "Damage &amp; Clean Up",
                                   "Tiebreakers"]),
])
def test_each_game_has_its_rulebook_page(slug, sections, headings):
    page = Client().get(f"/{slug}/rules/")
    html = page.content.decode()
    assert page.status_code == 200
    ids = _ids(html)
    assert set(sections) <= set(ids)
    body = html[html.index('id="rules"'):]
    assert len(_ids(body)) == len(set(_ids(body)))   # no anchor twice
    for h in headings:
        assert re.search(r"<h[23] id=\"[^\"]+\"><a class=\"rules-anchor\"[^>]*>§[\d.]+</a> " + re.escape(h), html), h
    toc = html[html.index('aria-label="Contents"'):html.index('id="rules"')]
    assert 'href="#s4.2"' in toc or 'href="#s4"' in toc
    assert f'href="/{slug}/rules/"' in html            # the game's navigation links its rulebook
    assert "002_" not in html and "003_" not in html and " ()" not in body


def test_the_site_ships_its_own_copies():
    for slug in ("realms", "regions"):
        book = registry.get(slug).rulebook
        path = rulebook.PROJECT_ROOT / book.file
        assert path.is_file() and path.resolve().is_relative_to(rulebook.PROJECT_ROOT)


@pytest.mark.django_db
def test_r1_rulebook_page_is_unchanged():
    html = Client().get("/rules/").content.decode()
    body, toc = rulebook.rendered()
    assert body in html and "<title>Rulebook (ruleset r1) · Reign of Kings DB</title>" in html
    assert rulebook.game_rendered("r1")[:2] == (body, toc)
    assert 'id="S.8"' in html and 'id="s6.2"' in html and 'id="appendix-a"' in html
    assert rulebook.rule_href("§6.2 S.8") == "/rules/#S.8"


def test_citations_link_to_their_games_rulebook():
    out = rulebook.link_game_citations("T0 P0 002 §8 keeps; (002 §3, §10); 003 §2 stays", "realms")
    assert '<a class="rule-ref" href="/realms/rules/#s8" title="The rulebook, §8">§8</a> keeps' in out
    assert 'href="/realms/rules/#s3"' in out and 'href="/realms/rules/#s10"' in out
    assert "002" not in out and "003 §2 stays" in out           # another document's citation is left as written
    assert 'href="/regions/rules/#s2.6"' in rulebook.link_game_citations("003 §2.6", "regions")
    # a section the rulebook does not number links to the nearest one it does
    assert 'href="/realms/rules/#s14"' in rulebook.link_game_citations("§14.4", "realms")


@pytest.mark.django_db
def test_realms_replay_and_report_cite_rules_as_links(capsys):
    from cards.games.realms import SET_FILE, STARTERS_DIR

    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()
    run, _ = game_services.game_run_request(
        "realms", mode="versus", text=(STARTERS_DIR / "ashen.txt").read_text(),
        opponent_text=(STARTERS_DIR / "sunward.txt").read_text(), games=2, seed=1, dispatch=False)
    services.run_execute_here(run)
    c = Client()
    own(c, run)
    first = c.get(f"/realms/simulate/runs/{run.pk}/games/0/?step=2").content.decode()   # the Leaders revealed
    lines = re.findall(r'<p class="rb-line[^"]*">(.*?)</p>', first, re.S)
    assert any('<a class="rule-ref" href="/realms/rules/#s8"' in x for x in lines), lines
    pages = [first, c.get(f"/realms/simulate/runs/{run.pk}/games/0/?step=40").content.decode(),
             c.get(f"/realms/simulate/runs/{run.pk}/games/1/?step=99").content.decode(),
             c.get(run.get_absolute_url()).content.decode()]
    for html in pages:
        assert "002 §" not in html and "003 §" not in html
    assert 'href="/realms/rules/#s3"' in pages[1]                   # the board's zones cite §3


@pytest.mark.django_db
def test_regions_replay_and_report_cite_rules_as_links():
    from simulator.engines.regions.sim import shipped_text

    run, _ = game_services.game_run_request("regions", mode="versus", text=shipped_text("big-money"),
                                            opponent_text=shipped_text("region-control"), games=2, seed=2,
                                            dispatch=False)
    services.run_execute_here(run)
    c = Client()
    own(c, run)
    replay = c.get(run.get_absolute_url() + "games/0/").content.decode()
    assert 'Setup (<a class="rule-ref" href="/regions/rules/#s2"' in replay
    later = c.get(run.get_absolute_url() + "games/0/?step=30").content.decode()
    report = c.get(run.get_absolute_url()).content.decode()
    for html in (replay, later, report):
        assert "003 §" not in html and "002 §" not in html
    assert 'href="/regions/rules/#s9.2"' in report


@pytest.mark.django_db
def test_realms_editor_and_syntax_pages_cite_rules_as_links(capsys):
    from cards.games.realms import SET_FILE

    call_command("loadcards", str(SET_FILE), verbosity=0)
    capsys.readouterr()
    c = Client()
    editor = c.get("/realms/decks/new/").content.decode()
    syntax = c.get("/realms/cards/syntax/").content.decode()
    assert 'href="/realms/rules/#s18"' in editor and 'href="/realms/rules/#s17"' in editor   # the formats' rules
    assert 'href="/realms/rules/#s5"' in syntax
    for html in (editor, syntax):
        assert "002 §" not in html


@pytest.mark.django_db
def test_r1_navigation_is_unchanged_and_keeps_its_footer_link():
    html = Client().get("/cards/").content.decode()
    nav = html[:html.index("</nav>")] if "</nav>" in html else html
    assert 'href="/rules/">Rules</a>' not in nav                 # r1's menu stays as it was (its footer links it)
    assert '<a href="/rules/">Rulebook</a>' in html
    realms = Client().get("/realms/cards/").content.decode()
    assert realms.count('href="/realms/rules/"') == 3   # the menu (wide and phone) and the footer
