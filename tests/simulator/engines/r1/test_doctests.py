"""The examples in the engine's docstrings run and hold, on the build in use (compiled or ROC_ENGINE_PURE=1)."""
import pytest

from tests.doctests import run_examples

MODULES = ["simulator.engines.r1", "simulator.engines.r1.cards", "simulator.engines.r1.game",
           "simulator.engines.r1.setup",
           "simulator.engines.r1.abilities", "simulator.engines.r1.actions", "simulator.engines.r1.positions",
           "simulator.engines.r1.policies", "simulator.engines.r1.search", "cards.games.r1.facts"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = run_examples(name)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (printed above)"


def test_the_engine_has_examples():
    assert sum(run_examples(name).attempted for name in MODULES) >= 10
