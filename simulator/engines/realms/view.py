"""What one player may know of a realms game (simulator/engines/common/protocol.py `view(p)`), and determinization.

A `PlayerView` is a read-only window on a live `Game` for player p: the public board (both Realms, VP, Reserves,
discard piles, VP piles, annihilated cards), p's own hand, the sizes of everything else, and the engine's rule
computations over that information (CV, Tactics, rule modes, legal raids, the balancing projection). It never
shows the opponent's hand or set-aside cards, nor either deck's order: `card(i)` of such a card raises.
Policies decide from a view (CONTRACTS §3: "a policy decides only from what its player may know").

`view.determinize(rng)` returns a full `Game` consistent with the view: the cards p cannot see — the opponent's
hand (except cards p saw go there: searched, recovered or returned from play), the opponent's set-aside cards and
deck, p's own deck and p's own unseen set-aside cards — dealt again at random from what could be there (each
player's unseen cards keep their zones' sizes), and a fresh random stream for the future. A search player plays
out such games (ENGINE-NOTES "Information sets, not peeking").
"""
from __future__ import annotations

import random
from typing import Any

from .cards import CardDef
from . import actions, combat, raids, resources, settlement, statics, texts
from .game import Z_ASIDE, Z_BORDER, Z_DECK, Z_DISCARD, Z_HAND, Z_RITUAL, Z_SETTLE, Z_STRIKE, Decision, Game


class HiddenCard(LookupError):
    """The viewer may not know which card this is."""


class PublicView:
    """The board as everyone sees it, from player `player`'s seat (live: it follows the game as it goes on): the
    step, both Realms, VP, Reserves, the sizes of hidden zones. PlayerView adds what the player alone knows."""

    __slots__ = ("_g", "player", "opponent")

    def __init__(self, game: Game, player: int) -> None:
        self._g = game
        self.player = player
        self.opponent = 1 - player

    # ---- the public state ----------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._g.turn

    @property
    def round(self) -> int:
        return self._g.round

    @property
    def step(self) -> str:
        from .game import STEP_NAMES
        return STEP_NAMES[self._g.step]

    @property
    def active(self) -> int:
        return self._g.active

    @property
    def first_player(self) -> int:
        return self._g.first

    @property
    def target_vp(self) -> int:
        return self._g.target_vp

    @property
    def simplified(self) -> bool:
        return self._g.simplified

    @property
    def over(self) -> bool:
        return self._g.over

    @property
    def winner(self) -> int | None:
        return self._g.winner

    @property
    def pending(self) -> Decision | None:
        return self._g.pending

    def attack_this_turn(self) -> bool:
        """Whether the active player's Attack and Raid steps happen this turn (R13: not the first player's first)."""
        return not self._g.attack_skip

    def is_goldfish(self, p: int) -> bool:
        """Whether p is the goldfish opponent (a Leader and nothing else: it never acts)."""
        return self._g.decks[p] is None

    def vp(self, p: int) -> int:
        return self._g.vp[p]

    def reserve(self, p: int) -> int:
        return self._g.reserve[p]

    def hand_size(self, p: int) -> int:
        return len(self._g.z[p][Z_HAND])

    def deck_size(self, p: int) -> int:
        return len(self._g.z[p][Z_DECK])

    def set_aside_size(self, p: int) -> int:
        return len(self._g.z[p][Z_ASIDE])

    def discard(self, p: int) -> list[int]:
        """p's discard pile, face up (the set-aside cards lie face down apart: set_aside_size)."""
        return list(self._g.z[p][Z_DISCARD])

    def leader(self, p: int) -> int:
        return self._g.leader[p]

    def places(self, p: int) -> list[int]:
        g = self._g
        return [i for i in g.z[p][Z_SETTLE] if i != g.leader[p]]

    def settlement(self, p: int) -> list[int]:
        return list(self._g.z[p][Z_SETTLE])

    def borderlands(self, p: int) -> list[int]:
        return list(self._g.z[p][Z_BORDER])

    def strike_force(self, p: int) -> list[int]:
        return list(self._g.z[p][Z_STRIKE])

    def warriors(self, p: int) -> list[int]:
        zs = self._g.z[p]
        return zs[Z_BORDER] + zs[Z_STRIKE]

    def rituals(self, p: int) -> list[int]:
        return list(self._g.z[p][Z_RITUAL])

    def in_play(self, p: int) -> list[int]:
        return list(statics.in_play(self._g, p))

    def attachments(self, i: int) -> list[int]:
        return list(self._g.atts.get(i, ()))

    def host(self, i: int) -> int:
        return self._g.host[i]

    def zone(self, i: int) -> int:
        """The zone code of card i (game.Z_*); cards in hidden zones show their zone, not their identity."""
        return self._g.zone[i]

    def group_of(self, i: int) -> tuple[int, tuple[int, ...]] | None:
        """(kind, members) of the Group card i is in (game.G_OFFENSIVE / G_DEFENSIVE), or None."""
        g = self._g
        gid = g.group[i]
        if not gid:
            return None
        kind, _, members = g.groups[gid]
        return kind, members

    def groups(self, p: int) -> list[tuple[int, tuple[int, ...]]]:
        return [(kind, members) for kind, o, members in self._g.groups.values() if o == p]

    def moved(self, i: int) -> bool:
        return self._g.moved_t[i] == self._g.turn

    def attacked(self, i: int) -> bool:
        return self._g.attacked_t[i] == self._g.turn

    def recruited_this_turn(self, i: int) -> bool:
        return self._g.recruited_t[i] == self._g.turn

    def cell(self, i: int) -> tuple[int, int] | None:
        from .game import cell_xy
        c = self._g.cell[i]
        return cell_xy(c) if c >= 0 else None

    def neighbours(self, p: int, i: int) -> int:
        return settlement.neighbours(self._g, p, self._g.cell[i])



class PlayerView(PublicView):
    """Player `player`'s view of `game`: the public board, its own hand, the cards it has seen, and the engine's
    rule computations over that information; `determinize(rng)` deals the rest."""

    __slots__ = ()

    # ---- cards ---------------------------------------------------------------------------------------
    def knows(self, i: int) -> bool:
        return bool(self._g.seen[i] >> self.player & 1)

    def card(self, i: int) -> CardDef:
        """The card i is, when the viewer may know it (raises HiddenCard otherwise)."""
        g = self._g
        if not g.seen[i] >> self.player & 1:
            raise HiddenCard(f"card {i} is hidden from player {self.player}")
        return g.cdef[i]

    def hand(self) -> list[int]:
        return list(self._g.z[self.player][Z_HAND])

    def known_hand(self, p: int) -> list[int]:
        """The cards of p's hand the viewer knows (all of its own; of the opponent's, those it saw go there)."""
        bit = 1 << self.player
        return [i for i in self._g.z[p][Z_HAND] if self._g.seen[i] & bit]

    def label(self, i: int) -> str:
        return self._g.labels[i]

    # ---- rule computations over what the viewer knows ------------------------------------------------
    def cv(self, i: int) -> int:
        self._visible(i)
        return statics.cv(self._g, i)

    def tactics(self, i: int) -> int:
        self._visible(i)
        return statics.tactics(self._g, i)

    def keywords(self, i: int) -> int:
        self._visible(i)
        return statics.keywords(self._g, i)

    def icons(self, i: int) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
        self._visible(i)
        return statics.icons(self._g, i)

    def allowed(self, i: int, rule: int) -> bool:
        self._visible(i)
        return statics.allowed(self._g, i, rule)

    def supplied(self, i: int) -> bool:
        return self._g.supplied[i]

    def cost(self, i: int) -> int:
        """What a card of the viewer's hand (or a visible card) would cost the viewer to play now."""
        self._visible(i)
        return statics.cost(self._g, i, self.player)

    def group_tactics(self, members: Any) -> int:
        return actions.group_tactics(self._g, members)

    def side_cv(self, members: Any, mods: Any) -> int:
        return combat.side_cv(self._g, members, mods)

    def combat(self) -> Any:
        """The attack or raid being fought (sides, Tactic, modifiers), or None. Read only."""
        return self._g.cb

    def blocked(self, p: int, tactic: int) -> bool:
        return raids.blocked(self._g, p, tactic)

    def raid_targets(self, p: int) -> list[int]:
        return raids.raid_targets(self._g, p)

    def raiders(self, p: int, tactic: int) -> list[int]:
        return raids.raiders(self._g, p, tactic)

    def attackers(self, p: int) -> list[tuple[int, ...]]:
        return combat.attackers(self._g, p)

    def defenders(self, p: int) -> list[tuple[int, ...]]:
        return combat.defenders(self._g, p)

    def build_cells(self, p: int, d: CardDef) -> list[int]:
        return settlement.build_cells(self._g, p, d)

    def balance_state(self) -> tuple[list[int], list[int]]:
        """The viewer's Resource Balancing in progress: what is available, and the cards not yet paid."""
        g = self._g
        return list(g.bal_avail), list(g.bal_unpaid)

    def icon_statics(self) -> bool:
        """Whether some card in play changes resource icons (else every card has its printed icons)."""
        g = self._g
        if g._dirty:
            statics.refresh(g)
        return bool(g._st_icon)

    def project_balance(self) -> list[int] | None:
        """What the viewer would have left after a Resource Balancing now that keeps every card (or None)."""
        return resources.project_balance(self._g, self.player)

    def pay_all_order(self, avail: list[int], unpaid: list[int]) -> list[int] | None:
        return resources.pay_all_order(self._g, avail, unpaid)

    def added_resources(self) -> list[int]:
        return list(self._g.add_res[self.player])

    def action_text(self, a: Any) -> str:
        return texts.action_text(self._g, a)

    def owner(self, i: int) -> int:
        return self._g.owner[i]

    def ability(self, src: int, k: int) -> Any:
        """Ability k of a visible card (the Ability object of its compiled definition)."""
        return self.card(src).abilities[k]

    def matches(self, sel: Any, i: int, src: int) -> bool:
        """Whether visible card i matches selector sel as seen from the viewer (an ability of card src)."""
        self._visible(i)
        return statics.match(self._g, sel, i, self.player, src)

    def cv_as(self, members: Any, role: int) -> int:
        """The total CV members would fight with in a role (game.ROLE_*: 1 attacker, 2 defender, 3 raider)."""
        # one typed list: iterating an untyped sequence is a generic iterator walk in compiled code
        ms: list[int] = list(members)
        seen = self._g.seen
        player = self.player
        for w in ms:
            if not seen[w] >> player & 1:
                raise HiddenCard(f"card {w} is hidden from player {player}")
        return combat.cv_as(self._g, ms, role)

    def _visible(self, i: int) -> None:
        if not self._g.seen[i] >> self.player & 1:
            raise HiddenCard(f"card {i} is hidden from player {self.player}")

    # ---- determinization ------------------------------------------------------------------------------
    def determinize(self, rng: random.Random) -> Game:
        """A full game consistent with this view (see the module docstring), with its own random stream."""
        g = self._g.clone()
        p = self.player
        q = 1 - p
        bit = 1 << p
        _redeal(g, q, bit, rng, (Z_HAND, Z_DECK, Z_ASIDE))
        _redeal(g, p, bit, rng, (Z_DECK, Z_ASIDE))
        # the opponent's Leader while still unrevealed (setup step 1) is one of its Leaders, at random
        if g.leader[q] < 0 and g.leader_choice[q] >= 0:
            ids = g.leader_ids[q]
            g.leader_choice[q] = ids[int(rng.random() * len(ids))]
        g.seed = rng.getrandbits(63)   # a future of its own: the real one is hidden information too
        g.rng_n = 0
        g._views = [None, None]
        g._dirty = True
        return g


def _redeal(g: Game, p: int, bit: int, rng: random.Random, zones: tuple[int, ...]) -> None:
    """Deal p's cards the viewer (bit) cannot see again over the same slots of those zones (Fisher–Yates): the
    whole deck (its order is never known), and the hand's and set-aside cards the viewer has not seen."""
    seen = g.seen
    zs = g.z[p]
    pool: list[int] = []
    for z in zones:
        if z == Z_DECK:
            pool.extend(zs[z])
        else:
            for i in zs[z]:
                if not seen[i] & bit:
                    pool.append(i)
    n = len(pool)
    for k in range(n - 1, 0, -1):
        j = int(rng.random() * (k + 1))
        pool[k], pool[j] = pool[j], pool[k]
    zone = g.zone
    pos = 0
    for z in zones:
        lst = zs[z]
        if z == Z_DECK:
            m = len(lst)
            lst[:] = pool[pos:pos + m]
            pos += m
            for i in lst:
                zone[i] = Z_DECK
                seen[i] = 0
            continue
        owner_bit = (1 << p) if z == Z_HAND else 0   # a card dealt into the hand is known to its owner
        for k in range(len(lst)):
            if not seen[lst[k]] & bit:
                i = pool[pos]
                pos += 1
                lst[k] = i
                zone[i] = z
                seen[i] = owner_bit
