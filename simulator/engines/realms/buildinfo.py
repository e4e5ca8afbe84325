"""Which modules of `simulator.engines.realms` are compiled with mypyc (simulator/nativebuild.py says how they are used).

Shared by the package's __init__ (which picks the compiled or the plain-Python modules at import) and
scripts/build_realms.py (which builds them); it imports nothing from the engine so the build can load it alone.
"""
from __future__ import annotations

from pathlib import Path

from simulator.nativebuild import NativeBuild

HERE = Path(__file__).resolve().parent
# the rules engine, layer by layer (docs/games/realms-engine.md), its players and its view; __init__, positions, sim,
# decks, replay, search and this file stay Python
COMPILED_MODULES = ("cards", "state", "game", "settlement", "phases", "actions", "resources", "combat", "raids",
                    "abilities", "statics", "texts", "policies", "view")
BUILD = NativeBuild("simulator.engines.realms", HERE, COMPILED_MODULES, "ROC_REALMS_PURE",
                    "Run `python -m scripts.build_realms` to rebuild them.")
NATIVE_STAMP = BUILD.stamp_file
source_hash, compiled_files, is_compiled, stamp = BUILD.source_hash, BUILD.compiled_files, BUILD.is_compiled, BUILD.stamp
