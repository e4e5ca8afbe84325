"""The compiled build (make regions-engine) and the plain-Python modules are the same source and play the same
games; without a build, or with ROC_REGIONS_PURE=1, the engine runs as plain Python."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.engines.regions.buildinfo import COMPILED_MODULES, is_compiled, source_hash, stamp

ROOT = Path(__file__).resolve().parents[4]

DIGEST = r"""
import hashlib, json
import simulator.engines.regions as r
ss = r.shipped_strategies(); names = sorted(ss)
h = hashlib.sha256()
for i in range(40):
    a, b = ss[names[i % 5]], ss[names[(i // 5) % 5]]
    res = r.play_game([a, b], seed=i, first_player=i % 2, log=i % 8 == 0)
    h.update(json.dumps([res.scores, res.turns, res.winners, res.score_by_turn, res.bought, res.log]).encode())
g = r.Game(r.CardSet.default(), ["Corin Vale", "Asha Thorne", "Ilse Marrow"], seed=5)
k = 0
while not g.is_terminal():
    opts = g.legal_actions(); g.apply_action(opts[k % len(opts)]); k += 1
    if k % 17 == 0:
        g = r.Game.from_position(g.clone().to_position())
h.update(json.dumps(g.to_position(), sort_keys=True).encode())
print(r.ENGINE_BUILD, h.hexdigest())
"""


def _run(pure: bool) -> tuple[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("ROC_REGIONS_PURE", "DJANGO_SETTINGS_MODULE")}
    if pure:
        env["ROC_REGIONS_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", DIGEST], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=600)
    build, digest = out.stdout.split()
    return build, digest


@pytest.mark.processes
def test_plain_python_when_asked():
    assert _run(pure=True)[0] == "pure"


@pytest.mark.processes
@pytest.mark.skipif(not all(is_compiled(m) for m in COMPILED_MODULES) or stamp() != source_hash(),
                    reason="no up-to-date compiled build (make regions-engine)")
def test_compiled_and_plain_python_play_the_same_games():
    native, pure = _run(pure=False), _run(pure=True)
    assert native[0] == "native" and pure[0] == "pure"
    assert native[1] == pure[1]
