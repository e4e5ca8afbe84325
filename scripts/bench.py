"""`make bench`: run every benchmark module (scripts/bench_*.py) and write docs/performance.md.

Each module exposes `main() -> str`, returning a Markdown section (a `## Title`, the command that reproduces it,
and medians over several runs). The sections are written in module-name order under a common header.
Run one module alone with `python -m scripts.bench NAME` (e.g. `cards`); the other sections are kept.
"""
import importlib
import os
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "performance.md"
MARK = "<!-- bench:{} -->"


def _existing_sections() -> dict[str, str]:
    if not OUT.exists():
        return {}
    text = OUT.read_text(encoding="utf-8")
    parts = re.split(r"<!-- bench:([a-z0-9_]+) -->\n", text)
    return {parts[i]: parts[i + 1].rstrip() + "\n" for i in range(1, len(parts) - 1, 2)}


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "roc_site.settings.dev")
    sys.path.insert(0, str(ROOT))
    names = sorted(p.stem[len("bench_"):] for p in (ROOT / "scripts").glob("bench_*.py"))
    wanted = argv or names
    sections = _existing_sections()
    for name in wanted:
        if name not in names:
            sys.exit(f"unknown benchmark {name!r}; known: {', '.join(names)}")
        print(f"== bench {name}", flush=True)
        module = importlib.import_module(f"scripts.bench_{name}")
        started = time.perf_counter()
        sections[name] = module.main().rstrip() + "\n"
        print(f"   done in {time.perf_counter() - started:.1f} s", flush=True)
    header = (
        "# Performance\n\n"
        "Written by `make bench` (`python -m scripts.bench [NAME ...]`). Figures are medians over several runs\n"
        "on this project's machines (2 cores, shared and noisy); each section names the command that produced it.\n\n"
        f"Last run: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} · Python {platform.python_version()} · "
        f"{platform.machine()}\n\n"
    )
    body = "\n".join(f"{MARK.format(name)}\n{sections[name]}" for name in sorted(sections))
    OUT.write_text(header + body, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
