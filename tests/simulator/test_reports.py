"""simulator/reports.py and the runner's chunking: exact merges of goldfish and head-to-head games."""
import pytest

from simulator import reports, runner

from .conftest import FakeResult


def game(winner, reason, rounds, first=0, influence=None):
    influence = influence or [[3 * (r + 1), 0] for r in range(rounds)]
    return FakeResult(winner=winner, reason=reason, rounds=rounds, first_player=first,
                      influence_by_round=influence, wealth_spent_by_round=[[5, 0]] * rounds,
                      cards_played_by_round=[[2, 0]] * rounds, struggles_won_by_round=[[1, 0]] * rounds,
                      stuck_in_hand={"Golem": 1}, cards_played={"Squire": 2})


def test_wilson_interval_known_values():
    lo, hi = reports.wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = reports.wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert reports.wilson_interval(0, 0) is None


def test_hist_stats_median_of_even_and_odd_counts():
    assert reports.hist_stats({"3": 1, "5": 1}) == {"mean": 4.0, "median": 4.0, "min": 3, "max": 5}
    assert reports.hist_stats({"4": 2, "9": 1})["median"] == 4


def test_goldfish_report_counts_wins_eliminations_and_rounds():
    part = reports.empty_goldfish()
    reports.add_goldfish_game(part, game(0, "influence", 4, influence=[[4, 0], [8, 0], [12, 0], [15, 0]]))
    reports.add_goldfish_game(part, game(0, "influence", 5))
    reports.add_goldfish_game(part, game(None, "elimination", 2, influence=[[1, 0], [2, 0]]))
    report = reports.goldfish_report(reports.merge_goldfish([part]), games=3, seed=7, unsupported=["Ambush"])
    assert report["win_rate"] == pytest.approx(2 / 3) and report["eliminated_rate"] == pytest.approx(1 / 3)
    assert report["win_round"]["histogram"] == {"4": 1, "5": 1}
    assert report["win_round"]["median"] == 4.5
    # Influence by round: finished games keep their final value (round 5: 15 + 15 + 2).
    assert report["influence_by_round"][0] == pytest.approx((4 + 3 + 1) / 3)
    assert report["influence_by_round"][4] == pytest.approx((15 + 15 + 2) / 3)
    # Per-round means are over the games that played that round.
    assert report["per_round"][2] == {"round": 3, "games": 2, "mean_influence": 10.5, "mean_wealth_spent": 5.0,
                                      "mean_cards_played": 2.0, "mean_struggles_won": 1.0}
    assert report["stuck_in_hand"] == [{"name": "Golem", "games": 3, "rate": 1.0}]
    assert report["unsupported_cards"] == ["Ambush"]


def test_versus_report_first_player_and_how_games_were_won():
    part = reports.empty_versus()
    reports.add_versus_game(part, game(0, "influence", 5, first=0))
    reports.add_versus_game(part, game(1, "elimination", 7, first=1))
    reports.add_versus_game(part, game(0, "influence", 6, first=1))
    reports.add_versus_game(part, game(None, "round_limit", 50, first=0))
    report = reports.versus_report(reports.merge_versus([part]), seed=1, unsupported=[], opponent_unsupported=[])
    assert (report["wins"], report["losses"], report["draws"]) == (2, 1, 1)
    assert report["win_rate"] == 0.5 and report["ci95"] == reports.wilson_interval(2, 4)
    assert report["first_player_win_rate"] == 0.5  # games 1 and 2 were won by whoever went first
    assert report["win_rate_going_first"] == 0.5 and report["win_rate_going_second"] == 0.5
    # The report states the counts behind each rate, whose rate it is (the first deck's) and what "first" means.
    assert report["going_first"] == {"games": 2, "wins": 1, "win_rate": 0.5, "ci95": reports.wilson_interval(1, 2)}
    assert report["going_second"] == {"games": 2, "wins": 1, "win_rate": 0.5, "ci95": reports.wilson_interval(1, 2)}
    assert report["first_player_wins"] == 2 and report["first_player_means"] == "round 1"
    assert report["how"] == {"draws": {"round_limit": 1}, "losses": {"elimination": 1}, "wins": {"influence": 2}}
    assert report["mean_rounds"] == pytest.approx(68 / 4)


def test_a_side_with_no_games_has_no_rate():
    part = reports.empty_versus()
    for _ in range(3):
        reports.add_versus_game(part, game(0, "influence", 5, first=0))
    report = reports.versus_report(reports.merge_versus([part]), seed=1, unsupported=[], opponent_unsupported=[])
    assert report["going_first"]["games"] == 3 and report["going_second"] == {
        "games": 0, "wins": 0, "win_rate": None, "ci95": None}


def test_merging_chunks_equals_one_big_partial():
    games = [game(0, "influence", r % 5 + 3) for r in range(9)] + [game(None, "elimination", 4)]
    whole = reports.empty_goldfish()
    for g in games:
        reports.add_goldfish_game(whole, g)
    parts = []
    for start in range(0, 10, 3):
        part = reports.empty_goldfish()
        for g in games[start:start + 3]:
            reports.add_goldfish_game(part, g)
        parts.append(part)
    assert reports.merge_goldfish(parts) == reports.merge_goldfish([whole])
    assert reports.merge_goldfish(reversed(parts)) == reports.merge_goldfish([whole])


def test_chunk_plan_depends_only_on_mode_and_games():
    plan = runner.chunk_plan("goldfish", 1000)
    assert [size for _, _, size in plan] == [200] * 5
    assert runner.chunk_plan("goldfish", 1001)[-1] == (5, 1000, 1)
    big = runner.chunk_plan("goldfish", 1_000_000)
    assert len(big) <= runner.MAX_CHUNKS and sum(s for _, _, s in big) == 1_000_000
    assert runner.chunk_seed(1, 0) != runner.chunk_seed(1, 1) != runner.chunk_seed(2, 0)
    assert runner.chunk_seed(5, 3) == runner.chunk_seed(5, 3)
