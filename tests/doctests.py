"""Running the examples in a module's docstrings as tests, on either build of the engine.

`doctest.testmod` finds examples through the module's function objects, and a module compiled with mypyc has
builtin functions with no source: it would find none there. So the examples are read from the module's source
file (every docstring of the module, its classes and functions) and run in the namespace of the module as
imported — the compiled one when the compiled build is in use, the .py one under ROC_ENGINE_PURE=1.
"""
from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def source_of(name: str) -> Path:
    base = ROOT.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def run_examples(name: str) -> doctest.TestResults:
    """Run every docstring example of the module `name`; the failures are printed with their line numbers."""
    module = importlib.import_module(name)
    path = source_of(name)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(verbose=False)
    for node in (tree, *ast.walk(tree)):
        if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        doc = ast.get_docstring(node, clean=True)
        if not doc or ">>>" not in doc:
            continue
        where = name if isinstance(node, ast.Module) else f"{name}.{node.name}"
        line = 0 if isinstance(node, ast.Module) else node.lineno
        test = parser.get_doctest(doc, dict(vars(module)), where, str(path), line)
        runner.run(test)
    return runner.summarize(verbose=False)
