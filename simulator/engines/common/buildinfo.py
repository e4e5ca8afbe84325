"""Which modules of `simulator.engines.common` are compiled with mypyc (simulator/nativebuild.py says how they are
used). Only what the engines call on their hot paths: the compiled engines call these as ordinary Python calls,
and a shuffle run by the interpreter would cost each game more than the call does.
"""
from __future__ import annotations

from pathlib import Path

from simulator.nativebuild import NativeBuild

HERE = Path(__file__).resolve().parent
COMPILED_MODULES = ("shuffle",)
BUILD = NativeBuild("simulator.engines.common", HERE, COMPILED_MODULES, "ROC_COMMON_PURE",
                    "Run `make install` (or `python -m scripts.build_native common`) to rebuild them.")
NATIVE_STAMP = BUILD.stamp_file
source_hash, compiled_files, is_compiled, stamp = BUILD.source_hash, BUILD.compiled_files, BUILD.is_compiled, BUILD.stamp
