"""What a piece of code leaves in reference cycles: the engines' tests check that a finished game is freed as soon
as nothing refers to it, without waiting for the cycle collector (docs/performance.md, "A finished game is freed at
once")."""
from __future__ import annotations

import gc


def left_in_cycles(play) -> set[str]:
    """The type names of the objects `play()` leaves only in reference cycles (the collector paused meanwhile)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        play()
        gc.collect()
        return {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
