"""Compiled or plain Python: how each rules engine picks its modules at import (no Django, nothing from an engine).

Every engine package (`simulator.engines.r1`, `simulator.engines.realms`, `simulator.engines.regions`) is plain Python,
and scripts/build_native.py also compiles some of its modules to C with mypyc, unchanged, for speed. The package's
`buildinfo.py` names those modules in a `NativeBuild`; the compiled modules are used only when they were built from
exactly the sources on disk (the hash in `native.txt` beside them), and never when the package's `ROC_…_PURE`
variable is set: then the .py files are imported even where compiled modules sit beside them.
"""
from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path


class NativeBuild:
    def __init__(self, package: str, here: Path, modules: tuple[str, ...], pure_variable: str, rebuild: str) -> None:
        self.package = package              # the dotted package, e.g. "simulator.engines.r1"
        self.here = here
        self.modules = modules
        self.pure_variable = pure_variable  # set to anything but "" or "0": always the .py files
        self.rebuild = rebuild              # what the stale-build warning tells the reader to run
        self.stamp_file = here / "native.txt"   # written by the build: the hash of the sources it compiled

    def source_hash(self) -> str:
        h = hashlib.sha256()
        for name in self.modules:
            h.update((self.here / f"{name}.py").read_bytes())
        return h.hexdigest()

    def compiled_files(self) -> list[Path]:
        """Every extension module in the package's folder (the modules and mypyc's shared runtime library)."""
        return sorted({p for suffix in importlib.machinery.EXTENSION_SUFFIXES for p in self.here.glob(f"*{suffix}")})

    def is_compiled(self, name: str) -> bool:
        return any((self.here / f"{name}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)

    def stamp(self) -> str:
        try:
            return self.stamp_file.read_text(encoding="utf-8").split()[0]
        except (OSError, IndexError):
            return ""

    def choose(self) -> str:
        """"native" when the compiled modules are there, current and wanted, else "pure"."""
        if not all(self.is_compiled(m) for m in self.modules):
            return "pure"
        if os.environ.get(self.pure_variable, "") not in ("", "0"):
            return "pure"
        if self.stamp() != self.source_hash():
            warnings.warn(f"{self.package}: the compiled modules were built from other sources than these; using "
                          f"the plain-Python modules. {self.rebuild}", RuntimeWarning, stacklevel=3)
            return "pure"
        return "native"

    def select(self) -> str:
        """`choose()`, and with "pure" the package's .py files are what `import` finds from now on."""
        build = self.choose()
        if build == "pure" and any(self.is_compiled(m) for m in self.modules):
            sys.meta_path.insert(0, _PlainFinder(self))
        return build


class _PlainFinder(importlib.abc.MetaPathFinder):
    """Imports a package's .py files even where compiled modules sit beside them."""

    def __init__(self, build: NativeBuild) -> None:
        self.build = build

    def find_spec(self, fullname, path, target=None):
        pkg, _, name = fullname.rpartition(".")
        if pkg == self.build.package and name in self.build.modules:
            return importlib.util.spec_from_file_location(fullname, self.build.here / f"{name}.py")
        return None
