"""The examples in the engine's docstrings run and hold, on the build in use (compiled or ROC_ENGINE_PURE=1)."""
import pytest

from tests.doctests import run_examples

GAME_EXAMPLE = pytest.mark.xfail(strict=True, reason=(
    "the Game docstring's loop example uses `g` from a line marked +SKIP; the fix belongs in simulator/engine "
    "(mark both lines +SKIP or give the example a deck); strict: this fails once the example runs"))
MODULES = ["simulator.engine", "simulator.engine.cards", pytest.param("simulator.engine.game", marks=GAME_EXAMPLE),
           "simulator.engine.setup",
           "simulator.engine.abilities", "simulator.engine.actions", "simulator.engine.positions",
           "simulator.engine.policies", "simulator.engine.search", "cards.games.r1.facts"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = run_examples(name)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (printed above)"


def test_the_engine_has_examples():
    names = [m if isinstance(m, str) else m.values[0] for m in MODULES]
    assert sum(run_examples(name).attempted for name in names) >= 10
