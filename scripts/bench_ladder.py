"""`make bench` hook for the policy ladder (scripts/ladder.py): a small ladder whose section goes into
docs/performance.md (docs/engine.md keeps the full ladder, `python -m scripts.ladder --write`).

The full ladder takes an hour of CPU (expert plays a game in about a CPU-second); `make bench` runs a smaller
one, sized by LADDER_GAMES / LADDER_EXPERT_GAMES / LADDER_CAMELOT (defaults 98 / 14 / 40)."""
from __future__ import annotations

import os


def main() -> str:
    from scripts import ladder

    args = ["--games", os.environ.get("LADDER_GAMES", "98"),
            "--expert-games", os.environ.get("LADDER_EXPERT_GAMES", "14"),
            "--camelot", os.environ.get("LADDER_CAMELOT", "40")]
    section = ladder.main(args)
    return section.replace("## Policy ladder", "## Policy ladder (make bench: a small sample; docs/engine.md has the full one)", 1)
