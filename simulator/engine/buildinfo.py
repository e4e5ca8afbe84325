"""Which engine modules are compiled with mypyc, and whether a compiled build matches the sources.

Shared by `simulator.engine` (which picks the compiled or the pure-Python modules at import) and
scripts/build_engine.py (which builds them); it imports nothing from the engine so the build can load it alone.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
from pathlib import Path

HERE = Path(__file__).resolve().parent
# every engine module except __init__, this file and actions, positions, search (loaded on demand, off the hot path)
COMPILED_MODULES = ("abilities", "cards", "state", "selectors", "characteristics", "changes", "effects", "resolution",
                    "struggles", "opening", "phases", "view", "game", "policies", "setup_rules", "setup")
NATIVE_STAMP = HERE / "native.txt"   # written by the build: the hash of the sources the compiled modules came from


def source_hash() -> str:
    h = hashlib.sha256()
    for name in COMPILED_MODULES:
        h.update((HERE / f"{name}.py").read_bytes())
    return h.hexdigest()


def compiled_files() -> list[Path]:
    """Every extension module in the engine's folder (the modules and mypyc's shared runtime library)."""
    return sorted({p for suffix in importlib.machinery.EXTENSION_SUFFIXES for p in HERE.glob(f"*{suffix}")})


def is_compiled(name: str) -> bool:
    return any((HERE / f"{name}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def stamp() -> str:
    try:
        return NATIVE_STAMP.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError):
        return ""
