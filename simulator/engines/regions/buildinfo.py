"""Which modules of `simulator.engines.regions` are compiled with mypyc (simulator/nativebuild.py says how they are used).

Shared by the package's __init__ (which picks the compiled or the plain-Python modules at import) and
scripts/build_regions.py (which builds them); it imports nothing from the engine so the build can load it alone.
"""
from __future__ import annotations

from pathlib import Path

from simulator.nativebuild import NativeBuild

HERE = Path(__file__).resolve().parent
# the rules engine by layer (docs/games/regions.md), the player's view, the strategy player; __init__, position,
# replay, search, sim and this file stay Python
COMPILED_MODULES = ("cards", "state", "game", "effects", "market", "cleanup", "texts", "view", "policies", "strategy")
BUILD = NativeBuild("simulator.engines.regions", HERE, COMPILED_MODULES, "ROC_REGIONS_PURE",
                    "Run `make regions-engine` to rebuild them.")
NATIVE_STAMP = BUILD.stamp_file
source_hash, compiled_files, is_compiled, stamp = BUILD.source_hash, BUILD.compiled_files, BUILD.is_compiled, BUILD.stamp
