"""What one player may know of a game (CONTRACTS §3 "Policies"): `PlayerView`, which policies receive instead of
the game, and `determinize`, a game consistent with that knowledge for a search player.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import random

from .cards import CardDef
from .state import ASIDE, DECK, HAND, PUBLIC_ZONE, QDECK, SECRET, IllegalAction, Struggle, fisher_yates

if TYPE_CHECKING:
    from .game import Game


# the zones _sees tests, as constants the compiled build inlines (state.py's are names looked up in the module)
_DECK: Final = 0
_HAND: Final = 1
_SECRET: Final = 5
_ASIDE: Final = 15
assert (_DECK, _HAND, _SECRET, _ASIDE) == (DECK, HAND, SECRET, ASIDE)

HIDDEN: Final = CardDef({"code": "hidden", "name": "a card this player cannot see", "type": "hidden", "faction": "none"})
"""What a view's `cdef` holds for a card its player may not see."""


class PlayerView:
    """What player `player` may know of a game, read-only: the public zones (§3.1: fields, discard piles, dead
    piles, used quests, active quests, faction and destiny cards, counters, emblems, exhaustion, pools,
    Influence), its own hand and secret area, and only the sizes of the opponent's hand, secret area and both
    decks (never a deck's order). Policies receive this instead of the Game.

    The lists it exposes are the game's own (read them, never change them), but for `cdef`: the definition of
    each card id this player may see, and `HIDDEN` for each one it may not (its own deck, whose order it does not
    know, and the opponent's cards in hand, deck, secret area or facedown opening board that were never in a
    public zone: the cards `determinize` deals again), besides the cards its own pending decision names (the card
    a Scout looks at, the cards a search finds). A hidden card's id appears in no other list of the view either,
    and `zone_of` answers -1 for it.

    `determinize(rng)` gives a whole Game consistent with what the player knows, for a search player.
    """

    def __init__(self, g: Game, p: int):
        self._g = g
        self.player = p
        self.opponent = 1 - p
        # the card table as this player sees it: the game's, with HIDDEN for each card it may not see, kept up to
        # date from the ids the game logs as they change (`shown`) whenever the view is handed out (Game.view, a
        # policy's turn to choose): a card move costs the game one list append, and policies index a plain list
        self.cdef: list[CardDef] = []
        self._looked = 0
        self._build()
        self.owner = g.owner
        self.field = g.field
        self.discard = g.discard
        self.dead = g.dead
        self.qused = g.qused
        self.out = g.out
        self.exh = g.exh
        self.emb = g.emb
        self.cnt = g.cnt
        self.ctrl = g.ctrl
        self.pool = g.pool
        self.infl = g.infl
        self.quest = g.quest
        self.faction_iid = g.faction_iid
        self.destiny_iid = g.destiny_iid
        self.goldfish = g.goldfish
        self.has_abilities = g.has_abilities
        self.my_hand = g.hand[p]
        self.my_secret = g.secret[p]
        self.my_deck: Any = g.decks[p]   # the player's own decklist (a Deck), not its order

    # the state of the game --------------------------------------------------
    def look(self) -> None:
        """Bring `cdef` up to date with the game (Game.view and play() call it before handing the view out)."""
        g = self._g
        log = g.shown
        n = len(log)
        k = self._looked
        if k == n:
            return
        table = self.cdef
        cdef = g.cdef
        while len(table) < len(cdef):   # tokens made since (§3.8)
            table.append(cdef[len(table)])
        zone = g.zone
        owner = g.owner
        p = self.player
        while k < n:
            i = log[k]
            if owner[i] == p and zone[i] != _DECK:   # its own card out of its deck, the usual case: no call
                table[i] = cdef[i]
            else:
                table[i] = cdef[i] if self._sees(i) else HIDDEN
            k += 1
        self._looked = n

    def _build(self) -> None:
        g = self._g
        table = self.cdef
        table.extend(g.cdef)
        p = self.player
        q = 1 - p
        for i in g.deck[p]:
            table[i] = HIDDEN
        seen = g.seen
        anyseen = 1 in seen   # at a game's start nothing was: one scan instead of a look-up a card
        for zone in (g.hand[q], g.deck[q], g.secret[q], g.aside[q]):
            for i in zone:
                if not anyseen or not seen[i]:
                    table[i] = HIDDEN
        dec = g.pending
        if dec is not None and dec.player == p and dec.kind != "window":
            for o in dec.options:   # what its own decision names (as _sees)
                if type(o) is tuple:
                    for x in o:
                        if type(x) is int and table[x] is HIDDEN:
                            table[x] = g.cdef[x]
        self._looked = len(g.shown)

    def _sees(self, i: int) -> bool:
        """Whether this player may see card id i now: not its own deck (its order), not the opponent's hand, deck,
        secret area or facedown board where the card was never in a public zone (the cards `determinize` deals
        again) — unless its own pending decision names the card (the card a Scout looks at, a search's finds)."""
        g = self._g
        p = self.player
        z = g.zone[i]
        if g.owner[i] == p:
            if z != _DECK:
                return True
        elif not (z == _HAND or z == _DECK or z == _SECRET or z == _ASIDE) or g.seen[i]:
            return True
        dec = g.pending
        if dec is not None and dec.player == p and dec.kind != "window":
            for o in dec.options:
                if type(o) is tuple and i in o:
                    return True
        return False

    @property
    def round_no(self) -> int:
        return self._g.round_no

    @property
    def phase(self) -> int:
        return self._g.phase

    @property
    def active(self) -> int:
        return self._g.active

    @property
    def first(self) -> int:
        return self._g.first

    @property
    def authority(self) -> int:
        return self._g.authority

    @property
    def struggle(self) -> Struggle | None:
        return self._g.struggle

    @property
    def struggles_done(self) -> set:
        """The struggle types the active player already initiated this turn (§5.4)."""
        return self._g.struggles_done[self._g.active] if self._g.active >= 0 else set()

    @property
    def n_act(self) -> int:
        """How many of the player's cards could take an action in a window (0: it can only pass)."""
        return self._g.n_act[self.player]

    def hand_count(self, q: int) -> int:
        return len(self._g.hand[q])

    def deck_count(self, q: int) -> int:
        return len(self._g.deck[q])

    def secret_count(self, q: int) -> int:
        return len(self._g.secret[q])

    def quest_deck_count(self, q: int) -> int:
        return len(self._g.qdeck[q])

    def zone_of(self, iid: int) -> int:
        """The zone of a card (the ZONE constants), or -1 for a card in a zone this player cannot see."""
        g = self._g
        z = g.zone[iid]
        if PUBLIC_ZONE[z] or (g.owner[iid] == self.player and z != DECK and z != QDECK):
            return z
        return -1

    # characteristics (public for the cards the player can see) -------------
    def power(self, iid: int) -> int:
        return self._g.power(iid)

    def kw(self, iid: int) -> int:
        return self._g.kw(iid)

    def kw_param(self, iid: int, bit: int) -> int:
        return self._g.kw_param(iid, bit)

    def has_rule(self, iid: int, rule: str) -> bool:
        return self._g.has_rule(iid, rule)

    def rule_active(self, rule: str) -> bool:
        """Whether any static "cannot"/rule ability of that name is in force now (a cheap test before has_rule)."""
        g = self._g
        if not g.has_abilities:
            return False
        if g._statics_cache is None:
            g._statics()
        return rule in g._st_rule_by

    def play_cost(self, p: int, iid: int) -> int:
        return self._g.play_cost(p, iid)

    def loyalty_surcharge(self, p: int, d: CardDef) -> int:
        return self._g.loyalty_surcharge(p, d)

    def quest_stat(self, p: int, stat: str) -> int:
        return self._g.quest_stat(p, stat)

    def authority_total(self, p: int, known: dict[int, int] | None = None) -> int:
        return self._g.authority_total(p, known)

    def authority_bonus(self, p: int) -> int:
        """What static abilities add to p's Authority total (§5.5), apart from its ready units and its pool."""
        g = self._g
        return g._player_static(p, "authority") if g.has_abilities else 0

    def influence(self, p: int) -> int:
        return self._g.influence(p)

    def struggle_totals(self, s: Struggle) -> tuple[int, int]:
        return self._g.struggle_totals(s)

    def target_candidates(self, sel: Any, src: int, ab: Any, is_deed: bool = False) -> list[int]:
        """The cards an ability of the player's card `src` could target now, without the hidden ones."""
        g = self._g
        p = self.player
        return [j for j in g._target_candidates(sel, p, src, ab, None, is_deed)
                if PUBLIC_ZONE[g.zone[j]] or g.owner[j] == p]

    def state_text(self) -> str:
        """The game's state_text() with the opponent's hand hidden (only its size)."""
        g = self._g
        q = self.opponent
        lines = g.state_text().split("\n")
        hidden = ",".join("?" for _ in g.hand[q])
        lines[1 + q] = lines[1 + q].replace(
            "hand=[" + ",".join(g.cdef[i].code + ("*" if g.exh[i] else "") + ("!" * g.emb[i])
                                for i in g.hand[q]) + "]", "hand=[" + hidden + "]", 1)
        return "\n".join(lines)

    # a search player's sample ------------------------------------------------
    def unseen_groups(self) -> list[list[int]]:
        """The card ids whose identity this player does not know, in groups that may be dealt among themselves:
        its own deck (order only), and the opponent's draw cards in its hand, deck, secret area or facedown
        opening board that have never been in a public zone."""
        g = self._g
        p = self.player
        own = [i for i in g.deck[p]]
        q = 1 - p
        theirs = [i for z in (g.hand[q], g.deck[q], g.secret[q], g.aside[q]) for i in z if not g.seen[i]]
        return [own, theirs]

    def determinize(self, rng: random.Random, tries: int = 20) -> Game:
        """A Game consistent with what this player knows: the cards it has not seen are dealt again at random
        (own deck order; the opponent's unseen hand, secret area and deck, from the opponent's decklist) into a
        copy of the state at the start of the current step of the flow, the choices made since in this step are
        replayed on that deal, and the random events after this point come from `rng`. A deal on which a
        recorded choice is no longer legal is drawn again (`tries` times; then only the decks are dealt again,
        then, as a last resort, the cards stay as they are). So is a deal on which the world would wait at
        another decision than the game — the opponent's dealt hand would have opened a window this player saw it
        did not have, say: the player knows which decision it is at, and with its own decision its options. The
        result has no policies and no log: drive it with legal_actions / apply_action / clone / returns."""
        g = self._g
        # only the decks' cards are dealt: tokens made during play (§10) are never hidden cards
        groups = [[i for i in grp if i < g.printed] for grp in self.unseen_groups()]
        dec = g.pending
        if dec is not None and dec.player == self.player:
            # the cards its own decision names are known to it (the card a Scout looks at, §9.3)
            named = {x for o in dec.options if type(o) is tuple for x in o if type(x) is int}
            groups = [[i for i in grp if i not in named] for grp in groups]
        snap = g._snapshot()
        for attempt in range(tries + 2):
            pairs: list[tuple[int, int]] = []
            if attempt < tries + 1:
                if attempt == tries:   # only the decks: a card that was in a hand stays
                    groups = [[i for i in grp if g.zone[i] == DECK] for grp in groups]
                for grp in groups:
                    dealt = list(grp)
                    fisher_yates(rng, dealt)
                    pairs.extend(zip(grp, dealt))
            try:
                out = g._resumed(_dealt(snap, pairs), False)
            except IllegalAction:
                continue
            if pairs and not self._same_decision(out):
                continue
            out.reseed(int(rng.random() * 281474976710656))
            return out
        raise AssertionError("unreachable: the cards as they are always replay")

    def _same_decision(self, w: Game) -> bool:
        """Whether world `w` waits at the decision the game waits at, as this player sees it: the same kind and
        player, and for its own decision the same options (where the game's policy filters the options of its
        windows, `ability_filter`, the world, which has no policy, offers those and maybe more)."""
        g = self._g
        a, b = g.pending, w.pending
        if a is None or b is None:
            return a is b
        if a.kind != b.kind or a.player != b.player:
            return False
        if a.player != self.player or a.options == b.options:
            return True
        if g.ability_filter[a.player] is None:
            return False
        return all(o in b.options for o in a.options)


def _dealt(snap: Game, pairs: list[tuple[int, int]]) -> Game:
    """A copy of the snapshot `snap` in which card id i is the card id j was, for each (i, j) of `pairs` (a
    permutation of hidden card ids within one owner's cards): the cards are dealt again where they lie. A card in
    a hand that listens for an event or has an Action is counted out and in again (State._hook)."""
    out = snap._take_snapshot(False)
    if not pairs:
        return out
    cdef = snap.cdef
    base = snap.card_map if snap.card_map is not None else list(range(snap.printed))
    card_map = list(base)
    for i, j in pairs:   # the whole permutation, copies of one card included: the map stays a permutation
        card_map[i] = base[j]
    out.card_map = card_map
    moved = [(i, j) for i, j in pairs if cdef[i] is not cdef[j]]
    zone = out.zone
    for i, j in moved:
        if zone[i] == HAND and cdef[i].hooks:
            out._hook(i, HAND, -1, out.owner[i])
    for i, j in moved:
        out.cdef[i] = cdef[j]
    for i, j in moved:
        if zone[i] == HAND and cdef[j].hooks:
            out._hook(i, HAND, 1, out.owner[i])
    return out
