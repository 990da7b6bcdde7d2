"""A tournament round's pairings (issue #26 item 3), by maximum-weight matching (networkx).

    pair_swiss(entrants, met=..., byes=...)              # pair against pair (or any 1 v 1)
    pair_individual(players, partners=..., opponents=..., sat_out=...)  # tables of four

`entrants`/`players` are `Entrant(id, points)` (match points so far) in the standings' order
(ranking.py's order; round 1: the seeding). They are sorted by points, highest first, keeping
the given order among equal points: that position is the *rank* every tiebreak below uses. The
histories are plain lists: `met` one (a, b) per Partie already played between a and b (pairs
repeat for a second meeting), `byes`/`sat_out` one id per bye taken, `partners`/`opponents` one
(a, b) per Partie a and b played as partners or as opponents. Nothing is random: the same input
gives the same round (edges enter the graph in rank order; networkx's matching is
deterministic for a given graph).

**Score groups.** A score group is every entrant on the same points; groups are numbered from
the top (0, 1, ...), and a pairing across groups costs the square of the difference of the
numbers (a float to the next group costs 1, across two 4), so pairing within a group is worth
more than across, and one long float costs more than several short ones.

**Weights.** Each possible pairing has a cost with three parts, compared in this order (the
unit of each part is larger than the most the parts below can add up to over a whole round, so
the matching minimises them lexicographically):

1. repeats: how many times the two already met (Swiss), were partners (individual, first
   step) or how many past opponent meetings the four players of a table hold (second step). A
   repeat is a large penalty, never forbidden, so a round can always be paired; a repeat is
   made only when no pairing of the whole field avoids it (see "Blocks and the window");
2. score groups: as above (for a table of four, the square of the spread of its four players'
   group numbers);
3. rank distance: the difference of the two ranks, so within a group 1 meets 2, 3 meets 4
   (as in the Monrad system), and every remaining tie is settled by rank.

The weight of an edge is a constant minus its cost, all integers (networkx then computes
exactly); `max_weight_matching(G, maxcardinality=True)` on a graph that always holds a perfect
matching (each rank joined to the next) gives a perfect matching of least cost.

**Byes** (Swiss, odd count): the bye goes to the lowest-ranked entrant among those with the
fewest byes, so nobody has a second bye while someone has had none; the others are paired.

**Individual with rotating partners.** Two matchings: first players into partnerships (cost:
past partnerships, score groups, rank distance), then partnerships into tables (cost: past
opponent meetings among the four cross pairs, the spread of the table's score groups, the
partnerships' rank distance; partnerships are ranked by the sum of their players' ranks). So
partner repetition is least over all ways of seating the field, and opponent repetition least
for those partnerships. When the count is not a multiple of four, the remainder (1 to 3
players) sit out the round: each the lowest-ranked of those who sat out least, so sitting out
rotates as the bye does (the tournament's rules page says how a sit-out is scored).

**Blocks and the window.** A complete graph of 512 entrants has 130,816 edges, and networkx's
general matching (O(n^3), pure Python) takes seconds on it. So the ranking is cut into blocks
of BLOCK to 2 * BLOCK - 1 ranks (even lengths; a cut falls where a score group ends when one
ends within reach), each paired on its own, and within a block only ranks at most `window`
apart are joined (default WINDOW). Each rank is joined to the next, so a perfect matching
always exists. A block whose pairing holds a repeat is paired again with its window doubled
until it is complete, then merged with its neighbour, and so on up to the whole field as one
complete graph; so a repeat is never made that the whole field could avoid. Score groups and
rank distances are optimal among the pairings within the final blocks and windows (for a
field of up to WINDOW + 1 entrants, over all pairings); nobody floats across a cut, which
falls at a group's end when it can. Measured on bench/pairing.py after four rounds: 512 pairs
in about 0.24 s, 512 players (two matchings) in about 0.43 s.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

# Ranks at most this far apart are joined (see "Blocks and the window"); 1: only neighbours.
WINDOW = 16
# Fields are paired in blocks of at least this many ranks (see "Blocks and the window").
BLOCK = 32


@dataclass(frozen=True)
class Entrant:
    id: int
    points: int  # match points so far


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[tuple[int, int], ...]  # each (higher-ranked, lower-ranked), in rank order
    bye: int | None


@dataclass(frozen=True)
class Table:
    team_a: tuple[int, int]  # the higher-ranked partnership, each higher-ranked player first
    team_b: tuple[int, int]


@dataclass(frozen=True)
class IndividualRound:
    tables: tuple[Table, ...]
    sit_out: tuple[int, ...]


# A pairing's cost: (repeats, score-group cost, rank distance), compared in that order.
Cost = tuple[int, int, int]


def pair_swiss(entrants: Sequence[Entrant], met: Iterable[tuple[int, int]] = (),
               byes: Iterable[int] = (), *, window: int = WINDOW,
               block: int = BLOCK) -> SwissRound:
    """One Swiss round: pairs from score groups, no avoidable repeat, a rotating bye."""
    order = _ranked(entrants, window, block)
    bye: int | None = None
    if len(order) % 2:
        [bye] = _rest_out(order, Counter(byes), 1)
        order = [e for e in order if e.id != bye]
    meetings = _pair_counter(met)
    group = _groups(order)

    def cost(i: int, j: int) -> Cost:
        a, b = order[i], order[j]
        return (meetings[frozenset((a.id, b.id))], (group[a.id] - group[b.id]) ** 2, j - i)

    matched = _least_cost_matching(len(order), cost, [group[e.id] for e in order], window, block)
    return SwissRound(tuple((order[i].id, order[j].id) for i, j in matched), bye)


def pair_individual(players: Sequence[Entrant], partners: Iterable[tuple[int, int]] = (),
                    opponents: Iterable[tuple[int, int]] = (), sat_out: Iterable[int] = (), *,
                    window: int = WINDOW, block: int = BLOCK) -> IndividualRound:
    """Tables of four (two partnerships) with the least partner, then opponent, repetition."""
    order = _ranked(players, window, block)
    out = _rest_out(order, Counter(sat_out), len(order) % 4)
    order = [e for e in order if e.id not in out]
    rank = {e.id: i for i, e in enumerate(order)}
    group = _groups(order)
    partnered = _pair_counter(partners)
    opposed = _pair_counter(opponents)

    def partner_cost(i: int, j: int) -> Cost:
        a, b = order[i], order[j]
        return (partnered[frozenset((a.id, b.id))], (group[a.id] - group[b.id]) ** 2, j - i)

    teams = sorted(((order[i].id, order[j].id)
                    for i, j in _least_cost_matching(len(order), partner_cost,
                                                     [group[e.id] for e in order], window, block)),
                   key=lambda t: (rank[t[0]] + rank[t[1]], rank[t[0]]))

    def table_cost(p: int, q: int) -> Cost:
        four = teams[p] + teams[q]
        repeats = sum(opposed[frozenset((x, y))] for x in teams[p] for y in teams[q])
        spread = max(group[x] for x in four) - min(group[x] for x in four)
        return (repeats, spread**2, q - p)

    tables = tuple(Table(teams[p], teams[q])
                   for p, q in _least_cost_matching(len(teams), table_cost,
                                                    [group[t[0]] for t in teams], window, block))
    return IndividualRound(tables, out)


def _ranked(entrants: Sequence[Entrant], window: int, block: int) -> list[Entrant]:
    if window < 1 or block < 2 or block % 2:
        raise ValueError("the window joins neighbouring ranks at least; a block is even")
    if len({e.id for e in entrants}) != len(entrants):
        raise ValueError("an entrant is listed twice")
    # Stable: equal points keep the standings' (or the seeding's) order.
    return sorted(entrants, key=lambda e: -e.points)


def _rest_out(order: Sequence[Entrant], taken: Counter[int], count: int) -> tuple[int, ...]:
    """`count` ids to sit out: each the lowest-ranked of those who sat out least."""
    chosen: list[int] = []
    for _ in range(count):
        left = [e for e in order if e.id not in chosen]
        fewest = min(taken[e.id] for e in left)
        chosen.append([e.id for e in left if taken[e.id] == fewest][-1])
    return tuple(chosen)


def _groups(order: Sequence[Entrant]) -> dict[int, int]:
    """Each entrant's score group, numbered from the top."""
    levels = {p: g for g, p in enumerate(sorted({e.points for e in order}, reverse=True))}
    return {e.id: levels[e.points] for e in order}


def _pair_counter(pairs: Iterable[tuple[int, int]]) -> Counter[frozenset[int]]:
    return Counter(frozenset(p) for p in pairs)


def _least_cost_matching(count: int, cost: Callable[[int, int], Cost], groups: Sequence[int],
                         window: int, block: int) -> list[tuple[int, int]]:
    """A perfect matching of ranks 0..count-1 (count even) of least (repeats, groups, distance),
    block by block (a block holding a repeat merged with its neighbour and paired again)."""
    blocks = _blocks(groups, block)
    done: list[list[tuple[int, int]]] = []
    while len(done) < len(blocks):
        at = len(done)
        start, end = blocks[at]
        matched, repeats = _widening(end - start, _shifted(cost, start), window)
        if repeats and len(blocks) > 1:
            if at + 1 < len(blocks):  # merge with the next block
                blocks[at:at + 2] = [(start, blocks[at + 1][1])]
            else:  # the last block: merge with the one before and pair that again
                blocks[at - 1:at + 1] = [(blocks[at - 1][0], end)]
                done.pop()
            continue
        done.append([(start + i, start + j) for i, j in matched])
    return [pair for part in done for pair in part]


def _shifted(cost: Callable[[int, int], Cost], start: int) -> Callable[[int, int], Cost]:
    return lambda i, j: cost(start + i, start + j)


def _blocks(groups: Sequence[int], block: int) -> list[tuple[int, int]]:
    """The ranks cut into runs of `block` to 2 * block - 1 (the last possibly fewer), each of
    even length, ending where a score group ends when one ends within reach."""
    assert block >= 2 and block % 2 == 0
    cuts: list[tuple[int, int]] = []
    start = 0
    while len(groups) - start >= 2 * block:
        end = next((p for p in range(start + block, start + 2 * block, 2)
                    if groups[p - 1] != groups[p]), start + block)
        cuts.append((start, end))
        start = end
    cuts.append((start, len(groups)))
    return cuts


def _widening(count: int, cost: Callable[[int, int], Cost],
              window: int) -> tuple[list[tuple[int, int]], int]:
    """`_match_within` the window, doubled while the matching holds a repeat."""
    while True:
        span = min(window, count - 1)
        matched, repeats = _match_within(count, cost, span)
        if repeats == 0 or span >= count - 1:
            return matched, repeats
        window *= 2


def _match_within(count: int, cost: Callable[[int, int], Cost],
                  span: int) -> tuple[list[tuple[int, int]], int]:
    if count == 0:
        return [], 0
    costs: dict[tuple[int, int], Cost] = {
        (i, j): cost(i, j) for i in range(count) for j in range(i + 1, min(count, i + span + 1))}
    pairs = count // 2
    # Each unit exceeds the most the parts below can add up to over the round's `pairs` edges.
    distance_unit = 1
    group_unit = distance_unit * (pairs * span + 1)
    repeat_unit = group_unit * (pairs * max(c[1] for c in costs.values()) + 1)
    top = repeat_unit * (max(c[0] for c in costs.values()) + 1) + group_unit
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    graph.add_weighted_edges_from(
        (i, j, top - (r * repeat_unit + g * group_unit + d * distance_unit))
        for (i, j), (r, g, d) in costs.items())
    found = nx.max_weight_matching(graph, maxcardinality=True)
    matched = sorted((min(e), max(e)) for e in found)
    assert len(matched) == pairs  # each rank is joined to the next: a perfect matching exists
    return matched, sum(costs[e][0] for e in matched)
