"""Recovery without processes: a database outage answers 503 with Retry-After (never a 500), and beat's
`simulator.requeue_pending` sends runs that were saved while the queue was down, and only those."""
from __future__ import annotations

import pytest
from django import db
from django.test import Client

pytestmark = pytest.mark.django_db


def _down(*args, **kwargs):
    raise db.OperationalError("connection to server at \"127.0.0.1\", port 5432 failed: Connection refused")


def test_database_down_answers_503_json_on_the_api(monkeypatch):
    from cards.api import CardViewSet

    monkeypatch.setattr(CardViewSet, "list", _down)
    r = Client().get("/api/cards/?q=t:unit")
    assert r.status_code == 503
    assert r["Retry-After"] == "5"
    assert "database is unavailable" in r.json()["detail"]


def test_database_down_answers_503_on_a_page(monkeypatch):
    import cards.views

    monkeypatch.setattr(cards.views, "card_ids", _down)
    r = Client().get("/cards/")
    assert r.status_code == 503 and r["Retry-After"] == "5"
    assert "Try again shortly" in r.content.decode()
    assert "default-src 'self'" in r["Content-Security-Policy"]


def test_other_errors_are_not_disguised_as_an_outage(monkeypatch):
    from cards.api import CardViewSet

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(CardViewSet, "list", broken)
    with pytest.raises(ValueError):
        Client().get("/api/cards/")


def _run(status: str, error: str = ""):
    from simulator.models import SimulationRun

    return SimulationRun.objects.create(mode="hands", games=10, seed=1, request_key=f"k-{status}-{error[:5]}",
                                        spec={}, status=status, error=error)


def test_requeue_sends_only_runs_saved_while_the_queue_was_down(monkeypatch):
    from simulator import tasks

    sent = []
    monkeypatch.setattr(tasks.start_run, "apply_async", lambda args, **kw: sent.append(args[0]))
    stranded = _run("pending", "The simulation queue could not be reached (OperationalError)")
    being_created = _run("pending")
    queued = _run("queued")
    assert tasks.requeue_pending() == 1
    assert sent == [stranded.pk]
    stranded.refresh_from_db()
    assert stranded.status == "queued" and stranded.error == ""
    being_created.refresh_from_db()
    queued.refresh_from_db()
    assert being_created.status == "pending" and queued.status == "queued"
    assert tasks.requeue_pending() == 0  # nothing left to send


def test_requeue_stops_at_the_first_broker_failure(monkeypatch):
    from simulator import tasks

    calls = []

    def down(args, **kw):
        calls.append(args[0])
        raise ConnectionRefusedError("broker down")

    monkeypatch.setattr(tasks.start_run, "apply_async", down)
    first = _run("pending", "queue could not be reached 1")
    _run("pending", "queue could not be reached 2")
    assert tasks.requeue_pending() == 0
    assert calls == [first.pk]  # one attempt, not one per run, while the broker is still down
    first.refresh_from_db()
    assert first.status == "pending"


def test_beat_schedules_the_requeue(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE["requeue-pending-runs"]
    assert schedule["task"] == "simulator.requeue_pending" and schedule["schedule"] <= 60
