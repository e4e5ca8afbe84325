"""Compile the Heroes and Regions engine (simulator/engines/regions/) to C with mypyc: `make regions-engine`, run by
`make install`.

The sources stay plain Python and run as they are; the compiled modules only make them about three times faster
(docs/games/regions.md, "Speed"). `simulator.engines.regions` uses the compiled modules only when the hash of the
sources they were built from (native.txt beside them) matches the sources on disk, so an edited engine never runs
stale code: it falls back to the .py files until this is run again. `ROC_REGIONS_PURE=1` forces the .py files.

    python -m scripts.build_regions            # build when the sources changed since the last build
    python -m scripts.build_regions --force    # build anyway
    python -m scripts.build_regions --clean    # remove the compiled modules (the engine then runs as plain Python)

A failed build (no C compiler, say) removes any half-built modules, says why, and exits 1; everything still works
on the plain-Python engine.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "simulator" / "engines" / "regions"
BUILD_DIR = ROOT / "build" / "regions"


def _buildinfo():
    """The package's buildinfo.py, loaded on its own (importing the package would load the engine)."""
    spec = importlib.util.spec_from_file_location("_roc_regions_buildinfo", PACKAGE / "buildinfo.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def clean() -> None:
    info = _buildinfo()
    for p in info.compiled_files():
        p.unlink()
    if info.NATIVE_STAMP.exists():
        info.NATIVE_STAMP.unlink()


def build(force: bool = False) -> int:
    info = _buildinfo()
    modules = info.COMPILED_MODULES
    want = info.source_hash()
    if not force and info.stamp() == want and all(info.is_compiled(m) for m in modules):
        print("regions engine: compiled modules are up to date")
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print("regions engine: mypyc is not installed (pip install -e .); it runs as plain Python", file=sys.stderr)
        return 1
    clean()
    setup_py = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "paths = sys.argv[1:]; sys.argv[1:] = ['build_ext', '--inplace', '--build-temp', %r]\n"
        "setup(name='roc-regions-engine', ext_modules=mypycify(\n"
        "    ['--ignore-missing-imports', '--follow-imports=silent', *paths], opt_level='3', group_name=%r))\n"
        % (str(BUILD_DIR / "temp"), info.GROUP)
    )
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    script = BUILD_DIR / "setup_regions.py"
    script.write_text(setup_py, encoding="utf-8")
    paths = [f"simulator/engines/regions/{m}.py" for m in modules]
    print(f"regions engine: compiling {', '.join(modules)} with mypyc (about a minute)...", flush=True)
    t0 = time.perf_counter()
    env = dict(os.environ, MYPY_CACHE_DIR=str(BUILD_DIR / "mypy_cache"))
    proc = subprocess.run([sys.executable, str(script), *paths], cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        clean()
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        print(f"regions engine: the build failed; it runs as plain Python.\n{tail}", file=sys.stderr)
        return 1
    missing = [m for m in modules if not info.is_compiled(m)]
    if missing:
        clean()
        print(f"regions engine: the build made no module for {', '.join(sorted(missing))}", file=sys.stderr)
        return 1
    info.NATIVE_STAMP.write_text(f"{want}\n", encoding="utf-8")
    shutil.rmtree(BUILD_DIR / "temp", ignore_errors=True)
    print(f"regions engine: compiled in {time.perf_counter() - t0:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--force", action="store_true", help="build even if the sources have not changed")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = ap.parse_args(argv)
    if args.clean:
        clean()
        print("regions engine: compiled modules removed")
        return 0
    return build(force=args.force)


if __name__ == "__main__":
    sys.exit(main())
