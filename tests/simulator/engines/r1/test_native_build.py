"""The compiled engine (mypyc, `make engine`) and the plain-Python one are the same engine: same results, and the
compiled modules are only used when they were built from the sources on disk (simulator/engines/r1/__init__.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import simulator.engines.r1 as engine
from simulator.engines.r1 import buildinfo

ROOT = Path(__file__).resolve().parents[4]

_GAMES = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import simulator.engines.r1 as E, simulator.engines.r1.game as G
from scripts.bench_engine import starter_decks
decks = starter_decks(); names = sorted(decks)
out = []
for i in range(40):
    a, b = names[i % 7], names[(i * 3 + 1) % 7]
    pol = (("greedy", "greedy"), ("random", "greedy"), ("random", "random"))[i % 3]
    r = E.play_game(decks[a], None if i % 4 == 0 else decks[b], seed=i, policies=pol, log=(i % 5 == 0))
    out.append({k: v for k, v in vars(r).items()})
print(json.dumps({"build": E.ENGINE_BUILD, "game_module": G.__file__, "results": out}, sort_keys=True, default=str))
"""


def _run(pure: bool) -> dict:
    env = dict(os.environ)
    env.pop("ROC_ENGINE_PURE", None)
    if pure:
        env["ROC_ENGINE_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", _GAMES, str(ROOT)], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300, check=True)
    return json.loads(out.stdout)


@pytest.mark.processes
def test_pure_python_engine_is_used_when_asked():
    got = _run(pure=True)
    assert got["build"] == "pure"
    assert got["game_module"].endswith("game.py")


ON_CI = os.environ.get("CI") == "true"


NATIVE_READY = all(buildinfo.is_compiled(m) for m in buildinfo.COMPILED_MODULES) \
    and buildinfo.stamp() == buildinfo.source_hash()


@pytest.mark.processes
@pytest.mark.skipif(not NATIVE_READY and not ON_CI, reason="the compiled engine is not built (make engine)")
def test_compiled_engine_plays_exactly_the_games_of_the_pure_python_one():
    """On CI this never skips: a missing or stale compiled engine fails here."""
    native, pure = _run(pure=False), _run(pure=True)
    assert native["build"] == "native" and not native["game_module"].endswith(".py")
    assert native["results"] == pure["results"]


@pytest.mark.skipif(not buildinfo.is_compiled("game"), reason="the compiled engine is not built (make engine)")
def test_a_stale_build_is_never_used(monkeypatch):
    monkeypatch.delenv("ROC_ENGINE_PURE", raising=False)
    monkeypatch.setattr(buildinfo.BUILD, "stamp", lambda: "built-from-other-sources")
    with pytest.warns(RuntimeWarning, match="make engine"):
        assert buildinfo.BUILD.choose() == "pure"
    monkeypatch.setattr(buildinfo.BUILD, "stamp", buildinfo.source_hash)
    assert buildinfo.BUILD.choose() == "native"
