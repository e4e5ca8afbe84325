"""What one player may know of a regions game (simulator/engines/common/protocol.py `view(p)`), and determinization."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .cards import CardDef, CardSet
from . import cleanup, effects, market
from .state import (
    fisher_yates, Decision, _card_index,
)

if TYPE_CHECKING:
    from .game import Game


class HiddenInfo(LookupError):
    """The viewer may not know this (another player's Hand, Pocket, Deck or bank)."""


class _Seats:
    """A per-player zone of the game read through a view: the viewer's own entry, and nobody else's."""

    __slots__ = ("_zone", "_player", "_what")

    def __init__(self, zone: list, player: int, what: str):
        self._zone = zone
        self._player = player
        self._what = what

    def __getitem__(self, q: int):
        if q != self._player:
            raise HiddenInfo(f"player {self._player} may not see player {q}'s {self._what}")
        return self._zone[q]


class PlayerView:
    """What one player may know (003: Hand and Pocket are private, Deck order is unknown to everyone).

    Policies decide from it and never from the game: the public board (Stacks, control, Levels, the Market, the
    Recognition pile, the Recognition each player owns, purchases this phase), the viewer's own Hand, Pocket,
    bank and cards owned (`view.hand[p]` for the viewer's p; another player's raises HiddenInfo), the rule
    computations over that, and the sizes of the rest. `determinize(rng)` deals every card this player cannot see
    at random from what could be there (other players' Hands, Pockets and Decks pooled per player, every Deck order
    below the cards everyone knows are on top, the Market Deck order) and returns a full game to play out.
    A game keeps one view per player (`Game.view`), live: it follows the game as it goes on.
    """

    __slots__ = ("_game", "player", "hand", "pocket", "fresh", "bank", "rbank", "owned", "owned_t")

    def __init__(self, game: Game, player: int):
        self._game = game
        self.player = player
        # the outer per-player lists of a game are never replaced, only their entries
        self.hand = _Seats(game.hand, player, "Hand")
        self.pocket = _Seats(game.pocket, player, "Pocket")
        self.fresh = _Seats(game.fresh, player, "purchases in the Pocket")
        self.bank = _Seats(game.bank, player, "bank")
        self.rbank = _Seats(game.rbank, player, "restricted bank")
        self.owned = _Seats(game.owned, player, "cards")
        self.owned_t = _Seats(game.owned_t, player, "cards")

    # the public board ----------------------------------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def n(self) -> int:
        return self._game.n

    @property
    def cs(self) -> CardSet:
        return self._game.cs

    @property
    def regions(self) -> list:
        return self._game.regions

    @property
    def standing(self) -> list:
        return self._game.standing

    @property
    def mpiles(self) -> list[list[CardDef]]:
        return self._game.mpiles

    @property
    def stacks(self) -> list[list[list[CardDef]]]:
        return self._game.stacks

    @property
    def ctrl(self) -> list[int]:
        return self._game.ctrl

    @property
    def level(self) -> list[int]:
        return self._game.level

    @property
    def rec_pile(self) -> int:
        return self._game.rec_pile

    @property
    def rec_owned(self) -> list[int]:
        return self._game.rec_owned

    @property
    def bought(self) -> list[int]:
        return self._game.bought

    def deck_size(self, q: int) -> int:
        return len(self._game.deck[q])

    def hidden_counts(self, q: int) -> dict:
        g = self._game
        return {"hand": len(g.hand[q]), "pocket": len(g.pocket[q]), "deck": len(g.deck[q])}

    def public(self) -> dict:
        """The board everyone sees, as JSON (stacks, control, market tops, discards, counts, scores)."""
        g = self._game
        pos = g.to_position(rng_state=False)
        for q, pl in enumerate(pos["players"]):
            if q != self.player:
                pl["hand"] = len(g.hand[q])
                pl["pocket"] = len(g.pocket[q])
                pl["purchased"] = len(g.fresh[q])
            pl["deck"] = len(g.deck[q])
        pos["market_deck"] = len(g.mdeck)
        del pos["jobs"]
        return pos

    # the rules' answers over what the viewer knows ------------------------------------------------------------
    def score(self, q: int) -> int:
        """003 §9.2 (every part of a score is public: Recognition owned, presence, control, exposed Finish)."""
        return cleanup.score(self._game, q)

    def stack_damage(self, q: int, r: int) -> int:
        return cleanup.stack_damage(self._game, q, r)

    def quest_met(self, q: int, r: int) -> bool:
        return cleanup.quest_met(self._game, q, r)

    def pocket_capacity(self, q: int) -> int:
        return market.pocket_capacity(self._game, q)

    def req_count(self, what: int) -> int:
        """The viewer's count for an ability's requirement (003 §6.4)."""
        return effects.req_count(self._game, self.player, what)

    def strike_targets(self, r: int, where: int) -> list[tuple[int, int, int]]:
        return effects.strike_targets(self._game, self.player, r, where)

    def determinize(self, rng: random.Random) -> Game:
        """Each pool of unseen cards is put in a fixed order (by card) before it is dealt, so the worlds depend
        only on what this player knows and on `rng`, never on how the hidden cards really lie (the search
        player's worlds, search.py)."""
        g = self._game.clone()
        g.logs = None
        me = self.player
        for q in range(g.n):
            kt = g.known_top[q]
            deck = g.deck[q]
            top = deck[len(deck) - kt:] if kt else []
            rest = deck[:len(deck) - kt] if kt else deck
            if q == me:
                rest = sorted(rest, key=_card_index)
                fisher_yates(rng, rest)
                g.deck[q] = rest + top
                continue
            # this phase's purchases are public (003 §4.2): they stay in the Pocket, and only the rest is dealt
            unseen_pocket = list(g.pocket[q])
            known = []
            for c in g.fresh[q]:
                if c in unseen_pocket:
                    unseen_pocket.remove(c)
                    known.append(c)
            g.fresh[q] = known
            pool = sorted(list(rest) + g.hand[q] + unseen_pocket, key=_card_index)
            fisher_yates(rng, pool)
            nh, npk = len(g.hand[q]), len(unseen_pocket)
            g.hand[q] = pool[:nh]
            g.pocket[q] = known + pool[nh:nh + npk]
            g.deck[q] = pool[nh + npk:] + top
        g.mdeck.sort(key=_card_index)
        fisher_yates(rng, g.mdeck)
        g.rng = random.Random(rng.getrandbits(64))
        g.rng_shared = False
        if g.pending is not None:
            g.pending = Decision(g, g.pending.kind, g.pending.player, g.pending.info)
        return g
