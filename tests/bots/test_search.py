"""The search's bookkeeping (games/bots/search.py): successive elimination, and the stop when
the choice no longer matters (issue #27 items 1 and 2)."""

from __future__ import annotations

import random

from games.bots.search import MIN_SAMPLES, SETTLE, Search


def _fed(rows: list[dict[int, int]]) -> Search:
    result = Search(sorted(rows[0]))
    for i, row in enumerate(rows, start=1):
        result.add({c: v for c, v in row.items() if c in result.active})
        result.after_sample(i)
    return result


def test_cards_that_play_out_alike_settle_the_search_after_the_first_check() -> None:
    rng = random.Random(1)
    rows = []
    for _ in range(MIN_SAMPLES):
        v = rng.randrange(0, 72)
        rows.append({10: v, 20: v, 30: v})
    result = _fed(rows)
    assert result.settled and len(result.active) == 3


def test_close_but_noisy_candidates_are_not_settled() -> None:
    rng = random.Random(2)
    rows = []
    for _ in range(MIN_SAMPLES):
        v = rng.randrange(10, 60)
        rows.append({10: v, 20: v + rng.choice((-6, 6))})
    result = _fed(rows)
    assert not result.settled and len(result.active) == 2


def test_a_small_steady_edge_settles_and_a_large_one_prunes() -> None:
    # A candidate a tenth of a point behind in every sample is no loss worth the budget; one
    # ten points behind is dropped.
    rows = [{1: 40, 2: 40, 3: 30} for _ in range(MIN_SAMPLES)]
    for row in rows[::10]:
        row[2] = 39
    result = _fed(rows)
    m, se = result.lead(1, 2)
    assert 2 * se - m <= SETTLE
    assert result.settled and result.active == [1, 2]


def test_nothing_is_settled_before_the_first_check() -> None:
    rows = [{1: 40, 2: 40} for _ in range(MIN_SAMPLES - 1)]
    assert not _fed(rows).settled
