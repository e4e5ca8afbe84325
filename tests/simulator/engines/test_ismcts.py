"""The engines' shared tree search (simulator/engines/common/ismcts.py) on a small game with nothing hidden: it
looks more than one move ahead, keeps its tree between decisions, and widens below the root only as visits come."""
import random

from simulator.engines.common.ismcts import Tree, TreeGame, search


class Nim:
    """Take 1 or 2 stones; whoever takes the last one wins."""

    class Dec:
        def __init__(self, player, options):
            self.player, self.options = player, options

    def __init__(self, stones, turn=0, history=()):
        self.stones, self.turn, self.winner, self.history = stones, turn, None, list(history)

    @property
    def pending(self):
        return None if self.stones == 0 else Nim.Dec(self.turn, [n for n in (1, 2) if n <= self.stones])

    def apply_action(self, n):
        self.stones -= n
        self.history.append(n)
        if self.stones == 0:
            self.winner = self.turn
        self.turn = 1 - self.turn

    def copy(self):
        return Nim(self.stones, self.turn, self.history)


def nim_tree(rollout_rng):
    def advance(w, tree):
        if tree:
            return w.pending is not None      # every decision is searched
        while w.pending is not None:
            w.apply_action(rollout_rng.choice(w.pending.options))
        return False

    return TreeGame(deal=lambda v, rng: v.copy(), candidates=lambda w, d: [(n, n) for n in d.options],
                    play=lambda w, n: w.apply_action(n), advance=advance,
                    evaluate=lambda w, p: 1.0 if w.winner == p else -1.0, history=lambda w: w.history)


def test_the_tree_finds_a_win_two_moves_deep():
    # from 7 stones only taking 1 wins (leave 6, a multiple of 3), from 8 only taking 2: the proof runs through
    # the opponent's replies and the mover's answers to them, which the tree searches
    best, stats = search(nim_tree(random.Random(3)), Nim(7), 0, iterations=3000, rng=random.Random(1))
    assert best == 1, stats
    best, stats = search(nim_tree(random.Random(3)), Nim(8), 0, iterations=3000, rng=random.Random(1))
    assert best == 2, stats


def test_the_tree_is_kept_between_decisions():
    tree = Tree()
    game = Nim(7)
    tree.advance(game.history)
    search(nim_tree(random.Random(3)), game, 0, iterations=200, rng=random.Random(1), tree=tree)
    before = tree.root.size()
    game.apply_action(1)
    game.apply_action(2)             # the opponent's reply, which the tree has seen
    assert tree.advance(game.history)
    assert 1 < tree.root.size() < before
    assert sum(s[0] for s in tree.root.stats.values()) > 0     # its visits come along
    assert not tree.advance([2, 2, 2])                          # a history the tree never saw: afresh
    assert tree.root.size() == 1


def test_widening_tries_only_the_default_reply_until_visited_enough():
    tree = Tree()
    search(nim_tree(random.Random(3)), Nim(7), 0, iterations=3, rng=random.Random(1), tree=tree, widen=0.0)
    for child in tree.root.children.values():
        assert list(child.stats) in ([1], [])     # widen 0: only the first candidate below the root
