"""The examples in the cards app's docstrings run and hold."""
import pytest

from tests.doctests import run_examples

MODULES = ["cards.games.r1.facts", "cards.cardfile", "cards.search", "cards.images", "cards.games.registry",
           "cards.games.query"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = run_examples(name)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (printed above)"


def test_the_cards_app_has_examples():
    assert sum(run_examples(name).attempted for name in MODULES) >= 8
