"""Pairing properties (issue #26 items 3 and 10) against brute force on small fields: no
avoidable repeat, score groups kept when they can be, byes and sit-outs rotating, every entrant
placed exactly once, partner and then opponent repetition least."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.clubs.pairing import BLOCK, WINDOW, Entrant, Table, pair_individual, pair_swiss

FAST = settings(max_examples=60, deadline=None)


def matchings(items: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of `items` (an even count)."""
    if not items:
        yield []
        return
    first, rest = items[0], list(items[1:])
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *tail]


def met_count(history: Sequence[tuple[int, int]]) -> Counter[frozenset[int]]:
    return Counter(frozenset(p) for p in history)


def groups_of(entrants: Sequence[Entrant]) -> dict[int, int]:
    levels = sorted({e.points for e in entrants}, reverse=True)
    return {e.id: levels.index(e.points) for e in entrants}


def swiss_cost(pairs: Sequence[tuple[int, int]], met: Counter[frozenset[int]],
               group: dict[int, int]) -> tuple[int, int]:
    return (sum(met[frozenset(p)] for p in pairs),
            sum((group[a] - group[b]) ** 2 for a, b in pairs))


@st.composite
def fields(draw: st.DrawFn, low: int, high: int) -> tuple[list[Entrant], list[tuple[int, int]]]:
    ids = draw(st.lists(st.integers(0, 60), min_size=low, max_size=high, unique=True))
    points = draw(st.lists(st.integers(0, 4), min_size=len(ids), max_size=len(ids)))
    entrants = [Entrant(i, p) for i, p in zip(ids, points, strict=True)]
    pair = st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] != p[1])
    history = draw(st.lists(pair, max_size=3 * len(ids)))
    return entrants, history


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: -e.points)


@FAST
@given(fields(2, 10), st.data())
def test_swiss_places_everyone_once_with_the_least_repeats_and_floats(
        field: tuple[list[Entrant], list[tuple[int, int]]], data: st.DataObject) -> None:
    entrants, met = field
    byes = data.draw(st.lists(st.sampled_from([e.id for e in entrants]), max_size=4))
    result = pair_swiss(entrants, met, byes)
    placed = [x for p in result.pairs for x in p] + ([result.bye] if result.bye is not None else [])
    assert sorted(placed) == sorted(e.id for e in entrants)
    assert (result.bye is not None) == (len(entrants) % 2 == 1)
    rest = [e for e in entrants if e.id != result.bye]
    group = groups_of(rest)
    best = min(swiss_cost(m, met_count(met), group) for m in matchings([e.id for e in rest]))
    # Lexicographic: no avoidable repeat, then no avoidable float across score groups.
    assert swiss_cost(result.pairs, met_count(met), group) == best
    if best[0] == 0:
        assert not any(met_count(met)[frozenset(p)] for p in result.pairs)
    if best == (0, 0):
        assert all(group[a] == group[b] for a, b in result.pairs)


@FAST
@given(fields(4, 10))
def test_swiss_with_the_smallest_blocks_and_window_still_avoids_every_avoidable_repeat(
        field: tuple[list[Entrant], list[tuple[int, int]]]) -> None:
    # window=1, block=2 cut a field into pairs of neighbours: a repeat forces the widening and
    # the merging of blocks up to the whole field.
    entrants, met = field
    if len(entrants) % 2:
        entrants = entrants[:-1]
    result = pair_swiss(entrants, met, window=1, block=2)
    least = min(swiss_cost(m, met_count(met), groups_of(entrants))[0]
                for m in matchings([e.id for e in entrants]))
    assert swiss_cost(result.pairs, met_count(met), groups_of(entrants))[0] == least


@FAST
@given(fields(3, 11), st.data())
def test_the_bye_goes_to_the_lowest_ranked_of_those_with_the_fewest_byes(
        field: tuple[list[Entrant], list[tuple[int, int]]], data: st.DataObject) -> None:
    entrants, met = field
    if len(entrants) % 2 == 0:
        entrants = entrants[:-1]
    byes = data.draw(st.lists(st.sampled_from([e.id for e in entrants]), max_size=8))
    result = pair_swiss(entrants, met, byes)
    taken = Counter(byes)
    fewest = min(taken[e.id] for e in entrants)
    eligible = [e.id for e in ranked(entrants) if taken[e.id] == fewest]
    assert result.bye == eligible[-1]


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4).map(lambda k: 2 * k + 1), st.randoms(use_true_random=False))
def test_byes_rotate_over_a_tournament(count: int, rng: random.Random) -> None:
    points = dict.fromkeys(range(count), 0)
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    for _ in range(count):  # as many rounds as entrants: each has exactly one bye
        field = sorted((Entrant(i, p) for i, p in points.items()), key=lambda e: -e.points)
        result = pair_swiss(field, met, byes)
        assert result.bye is not None and result.bye not in byes
        byes.append(result.bye)
        points[result.bye] += 2
        for a, b in result.pairs:
            met.append((a, b))
            points[rng.choice((a, b))] += 2
    assert sorted(byes) == list(range(count))


def test_swiss_pairs_within_score_groups_top_against_next() -> None:
    field = [Entrant(i, p) for i, p in enumerate([4, 4, 4, 4, 2, 2, 0, 0])]
    assert pair_swiss(field).pairs == ((0, 1), (2, 3), (4, 5), (6, 7))
    # 0 and 1 met: each meets someone else of the group instead.
    assert pair_swiss(field, [(0, 1)]).pairs == ((0, 2), (1, 3), (4, 5), (6, 7))
    # Everyone of the top group met everyone else in it: they float rather than repeat.
    top = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert not set(pair_swiss(field, top).pairs) & {tuple(p) for p in top}


def test_swiss_repeats_when_nothing_else_is_left_and_is_deterministic() -> None:
    field = [Entrant(1, 0), Entrant(2, 0)]
    assert pair_swiss(field, [(1, 2), (2, 1)]).pairs == ((1, 2),)
    big = [Entrant(i, (i * 7) % 5) for i in range(41)]
    met = [(i, (i * 3 + 1) % 41) for i in range(41)]
    assert pair_swiss(big, met, [5]) == pair_swiss(list(big), list(met), [5])


def test_tiny_fields() -> None:
    assert pair_swiss([]).pairs == () and pair_swiss([]).bye is None
    assert pair_swiss([Entrant(9, 3)]).bye == 9
    three = pair_individual([Entrant(1, 0), Entrant(2, 0), Entrant(3, 0)])
    assert three.tables == () and sorted(three.sit_out) == [1, 2, 3]
    # Five players: the lowest-ranked who has not sat out sits out.
    five = [Entrant(i, 5 - i) for i in range(5)]
    assert pair_individual(five, sat_out=[4]).sit_out == (3,)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_swiss([Entrant(1, 0), Entrant(1, 2)])
    with pytest.raises(ValueError, match="block"):
        pair_swiss([Entrant(1, 0), Entrant(2, 0)], block=3)


# Individual with rotating partners.


def table_partners(tables: Sequence[Table]) -> list[tuple[int, int]]:
    return [team for t in tables for team in (t.team_a, t.team_b)]


def table_opponents(tables: Sequence[Table]) -> list[tuple[int, int]]:
    return [(x, y) for t in tables for x in t.team_a for y in t.team_b]


@st.composite
def histories(draw: st.DrawFn, low: int, high: int) -> tuple[
        list[Entrant], list[tuple[int, int]], list[tuple[int, int]], list[int]]:
    entrants, partners = draw(fields(low, high))
    ids = [e.id for e in entrants]
    pair = st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] != p[1])
    opponents = draw(st.lists(pair, max_size=4 * len(ids)))
    sat_out = draw(st.lists(st.sampled_from(ids), max_size=5))
    return entrants, partners, opponents, sat_out


@FAST
@given(histories(1, 15))
def test_individual_tables_of_four_disjoint_with_rotating_sit_outs(
        h: tuple[list[Entrant], list[tuple[int, int]], list[tuple[int, int]], list[int]]) -> None:
    entrants, partners, opponents, sat_out = h
    result = pair_individual(entrants, partners, opponents, sat_out)
    seated = [x for t in result.tables for x in t.team_a + t.team_b]
    assert len(seated) == len(set(seated)) == 4 * (len(entrants) // 4)
    assert sorted(seated + list(result.sit_out)) == sorted(e.id for e in entrants)
    assert len(result.sit_out) == len(entrants) % 4
    taken = Counter(sat_out)
    # Nobody sits out while someone seated sat out fewer times.
    if result.sit_out and seated:
        assert max(taken[x] for x in result.sit_out) <= min(taken[x] for x in seated)


@FAST
@given(histories(8, 8), st.booleans())
def test_individual_partner_repetition_least_then_opponents_for_eight(
        h: tuple[list[Entrant], list[tuple[int, int]], list[tuple[int, int]], list[int]],
        smallest: bool) -> None:
    entrants, partners, opponents, _ = h
    # The smallest blocks and window (pairs of neighbours) must widen to the same least repeats.
    window, block = (1, 2) if smallest else (WINDOW, BLOCK)
    result = pair_individual(entrants, partners, opponents, window=window, block=block)
    assert len(result.tables) == 2
    was_partner, was_opponent = met_count(partners), met_count(opponents)

    def repeats(pairs: Sequence[tuple[int, int]], seen: Counter[frozenset[int]]) -> int:
        return sum(seen[frozenset(p)] for p in pairs)

    # Every way of seating eight players at two tables is a matching into partnerships.
    least = min(repeats(m, was_partner) for m in matchings([e.id for e in entrants]))
    assert repeats(table_partners(result.tables), was_partner) == least
    # For those partnerships, no other grouping into tables repeats fewer opponents.
    teams = table_partners(result.tables)
    groupings = [[Table(teams[a], teams[b]) for a, b in m] for m in matchings(list(range(4)))]
    assert repeats(table_opponents(result.tables), was_opponent) == min(
        repeats(table_opponents(g), was_opponent) for g in groupings)


def test_individual_rotates_partners_without_repeat_while_it_can() -> None:
    players = [Entrant(i, 0) for i in range(8)]
    partners: list[tuple[int, int]] = []
    opponents: list[tuple[int, int]] = []
    for _ in range(3):
        result = pair_individual(players, partners, opponents)
        partners += table_partners(result.tables)
        opponents += table_opponents(result.tables)
    assert max(met_count(partners).values()) == 1


def test_individual_score_groups_share_tables() -> None:
    players = [Entrant(i, 6 if i < 4 else 0) for i in range(8)]
    result = pair_individual(players)
    assert {frozenset(t.team_a + t.team_b) for t in result.tables} == {
        frozenset(range(4)), frozenset(range(4, 8))}
