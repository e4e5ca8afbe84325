"""The examples in the engine's docstrings run and hold, on the build in use (compiled or ROC_ENGINE_PURE=1)."""
import pytest

from tests.doctests import run_examples

MODULES = ["simulator.engine", "simulator.engine.cards", "simulator.engine.game",
           "simulator.engine.setup",
           "simulator.engine.abilities", "simulator.engine.actions", "simulator.engine.positions",
           "simulator.engine.policies", "simulator.engine.search", "cards.games.r1.facts"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = run_examples(name)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (printed above)"


def test_the_engine_has_examples():
    assert sum(run_examples(name).attempted for name in MODULES) >= 10
