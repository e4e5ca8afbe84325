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


# --- the HTTP input surfaces (scripts/fuzz/http.py): every slot once per kind of input, then a few random cases

HTTP_CASES = 5


@pytest.mark.django_db
@pytest.mark.parametrize("surface", ["http-nested", "http-surrogate", "http-nul", "http-number", "http-body"])
def test_every_input_slot_refuses_hostile_input_cleanly(surface):
    from scripts.fuzz.http import EXAMPLES, SLOTS, check_case

    failures = []
    for slot in SLOTS:
        try:
            check_case((slot, EXAMPLES[surface]))
        except AssertionError as exc:
            failures.append(str(exc)[:400])
    assert not failures, "\n".join(failures)


@pytest.mark.django_db
@pytest.mark.parametrize("surface", ["http-nested", "http-surrogate", "http-nul", "http-number", "http-body"])
def test_http_fuzz_target_holds(surface):
    from scripts.fuzz.http import TARGETS

    strategy, check = TARGETS[surface]

    @settings(max_examples=HTTP_CASES, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def run(example):
        check(example)

    run()
