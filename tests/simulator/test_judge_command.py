"""`python manage.py judge` (CONTRACTS §6): exit 0 with the result, 2 for a refused position or a bad action."""
import json

import pytest
from django.core.management import CommandError, call_command

from .engines.r1.helpers import CORE
from .engines.r1.test_positions import _pos

pytestmark = pytest.mark.django_db


@pytest.fixture
def core_db(db):
    call_command("loadcards", str(CORE), verbosity=0)


def test_judge_prints_the_position_the_pending_decision_and_the_log(core_db, tmp_path, capsys):
    _g, pos = _pos()
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    call_command("judge", str(f), "--json")
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"position", "pending", "choice", "winner", "reason", "log"}
    assert out["pending"]["player"] == pos["active_player"] and out["pending"]["options"]
    first = out["pending"]["options"][0]
    call_command("judge", str(f), "--do", first, "--policy", "greedy", "--json")
    chosen = json.loads(capsys.readouterr().out)
    assert chosen["choice"] is None or chosen["choice"] in chosen["pending"]["options"]
    call_command("judge", str(f), "--until", "game", "--policy", "greedy", "--json")
    end = json.loads(capsys.readouterr().out)
    assert end["winner"] in (0, 1) and end["position"] is None and end["log"]
    call_command("judge", str(f))
    assert "pending: player" in capsys.readouterr().out


def test_judge_exits_2_for_a_refused_position_or_an_action_that_is_not_an_option(core_db, tmp_path, capsys):
    _g, pos = _pos()
    f = tmp_path / "p.json"
    f.write_text(json.dumps(pos))
    with pytest.raises(CommandError) as exc:
        call_command("judge", str(f), "--do", "pass", "--do", "fly away")
    assert exc.value.returncode == 2 and "action 1" in str(exc.value) and "the options there" in str(exc.value)
    bad = dict(pos, players=[dict(pos["players"][0], hand=["nope-1"]), pos["players"][1]])
    f.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as exc:
        call_command("judge", str(f))
    assert exc.value.returncode == 2 and "player 0, hand: unknown card nope-1" in str(exc.value)
    f.write_text("{not json")
    with pytest.raises(CommandError) as exc:
        call_command("judge", str(f))
    assert exc.value.returncode == 2
