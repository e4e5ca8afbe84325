"""The deck doctor on simulation reports (docs/decks.md, "The deck doctor"): the report of a run shows the reading
of its deck, and a finished versus run's struggles become the evidence of `undefended_icon`."""
from pathlib import Path

import pytest
from django.core.management import call_command

from simulator import services
from simulator.models import SimulationRun

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "decks" / "data"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def inline_queue(monkeypatch):
    from simulator import tasks

    monkeypatch.setattr(tasks.start_run, "apply_async",
                        lambda args, **kw: services.run_execute_here(SimulationRun.objects.get(pk=args[0])))


def test_versus_report_shows_the_doctor_with_the_struggles_of_its_games(client, inline_queue):
    lefay = (DATA / "lefay_old.txt").read_text(encoding="utf-8")
    camelot = (DATA / "camelot_old.txt").read_text(encoding="utf-8")
    r = client.post("/simulate/", {"mode": "versus", "text": lefay, "opponent": camelot, "games": "6", "seed": "3"})
    assert r.status_code == 302
    run = SimulationRun.objects.get()
    assert run.status == "done"
    html = client.get(run.get_absolute_url()).content.decode()
    assert 'id="finding-undefended_icon"' in html and "No unit can defend a Combat or Faith struggle" in html
    assert "Combat struggles against it (stored games)" in html
    initiated = run.result["struggles"]["opponent"]["combat"]["initiated"]
    assert f"In 6 stored versus games, {initiated:,} of {initiated:,} Combat" in html
    against = run.result["struggles"]["opponent"]["combat"]
    assert against["initiated"] == against["unopposed"]   # nothing of Le Fay's could ever defend one
    from decks.doctor import diagnose_text
    games = {f["code"]: f for f in diagnose_text(lefay)["findings"]}["undefended_icon"]["evidence"]["games"]
    assert games["combat"]["initiated"] == against["initiated"] and games["combat"]["defended"] == 0


def test_realms_report_shows_the_doctor(client):
    call_command("loadcards", str(ROOT / "cards" / "games" / "realms" / "data" / "realms.json"), verbosity=0)
    from simulator.views import run_doctor
    text = (ROOT / "cards" / "games" / "realms" / "data" / "starters" / "ashen.txt").read_text(encoding="utf-8")
    from decks.doctor import read_text
    _, counts, _ = read_text(text, "realms")
    run = SimulationRun(mode="goldfish", games=1, seed=1, deck_counts=counts, deck_name="Ashen", spec={})
    reading = run_doctor(run, None, "realms")
    assert reading["deck"]["game"] == "realms" and reading["shown"]
