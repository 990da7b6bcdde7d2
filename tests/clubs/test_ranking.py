"""Standings (issue #26 item 3): match points, card points, Buchholz; "card points first";
shared rank numbers and a stable order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.clubs.ranking import Bye, Partie, Standing, standings


def row(table: list[Standing], entrant: int) -> Standing:
    [found] = [s for s in table if s.entrant == entrant]
    return found


def test_match_points_then_card_points_then_buchholz() -> None:
    parties = [
        Partie((1,), (2,), 120, 80),   # 1 wins
        Partie((3,), (4,), 100, 100),  # a draw
        Partie((1,), (3,), 90, 110),   # 3 wins
        Partie((2,), (4,), 150, 50),   # 2 wins
    ]
    table = standings([1, 2, 3, 4, 5], parties)
    assert [(s.rank, s.entrant, s.match_points, s.card_points) for s in table] == [
        (1, 3, 3, 210), (2, 2, 2, 230), (3, 1, 2, 210), (4, 4, 1, 150), (5, 5, 0, 0)]
    # Buchholz: 3 met 4 (1) and 1 (2); 2 met 1 (2) and 4 (1).
    assert row(table, 3).buchholz == 3 and row(table, 2).buchholz == 3
    assert row(table, 5).parties == 0


def test_card_points_first_swaps_the_first_two() -> None:
    parties = [Partie((1,), (2,), 120, 80), Partie((3,), (4,), 100, 100),
               Partie((1,), (3,), 90, 110), Partie((2,), (4,), 150, 50)]
    table = standings([1, 2, 3, 4], parties, card_points_first=True)
    # 1 and 3 hold 210 card points each: match points (3 has 3) part them.
    assert [(s.rank, s.entrant) for s in table] == [(1, 2), (2, 3), (3, 1), (4, 4)]
    tie = standings([1, 2], [Partie((1,), (2,), 100, 100)], card_points_first=True)
    assert [(s.rank, s.entrant) for s in tie] == [(1, 1), (1, 2)]


def test_buchholz_breaks_a_tie_and_equal_entrants_share_a_rank_by_id() -> None:
    parties = [Partie((10,), (11,), 60, 40), Partie((12,), (13,), 60, 40),
               Partie((11,), (14,), 70, 30)]  # 10 beat 11 (who then won): Buchholz 2 beats 0
    table = standings([10, 11, 12, 13, 14], parties)
    assert [(s.rank, s.entrant) for s in table[:3]] == [(1, 11), (2, 10), (3, 12)]
    assert row(table, 10).buchholz == 2 and row(table, 12).buchholz == 0
    tie = standings([7, 3, 5], [])
    assert [(s.rank, s.entrant) for s in tie] == [(1, 3), (1, 5), (1, 7)]


def test_rotating_partners_each_player_scores_the_team_result_and_both_opponents() -> None:
    table = standings(range(1, 5), [Partie((1, 2), (3, 4), 80, 60)])
    assert [(s.entrant, s.match_points, s.card_points, s.buchholz) for s in table] == [
        (1, 2, 80, 0), (2, 2, 80, 0), (3, 0, 60, 4), (4, 0, 60, 4)]


def test_a_bye_scores_as_given_and_adds_nothing_to_buchholz() -> None:
    table = standings([1, 2, 3], [Partie((1,), (2,), 50, 70)], [Bye(3, 2, 60)])
    assert [(s.entrant, s.match_points, s.parties, s.buchholz) for s in table] == [
        (2, 2, 1, 0), (3, 2, 0, 0), (1, 0, 1, 2)]


partie = st.builds(
    Partie, st.tuples(st.integers(0, 5)), st.tuples(st.integers(6, 11)),
    st.integers(0, 5).map(lambda x: 20 * x), st.integers(0, 5).map(lambda x: 20 * x))


@settings(max_examples=80, deadline=None)
@given(st.lists(partie, max_size=20), st.booleans())
def test_the_order_ranks_and_totals_hold_for_any_results(parties: list[Partie],
                                                        cards_first: bool) -> None:
    table = standings(range(12), parties, card_points_first=cards_first)
    assert sorted(s.entrant for s in table) == list(range(12))
    assert sum(s.match_points for s in table) == 2 * len(parties)  # 2 + 0 or 1 + 1

    def key(s: Standing) -> tuple[int, int, int]:
        first, second = ((s.card_points, s.match_points) if cards_first
                         else (s.match_points, s.card_points))
        return (-first, -second, -s.buchholz)

    assert [(key(s), s.entrant) for s in table] == sorted((key(s), s.entrant) for s in table)
    for s in table:  # a rank is one more than the number of entrants strictly ahead
        assert s.rank == 1 + sum(key(o) < key(s) for o in table)
