"""Which modules of `simulator.engines.r1` are compiled with mypyc (simulator/nativebuild.py says how they are used).

Shared by the package's __init__ (which picks the compiled or the plain-Python modules at import) and
scripts/build_engine.py (which builds them); it imports nothing from the engine so the build can load it alone.
"""
from __future__ import annotations

from pathlib import Path

from simulator.nativebuild import NativeBuild

HERE = Path(__file__).resolve().parent
# every engine module except __init__, this file and actions, positions, search (loaded on demand, off the hot path)
COMPILED_MODULES = ("abilities", "cards", "state", "selectors", "characteristics", "changes", "effect_base",
                    "effects_zones", "effects", "resolution", "struggles", "opening", "phases", "view", "game",
                    "greedy_base", "policies", "setup_rules", "setup")
BUILD = NativeBuild("simulator.engines.r1", HERE, COMPILED_MODULES, "ROC_ENGINE_PURE",
                    "Run `make engine` to rebuild them.")
NATIVE_STAMP = BUILD.stamp_file
source_hash, compiled_files, is_compiled, stamp = BUILD.source_hash, BUILD.compiled_files, BUILD.is_compiled, BUILD.stamp
