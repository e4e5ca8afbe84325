"""Fuzzing in the normal suite: a few hundred hypothesis cases per target (scripts/fuzz/targets.py); the nightly
run (`make fuzz`, scripts/fuzz/run.py) asks for at least 10,000 each."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from scripts.fuzz.targets import TARGETS

CASES = {"search": 300, "decklist": 200, "cardfile": 300, "engine": 15}


def _fuzz(name):
    strategy, check = TARGETS[name]

    @settings(max_examples=CASES[name], deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(strategy)
    def run(example):
        check(example)

    run()


@pytest.mark.parametrize("name", ["search", "decklist", "cardfile", "engine"])
def test_fuzz_target_holds(name):
    _fuzz(name)
