"""Compile the realms rules engine (simulator/engines/realms/) to C with mypyc: `make install` runs it. Same as `python -m scripts.build_native realms`.

    python -m scripts.build_realms            # build when the sources changed since the last build
    python -m scripts.build_realms --force    # build anyway
    python -m scripts.build_realms --clean    # remove the compiled modules (the engine then runs as plain Python)
"""
from __future__ import annotations

import sys

from scripts.build_native import main

if __name__ == "__main__":
    sys.exit(main(engine="realms"))
