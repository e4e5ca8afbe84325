"""Compile one of the site's rules engines to C with mypyc: run by `make install` for each engine.

Each engine's sources stay plain Python and run as they are; the compiled modules only make them faster
(docs/engine.md "Compiled build", docs/games/realms-engine.md and docs/games/regions.md, "Speed"). Each engine
package has a `buildinfo.py` naming the modules it compiles; the package uses its compiled modules only when the hash
of the sources they were built from (`native.txt` beside them) matches the sources on disk, so an edited engine never
runs stale code: it falls back to the .py files until this is run again. The engines are the registered games'
(cards/games/registry.py `engine`) whose package has a buildinfo.py, plus simulator/engines/common.

    python -m scripts.build_native r1             # build when the sources changed since the last build
    python -m scripts.build_native realms --force # build anyway
    python -m scripts.build_native regions --clean  # remove the compiled modules (it then runs as plain Python)
    python -m scripts.build_native common         # the engines' shared code alone (every engine's build does it first)

`python -m scripts.build_engine`, `scripts.build_realms` and `scripts.build_regions` are the same for one engine.
A failed build (no C compiler, say) removes any half-built modules, says why, and exits 1; the site and the tests
still work on the plain-Python modules.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Engine:
    key: str        # the build folder under build/ and the setup script's name
    label: str      # how messages name it
    package: str    # dotted package of the sources
    took: str       # how long a build takes, for the message

    @property
    def folder(self) -> Path:
        return ROOT.joinpath(*self.package.split("."))

    @property
    def group(self) -> str:
        return f"{self.package}.native"   # mypyc's shared runtime library: native__mypyc.*.so in the package


# The engines' shared code (simulator/engines/common) is compiled on its own and first: each engine calls it as an
# ordinary Python module, and it is built before any engine so an engine never runs beside a stale shared module.
COMMON = Engine("common", "shared engine code", "simulator.engines.common", "a few seconds")


def _registered() -> dict[str, Engine]:
    """Every registered game whose engine package has a buildinfo.py (cards/games/registry.py `engine`)."""
    sys.path.insert(0, str(ROOT))
    from cards.games import registry

    out = {}
    for game in registry.games():
        if isinstance(game.engine, str):
            package = game.engine.partition(":")[0].rpartition(".")[0]   # "simulator.engines.r1.spec:SPEC"
            engine = Engine(game.slug, f"{game.slug} engine", package, "a minute or more")
            if (engine.folder / "buildinfo.py").is_file():
                out[game.slug] = engine
    return out


ENGINES = {"common": COMMON, **_registered()}


def _buildinfo(engine: Engine):
    """The package's buildinfo.py, loaded on its own (importing the package would load the engine)."""
    spec = importlib.util.spec_from_file_location(f"_roc_{engine.key}_buildinfo", engine.folder / "buildinfo.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def clean(engine: Engine) -> None:
    info = _buildinfo(engine)
    for p in info.compiled_files():
        p.unlink()
    if info.NATIVE_STAMP.exists():
        info.NATIVE_STAMP.unlink()


def build(engine: Engine, force: bool = False) -> int:
    info = _buildinfo(engine)
    modules = info.COMPILED_MODULES
    want = info.source_hash()
    if not force and info.stamp() == want and all(info.is_compiled(m) for m in modules):
        print(f"{engine.label}: compiled modules are up to date")
        return 0
    try:
        import mypyc  # noqa: F401
    except ImportError:
        print(f"{engine.label}: mypyc is not installed (pip install -e .); it runs as plain Python", file=sys.stderr)
        return 1
    clean(engine)
    build_dir = ROOT / "build" / engine.key
    shutil.rmtree(build_dir / "temp", ignore_errors=True)   # objects an interrupted build left behind
    setup_py = (
        "import sys\n"
        "from setuptools import setup\n"
        "from mypyc.build import mypycify\n"
        "paths = sys.argv[1:]; sys.argv[1:] = ['build_ext', '--inplace', '--build-temp', %r]\n"
        "setup(name=%r, ext_modules=mypycify(\n"
        "    ['--ignore-missing-imports', '--follow-imports=silent', '--check-untyped-defs',\n"
        "     *paths], opt_level='3', group_name=%r))\n"
        % (str(build_dir / "temp"), f"roc-{engine.key}", engine.group)
    )
    build_dir.mkdir(parents=True, exist_ok=True)
    script = build_dir / f"setup_{engine.key}.py"
    script.write_text(setup_py, encoding="utf-8")
    rel = engine.package.replace(".", "/")
    paths = [f"{rel}/{m}.py" for m in modules]
    print(f"{engine.label}: compiling {', '.join(modules)} with mypyc ({engine.took})...", flush=True)
    t0 = time.perf_counter()
    env = dict(os.environ, MYPY_CACHE_DIR=str(build_dir / "mypy_cache"))
    proc = subprocess.run([sys.executable, str(script), *paths], cwd=ROOT, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        clean(engine)
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
        print(f"{engine.label}: the build failed; it runs as plain Python.\n{tail}", file=sys.stderr)
        return 1
    missing = [m for m in modules if not info.is_compiled(m)]
    if missing:
        clean(engine)
        print(f"{engine.label}: the build made no module for {', '.join(sorted(missing))}", file=sys.stderr)
        return 1
    if info.source_hash() != want:   # the sources were edited while they compiled: this build is of neither
        clean(engine)
        print(f"{engine.label}: the sources changed during the build; run it again", file=sys.stderr)
        return 1
    info.NATIVE_STAMP.write_text(f"{want}\n", encoding="utf-8")
    shutil.rmtree(build_dir / "temp", ignore_errors=True)
    print(f"{engine.label}: compiled in {time.perf_counter() - t0:.0f} s")
    return 0


def main(argv: list[str] | None = None, engine: str | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    if engine is None:
        ap.add_argument("engine", choices=sorted(ENGINES), help="which engine to build")
    ap.add_argument("--force", action="store_true", help="build even if the sources have not changed")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    args = ap.parse_args(argv)
    which = ENGINES[engine or args.engine]
    if args.clean:
        clean(which)
        print(f"{which.label}: compiled modules removed")
        return 0
    if which is not COMMON:
        status = build(COMMON, force=args.force)
        if status:
            return status
    return build(which, force=args.force)


if __name__ == "__main__":
    sys.exit(main())
