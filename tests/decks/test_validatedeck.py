"""`validatedeck FILE [--json]` (CONTRACTS §3): exit 0 legal, 1 illegal, 2 unreadable file or bad arguments;
and the seven starter decks are legal."""
from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from decks.decklist import export_decklist
from decks.decklist import check_decklist_text
from decks.pool import CardPool

from .cardsets import LEGAL_BASE

ROOT = Path(__file__).resolve().parents[2]
STARTERS = sorted((ROOT / "cards" / "data" / "starters").glob("*.txt"))


def run(*args) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("validatedeck", *args, stdout=out)
        code = 0
    except SystemExit as e:
        code = e.code
    except CommandError as e:
        return e.returncode, str(e)
    return code, out.getvalue()


@pytest.mark.django_db
def test_contracts_3_legal_deck_exits_0_with_the_json_verdict(small_catalogue, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text(export_decklist(LEGAL_BASE, small_catalogue), encoding="utf-8")
    code, out = run(str(deck), "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) >= {"legal", "errors", "warnings", "counts", "faction", "destiny"}
    assert data["legal"] is True and data["counts"] == {"draw": 60, "quests": 7, "faction": 1, "destiny": 1}
    code, out = run(str(deck))
    assert code == 0 and out.startswith("LEGAL: camelot, destiny The Long Reign; 60 draw cards, 7 quests")


@pytest.mark.django_db
def test_contracts_3_illegal_deck_exits_1_listing_every_problem(small_catalogue, tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("1x Camelot\n4x Knight 1\n2x Morgana's Spy\n3x Gawian\n", encoding="utf-8")
    code, out = run(str(deck), "--json")
    assert code == 1
    data = json.loads(out)
    assert {e["code"] for e in data["errors"]} == {"unknown_card", "destiny_count", "quest_count", "draw_count",
                                                   "copy_limit"}
    assert [w["code"] for w in data["warnings"]] == ["loyalty_surcharge"]
    code, out = run(str(deck))
    assert code == 1 and "NOT LEGAL" in out and "Did you mean" in out and "[copy_limit, §2.3, §11]" in out


@pytest.mark.django_db
@pytest.mark.parametrize("content,why", [
    (None, "no such file"),
    (b"\x00\x01\x02binary", "binary"),
    (b"3x Knight \xff\xfe", "not UTF-8"),
    (b"3x Knight 1\n" * 200_000, "larger than"),
])
def test_contracts_3_unreadable_file_exits_2(small_catalogue, tmp_path, content, why):
    path = tmp_path / "deck.txt"
    if content is not None:
        path.write_bytes(content)
    code, message = run(str(path))
    assert code == 2 and why in message


@pytest.mark.django_db
def test_contracts_3_unknown_format_is_a_bad_argument(small_catalogue, tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("1x Camelot", encoding="utf-8")
    code, message = run(str(path), "--format", "nope")
    assert code == 2 and "nope" in message


@pytest.mark.processes
def test_contracts_3_missing_argument_exits_2_from_the_command_line():
    proc = subprocess.run([sys.executable, "manage.py", "validatedeck"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and "file" in proc.stderr


@pytest.mark.parametrize("path", STARTERS, ids=[p.stem for p in STARTERS])
def test_s11_starter_deck_is_legal(core_card_data, path):
    verdict = check_decklist_text(path.read_text(encoding="utf-8"), CardPool.from_cards(core_card_data))
    assert verdict.legal, [e.message for e in verdict.errors]
    assert verdict.faction == path.stem


def test_s11_there_are_seven_starter_decks():
    assert len(STARTERS) == 7


@pytest.mark.django_db
def test_s11_starter_deck_validates_through_the_command_with_the_core_set():
    code, out = run(str(STARTERS[0]), "--json")
    assert code == 0, out
    assert json.loads(out)["legal"] is True


@pytest.mark.django_db
def test_s11_active_format_and_format_option_in_the_command(small_catalogue, tmp_path):
    from cards.models import Card
    from decks.models import Format
    from decks.services import format_activate, format_deactivate_all

    deck = tmp_path / "deck.txt"
    deck.write_text(export_decklist(dict(LEGAL_BASE, loc1=1), small_catalogue), encoding="utf-8")
    league = Format.objects.create(name="Summer League", slug="summer-league")
    league.restricted.add(*Card.objects.filter(code__in=["u01", "loc1"]))
    assert run(str(deck), "--json")[0] == 0  # inactive: the default format has no list (§11)
    code, out = run(str(deck), "--json", "--format", "summer-league")
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "restricted_list"
    format_activate(fmt=league)
    code, out = run(str(deck))
    assert code == 1 and "format Summer League" in out and "restricted list" in out
    format_deactivate_all()
    assert run(str(deck))[0] == 0


def _fresh(tmp_path, *args: str) -> subprocess.CompletedProcess:
    """manage.py on a database of its own in tmp_path, as a newcomer's first command would meet it."""
    import os

    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env=env)


@pytest.mark.processes
def test_before_migrate_it_names_the_commands_to_run_and_exits_2(tmp_path):
    """Regression: validatedeck before `migrate` printed a database traceback."""
    deck = str(ROOT / "cards" / "data" / "starters" / "camelot.txt")
    proc = _fresh(tmp_path, "validatedeck", deck)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "OperationalError" not in proc.stderr
    assert "python manage.py migrate" in proc.stderr and "loadcards" in proc.stderr
    assert _fresh(tmp_path, "migrate", "--noinput", "-v0").returncode == 0
    proc = _fresh(tmp_path, "validatedeck", deck, "--json")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stdout == ""
    assert "no cards are loaded" in proc.stderr and "python manage.py loadcards cards/data/core.json" in proc.stderr
