"""The Settlement and the cards' moves (002 §3, §10, §15, R2): the cells a Place may be built on, building,
moving a card between zones, leaving play, a warrior's death, and the Supply Line.

Module-level functions taking the game (`g`), as every layer of the engine (docs/games/realms-engine.md)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import (
    EV_BUILT, EV_DIES, R_BE_KILLED, CardDef,
)
from .state import (
    Z_HAND, Z_DISCARD, Z_ANNIH, Z_VP, Z_SETTLE, Z_BORDER, Z_STRIKE, Z_ATTACHED, Z_RITUAL, Z_LIMBO, ST_BALANCE,
    S_PLACES_BUILT, S_WARRIORS_KILLED, S_WARRIORS_LOST, _adjacent, cell_xy, CELL0, NEIGHBOURS,
)
from . import actions, resources, abilities, statics

if TYPE_CHECKING:
    from .game import Game


def build_cells(g: Game, p: int, d: CardDef) -> list[int]:
    """002 §10, R2: empty cells edge-adjacent to the Leader or a Place, where neither the new Place nor any card
    it touches would have more adjacent cards than its Neighbor Count."""
    nc = d.nc
    return [e for e, count in frontier(g, p) if count <= nc]


def has_cell(g: Game, p: int, nc: int) -> bool:
    """Whether a Place of Neighbor Count nc can be built somewhere (002 §10, R2), from the cached frontier: it is
    computed once per change of the Settlement and the build that follows reads it again (an early-exit scan
    of the grid instead cost more: it is repeated for every Place in hand and every decision until a build)."""
    for _, count in frontier(g, p):
        if count <= nc:
            return True
    return False


# frontier() by Settlement (sorted cell * 8 + Neighbor Count, capped at 5): each list is shared and only read
_FRONTIERS: dict[tuple[int, ...], list[tuple[int, int]]] = {}


def frontier(g: Game, p: int) -> list[tuple[int, int]]:
    """The empty cells next to the Settlement that no neighbour's Neighbor Count forbids, each with how many
    cards it touches (sorted by cell; recomputed only when the Settlement changes)."""
    if g._cells_v[p] == g.grid_v[p]:
        return g._front[p]
    grid = g.grid[p]
    cdef = g.cdef
    # the frontier depends only on the occupied cells and their cards' Neighbor Counts (any count from 5 up
    # forbids nothing: a cell has 4 sides), and the same Settlements recur from game to game: remembered
    codes: list[int] = []
    for c, q in grid.items():
        nc = cdef[q].nc
        codes.append(c * 8 + (nc if nc < 5 else 5))
    codes.sort()
    key = tuple(codes)
    known = _FRONTIERS.get(key)
    if known is not None:
        g._front[p] = known
        g._cells_v[p] = g.grid_v[p]
        return known
    found: list[int] = []   # cell * 8 + count: plain ints sort faster than pairs
    if grid:
        # a small window over the Settlement, two cells of margin (a neighbour's neighbour stays inside), as a
        # flat list: 0 empty, 1 a card, 2 a card that cannot take one more neighbour, 3 an empty cell checked
        # (native int indexing: testing the grid dict boxed every cell number)
        lo_x = lo_y = 1 << 20
        hi_x = hi_y = -1
        for c in grid:
            x = c >> 8
            y = c & 255
            if x < lo_x:
                lo_x = x
            if x > hi_x:
                hi_x = x
            if y < lo_y:
                lo_y = y
            if y > hi_y:
                hi_y = y
        h = hi_y - lo_y + 5
        base = 2 * h + 2 - lo_x * h - lo_y   # window index of cell c: (c >> 8) * h + (c & 255) + base
        occ = [0] * ((hi_x - lo_x + 5) * h)
        for c in grid:
            occ[(c >> 8) * h + (c & 255) + base] = 1
        for c, q in grid.items():
            k = (c >> 8) * h + (c & 255) + base
            if (occ[k + h] != 0) + (occ[k - h] != 0) + (occ[k + 1] != 0) + (occ[k - 1] != 0) >= cdef[q].nc:
                occ[k] = 2
        # the four neighbours written out: a variable index into a fixed tuple boxes the tuple in compiled code
        for c in grid:
            k = (c >> 8) * h + (c & 255) + base
            _probe(occ, k + h, h, c + 256, found)
            _probe(occ, k - h, h, c - 256, found)
            _probe(occ, k + 1, h, c + 1, found)
            _probe(occ, k - 1, h, c - 1, found)
    found.sort()
    out = [(e >> 3, e & 7) for e in found]
    if len(_FRONTIERS) >= 20_000:
        _FRONTIERS.clear()   # bounded: a long-lived worker plays many decks
    _FRONTIERS[key] = out
    g._front[p] = out
    g._cells_v[p] = g.grid_v[p]
    return out


def _probe(occ: list[int], ke: int, h: int, cell: int, found: list[int]) -> None:
    """frontier()'s test of one empty cell (window index ke): buildable unless a neighbour is a card that cannot take
    one more neighbour; its count is how many cards it touches."""
    if occ[ke]:
        return   # a card, or already checked
    occ[ke] = 3
    a = occ[ke + h]
    b = occ[ke - h]
    c = occ[ke + 1]
    d = occ[ke - 1]
    if a == 2 or b == 2 or c == 2 or d == 2:
        return
    found.append(cell * 8 + (a == 1) + (b == 1) + (c == 1) + (d == 1))


def neighbours(g: Game, p: int, c: int) -> int:
    return _adjacent(g.grid[p], c)


def build(g: Game, p: int, i: int, c: int) -> None:
    d = g.cdef[i]
    cost = statics.cost(g, i, p)
    g.reserve[p] -= cost
    actions.count_play(g, p, d)
    move(g, i, Z_SETTLE, p)
    g.cell[i] = c
    g.grid[p][c] = i
    g.grid_v[p] += 1
    supply(g, p, quiet=i)
    x, y = cell_xy(c)
    if g.logs is not None:
        g._log(p, "002 §10", f"builds {d.name} at {x},{y} ({cost} Gold)")
    g.stats[p][S_PLACES_BUILT] += 1
    abilities.fire_card(g, EV_BUILT, i)
    actions.enters(g, i, p)


# ---- moving cards ---------------------------------------------------------------------------------
def move(g: Game, i: int, zone: int, p: int) -> None:
    """Put card i into zone of player p's lists (no rules: callers apply them)."""
    old = g.zone[i]
    g.z[g.where[i]][old].remove(i)
    g.zone[i] = zone
    g.where[i] = p
    g.z[p][zone].append(i)
    if zone == Z_BORDER or zone == Z_STRIKE or old == Z_BORDER or old == Z_STRIKE:
        g._grp_v += 1   # the warriors who could group changed
    if Z_SETTLE <= zone <= Z_LIMBO or zone in (Z_DISCARD, Z_ANNIH, Z_VP):
        g.seen[i] = 3
    if (Z_SETTLE <= zone <= Z_RITUAL) or (Z_SETTLE <= old <= Z_RITUAL):
        # the statics and listeners in force (statics.refresh) change only with a card that has abilities in
        # play, or a host whose attachments then come in another order
        if g.cdef[i].in_play_abilities or i in g.atts:
            g._dirty = True
        g._ipc[0] = None
        g._ipc[1] = None
        now = Z_SETTLE <= zone <= Z_RITUAL
        if now != (Z_SETTLE <= old <= Z_RITUAL):
            trig = g.cdef[i].triggers
            if trig:
                for ab in trig:
                    g.n_trig[ab.event] += 1 if now else -1


def leave(g: Game, i: int, dest: int, to: int = -1) -> None:
    """Card i leaves play for dest (discard, annihilated, hand, a VP pile); its attachments are discarded, its
    Group loses it, its Place's cell empties (002 §3, §11, §15)."""
    o = g.owner[i]
    for a in g.atts.pop(i, []):
        if g.zone[a] == Z_ATTACHED:
            g.host[a] = -1
            leave(g, a, Z_DISCARD)
    h = g.host[i]
    if h >= 0:
        lst = g.atts.get(h)
        if lst is not None and i in lst:
            lst.remove(i)
        g.host[i] = -1
    was_place = g.zone[i] == Z_SETTLE
    gid = g.group[i]
    if gid:
        actions.leave_group(g, i, gid)
    move(g, i, dest, o if to < 0 else to)
    if dest == Z_HAND:
        g.seen[i] = 3
    if was_place:
        c = g.cell[i]
        if g.grid[o].get(c) == i:
            del g.grid[o][c]
            g.grid_v[o] += 1
        g.cell[i] = -1
        g.supplied[i] = False
        supply(g, o)
    if g.tmp:
        g.tmp = [t for t in g.tmp if t.target != i]
        abilities.count_tmp(g)
    g.part[i] = 0
    cb = g.cb
    if cb is not None:
        if i in cb.att:
            cb.att.remove(i)
        if i in cb.dfn:
            cb.dfn.remove(i)
    if g.cdef[i].in_play_abilities:
        g._dirty = True


def kill(g: Game, i: int, why: str) -> None:
    """A warrior dies (to its owner's discard pile, with its attachments); `dies` triggers follow."""
    if g.zone[i] not in (Z_BORDER, Z_STRIKE):
        return
    if not statics.allowed(g, i, R_BE_KILLED):
        if g.logs is not None:
            g._log(g.owner[i], "002 §16", f"{g.cdef[i].name} cannot be killed")
        return
    frames = abilities.collect(g, EV_DIES, i)
    o = g.owner[i]
    if g.logs is not None:
        g._log(o, why, f"{g.cdef[i].name} dies")
    g.stats[o][S_WARRIORS_LOST] += 1
    g.stats[1 - o][S_WARRIORS_KILLED] += 1
    leave(g, i, Z_DISCARD)
    abilities.push_frames(g, frames)


def supply(g: Game, p: int, quiet: int = -1) -> None:
    """002 §15: a Place is supplied while an unbroken path of adjacent cards joins it to the Leader."""
    grid = g.grid[p]
    supplied = g.supplied
    if quiet >= 0:
        # a Place just built beside a supplied card, in a Settlement where every Place is supplied: it is
        # supplied and nothing else changes (a new card can only reconnect cards that were cut off)
        c = g.cell[quiet]
        near = False
        for dn in NEIGHBOURS:
            q = grid.get(c + dn, -1)
            if q >= 0 and supplied[q]:
                near = True
                break
        if near and all(supplied[i] for i in g.z[p][Z_SETTLE] if i != quiet):
            if not supplied[quiet]:
                supplied[quiet] = True
                if g.cdef[quiet].in_play_abilities:   # only its own abilities start to work (statics.refresh)
                    g._dirty = True
            return
    reach = {CELL0} if CELL0 in grid else set()
    todo = list(reach)
    while todo:
        c = todo.pop()
        for dn in NEIGHBOURS:
            e = c + dn
            if e in grid and e not in reach:
                reach.add(e)
                todo.append(e)
    cut: list[int] = []
    if g.step == ST_BALANCE and p == g.active and g.bal_avail[0] >= 0:
        # a Place cut off in the middle of its owner's balancing: what it was counted for is taken back
        # while its icons still read as they did when it was counted (002 §12, §15)
        cut = [i for c, i in grid.items() if supplied[i] and c not in reach]
        if cut:
            resources.bal_withdraw(g, p, cut)
    for c, i in grid.items():
        s = c in reach
        if g.supplied[i] != s:
            g.supplied[i] = s
            if g.cdef[i].in_play_abilities:   # only its own abilities start or stop (statics.refresh)
                g._dirty = True
            if i != g.leader[p] and i != quiet:
                if g.logs is not None:
                    g._log(p, "002 §15", f"{g.cdef[i].name} is "
                                            f"{'supplied again' if s else 'cut off from the Supply Line'}")
    if cut:
        resources.bal_unpay(g, p)
