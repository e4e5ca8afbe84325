"""The docstring examples of the regions modules run as tests (on the plain-Python modules, in a process of their
own: a compiled build keeps no doctests)."""
from __future__ import annotations

import pytest

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
MODULES = ["simulator.engines.regions", "simulator.engines.regions.game", "simulator.engines.regions.cards",
           "simulator.engines.regions.strategy", "simulator.engines.regions.sim", "cards.games.regions.schema",
           "cards.games.regions.text", "cards.games.regions.frame"]


@pytest.mark.processes
def test_docstring_examples():
    code = ("import doctest, importlib, sys\n"
            f"mods = {MODULES!r}\n"
            "bad = [(m, r.failed) for m in mods for r in [doctest.testmod(importlib.import_module(m))] if r.failed]\n"
            "tried = sum(doctest.testmod(importlib.import_module(m)).attempted for m in mods)\n"
            "print(tried); sys.exit(1 if bad else 0)\n")
    env = dict(os.environ, ROC_REGIONS_PURE="1")
    env.pop("DJANGO_SETTINGS_MODULE", None)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert int(out.stdout.split()[-1]) >= 20
