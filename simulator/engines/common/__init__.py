"""What the rules engines share, written once: the protocol every engine offers (protocol.py: the state verbs,
`Decision`, `IllegalAction`, views and `determinize`, action texts, positions), seeded shuffling (shuffle.py) and
the search player's engine-agnostic core (search.py). Pure Python, no Django import, nothing from any one game.

`make install` also compiles the hot-path module (shuffle) with mypyc, like the engines; the compiled module is used
only when it was built from exactly these sources (simulator/nativebuild.py), otherwise, or with
ROC_COMMON_PURE=1, the .py file is imported.
"""
from __future__ import annotations

from .buildinfo import BUILD

ENGINE_BUILD = BUILD.select()   # "native" (compiled with mypyc) or "pure"

from .protocol import Decision, GameResult, GameState, IllegalAction, PlayerView, Policy  # noqa: E402
from .shuffle import fisher_yates  # noqa: E402

__all__ = ["ENGINE_BUILD", "Decision", "GameResult", "GameState", "IllegalAction", "PlayerView", "Policy",
           "fisher_yates"]
