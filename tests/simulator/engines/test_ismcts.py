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


def counting(game):
    """The game with its deals counted (game.dealt[0])."""
    dealt = [0]

    def deal(v, rng):
        dealt[0] += 1
        return game.deal(v, rng)
    out = TreeGame(deal=deal, candidates=game.candidates, play=game.play, advance=game.advance,
                   evaluate=game.evaluate, history=game.history)
    out.dealt = dealt
    return out


def test_a_settled_search_stops_early_with_the_same_answer():
    # from 4 stones taking 1 wins at once against random replies most of the time: the visits pile up on it, and
    # once its lead exceeds the iterations left the answer cannot change
    full = counting(nim_tree(random.Random(3)))
    best, stats = search(full, Nim(4), 0, iterations=400, rng=random.Random(1))
    short = counting(nim_tree(random.Random(3)))
    best2, stats2 = search(short, Nim(4), 0, iterations=400, rng=random.Random(1), decided=True)
    assert best2 == best == 1
    assert full.dealt[0] == 400 and short.dealt[0] < 400
    visits = sorted(s[0] for s in stats2.values())
    assert visits[-1] - visits[0] > 400 - short.dealt[0]     # settled: the lead outruns what was left
    # a close call is not cut short
    close = counting(nim_tree(random.Random(3)))
    search(close, Nim(7), 0, iterations=40, rng=random.Random(1), decided=True)
    assert close.dealt[0] > 20


def test_max_depth_one_is_a_flat_search():
    tree = Tree()
    search(nim_tree(random.Random(3)), Nim(7), 0, iterations=200, rng=random.Random(1), tree=tree, max_depth=1)
    assert tree.root.children == {} and sum(s[0] for s in tree.root.stats.values()) == 200
    tree = Tree()
    search(nim_tree(random.Random(3)), Nim(7), 0, iterations=200, rng=random.Random(1), tree=tree, max_depth=2)
    assert tree.root.children and all(not c.children for c in tree.root.children.values())


class Lucky:
    """One decision: 'good' or 'bad', in a world whose luck (dealt at random) swamps the difference."""

    class Dec:
        player = 0

    def __init__(self, luck=0.0):
        self.luck, self.choice, self.pending = luck, None, Lucky.Dec()

    def copy(self):
        c = Lucky(self.luck)
        c.choice, c.pending = self.choice, self.pending
        return c


def lucky_tree(copy=True):
    def play(w, a):
        w.choice, w.pending = a, None

    return TreeGame(deal=lambda v, rng: Lucky(rng.uniform(-1.0, 1.0)),
                    candidates=lambda w, d: [("bad", "bad"), ("good", "good")], play=play,
                    advance=lambda w, tree: False,
                    evaluate=lambda w, p: w.luck + (0.05 if w.choice == "good" else 0.0),
                    copy=(lambda w: w.copy()) if copy else None)


def test_sweep_compares_the_root_candidates_on_the_same_worlds():
    # 4 play-outs: with a fresh world each, luck decides which looks better; swept, each candidate is played in
    # the same 2 worlds, so the means differ by exactly the candidates' difference
    wins = 0
    for seed in range(20):
        best, stats = search(lucky_tree(), Lucky(), 0, iterations=4, rng=random.Random(seed), sweep=True)
        assert stats["good"][0] == stats["bad"][0] == 2
        assert abs(stats["good"][1] - stats["bad"][1] - 0.05) < 1e-9
        wins += best == "good"
    assert wins == 20
    plain = sum(search(lucky_tree(), Lucky(), 0, iterations=4, rng=random.Random(seed))[0] == "good"
                for seed in range(20))
    assert plain < 20


def test_sweep_needs_the_games_copy():
    # without `copy` the search is the ordinary one: one candidate a world
    _best, stats = search(lucky_tree(copy=False), Lucky(), 0, iterations=4, rng=random.Random(1), sweep=True)
    assert sum(s[0] for s in stats.values()) == 4
