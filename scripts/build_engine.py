"""Compile the rules engine (simulator/engines/r1/) to C with mypyc: `make install` runs it. Same as `python -m scripts.build_native r1`.

    python -m scripts.build_engine            # build when the sources changed since the last build
    python -m scripts.build_engine --force    # build anyway
    python -m scripts.build_engine --clean    # remove the compiled modules (the engine then runs as plain Python)
"""
from __future__ import annotations

import sys

from scripts.build_native import main

if __name__ == "__main__":
    sys.exit(main(engine="r1"))
