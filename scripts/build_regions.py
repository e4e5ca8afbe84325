"""Compile the Heroes and Regions engine (simulator/engines/regions/) to C with mypyc: `make install` runs it. Same as `python -m scripts.build_native regions`.

    python -m scripts.build_regions            # build when the sources changed since the last build
    python -m scripts.build_regions --force    # build anyway
    python -m scripts.build_regions --clean    # remove the compiled modules (the engine then runs as plain Python)
"""
from __future__ import annotations

import sys

from scripts.build_native import main

if __name__ == "__main__":
    sys.exit(main(engine="regions"))
