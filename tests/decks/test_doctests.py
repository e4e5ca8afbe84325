"""The examples in the decks modules' docstrings run and hold."""
import doctest

import pytest

from decks import archive, charts, collection, decklist, legality, markdown, pool, stats


@pytest.mark.parametrize("module", [pool, legality, decklist, stats, collection, archive, markdown, charts], ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
