"""Standings (issue #7): statistics and ratings of players and fixed pairs, from finished matches.

`record_match(match)` is called by games/services/ inside the transaction that ends a match;
`recompute()` (manage.py recompute_standings) rebuilds every row from history. Both go through
`_apply`, in the canonical order of matches — (finished, id) — so they give the same numbers:
a match that ends "out of order" (one that finished earlier commits after a later one sharing a
player) triggers a rebuild instead of an update.

Counted per match: a win, draw or loss; per deal: the team's card points (unmultiplied) and a
deal won (more than 36); per trick: a BUOB call made, and won if the caller's team took the
trick. Ratings: games/history/rating.py (Weng–Lin) — players as 2v2 teams, pairs as single entities.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Prefetch, QuerySet

from games.engine import team_of
from games.history import rating
from games.models import Match, MatchStatus, PairStats, PlayerRating, RatingHistory, Round

log = logging.getLogger(__name__)

_STAT_FIELDS = ("matches", "wins", "draws", "losses", "deals", "deals_won", "points",
                "buob_calls", "buob_won", "mu", "sigma")


@dataclass
class Line:
    """A player's or a pair's running numbers while matches are applied."""

    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    deals: int = 0
    deals_won: int = 0
    points: int = 0
    buob_calls: int = 0
    buob_won: int = 0
    mu: float = rating.MU
    sigma: float = rating.SIGMA
    last_finished: datetime | None = None
    last_match: int | None = None
    history: list[tuple[int, datetime, float, float, int]] = field(default_factory=list)

    @property
    def skill(self) -> rating.Skill:
        return rating.Skill(self.mu, self.sigma)

    def row_values(self) -> dict[str, Any]:
        values = {f: getattr(self, f) for f in _STAT_FIELDS}
        values["avg_points"] = self.points / self.deals if self.deals else 0.0
        values["rating"] = self.skill.ordinal
        values["last_finished"] = self.last_finished
        values["last_match_id_seen"] = self.last_match
        return values

    @classmethod
    def from_row(cls, row: PlayerRating | PairStats) -> Line:
        return cls(**{f: getattr(row, f) for f in _STAT_FIELDS},
                   last_finished=row.last_finished, last_match=row.last_match_id_seen)


@dataclass
class MatchFacts:
    """What one finished match contributes, per team (index 0 = A, 1 = B)."""

    pk: int
    finished: datetime
    players: tuple[int, int, int, int]
    winner: str  # "A" | "B" | "draw"
    deals: int
    deals_won: tuple[int, int]
    points: tuple[int, int]
    buob_calls: tuple[int, int, int, int]  # per seat
    buob_won: tuple[int, int, int, int]


def facts(match: Match, rounds: list[Round]) -> MatchFacts:
    """From the match row and its rounds with prefetched tricks."""
    deals = 0
    deals_won = [0, 0]
    points = [0, 0]
    calls = [0, 0, 0, 0]
    won = [0, 0, 0, 0]
    for r in rounds:
        # A scored deal has both teams' points (the writer sets them together).
        if r.points_a is not None and r.points_b is not None:
            deals += 1
            points[0] += r.points_a
            points[1] += r.points_b
            if r.points_a > 36:
                deals_won[0] += 1
            elif r.points_a < 36:
                deals_won[1] += 1
        for t in r.tricks.all():
            b = t.buob_call
            if b and t.winner is not None:
                calls[b["caller"]] += 1
                if t.winner % 2 == b["caller"] % 2:
                    won[b["caller"]] += 1
    assert match.finished is not None
    return MatchFacts(
        pk=match.pk, finished=match.finished,
        players=(match.player_0_id, match.player_1_id, match.player_2_id, match.player_3_id),
        winner=match.winner or "draw", deals=deals, deals_won=(deals_won[0], deals_won[1]),
        points=(points[0], points[1]), buob_calls=(calls[0], calls[1], calls[2], calls[3]),
        buob_won=(won[0], won[1], won[2], won[3]),
    )


def _count(line: Line, f: MatchFacts, team: int, seats: tuple[int, ...]) -> None:
    result = "draw" if f.winner == "draw" else ("win" if f.winner == team_of(team) else "loss")
    line.matches += 1
    line.wins += result == "win"
    line.draws += result == "draw"
    line.losses += result == "loss"
    line.deals += f.deals
    line.deals_won += f.deals_won[team]
    line.points += f.points[team]
    line.buob_calls += sum(f.buob_calls[s] for s in seats)
    line.buob_won += sum(f.buob_won[s] for s in seats)
    line.last_finished, line.last_match = f.finished, f.pk


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _apply(f: MatchFacts, players: dict[int, Line], pairs: dict[tuple[int, int], Line]) -> None:
    """One match into the running lines (the same arithmetic for live updates and rebuilds)."""
    p = f.players
    team_a, team_b = [players[p[0]], players[p[2]]], [players[p[1]], players[p[3]]]
    new_a, new_b = rating.rate_2v2([x.skill for x in team_a], [x.skill for x in team_b],
                                   f.winner)
    for line, skill in zip(team_a + team_b, new_a + new_b, strict=True):
        line.mu, line.sigma = skill.mu, skill.sigma
    for seat in range(4):
        line = players[p[seat]]
        _count(line, f, seat % 2, (seat,))
        line.history.append((f.pk, f.finished, line.mu, line.sigma, line.matches))
    pa, pb = pairs[pair_key(p[0], p[2])], pairs[pair_key(p[1], p[3])]
    (sa,), (sb,) = rating.rate_2v2([pa.skill], [pb.skill], f.winner)
    pa.mu, pa.sigma, pb.mu, pb.sigma = sa.mu, sa.sigma, sb.mu, sb.sigma
    _count(pa, f, 0, (0, 2))
    _count(pb, f, 1, (1, 3))


def _rounds_prefetch() -> Prefetch[str, QuerySet[Round], str]:
    return Prefetch("rounds", queryset=Round.objects.only(
        "pk", "match_id", "number", "points_a", "points_b").prefetch_related("tricks"))


def _key(finished: datetime | None, pk: int | None) -> tuple[datetime, int] | None:
    return None if finished is None or pk is None else (finished, pk)


def record_match(match: Match) -> None:
    """Count a match that has just finished. Called inside the transaction that ends it;
    idempotent (a match already counted changes nothing)."""
    if match.status != MatchStatus.FINISHED or not match.rated:
        # A match a bot played in (Match.rated) changes no standings line (issue #15).
        return
    if RatingHistory.objects.filter(match=match).exists():
        return
    ids = [match.player_0_id, match.player_1_id, match.player_2_id, match.player_3_id]
    keys = [pair_key(ids[0], ids[2]), pair_key(ids[1], ids[3])]
    for uid in ids:
        PlayerRating.objects.get_or_create(user_id=uid)
    for lo, hi in keys:
        PairStats.objects.get_or_create(player_low_id=lo, player_high_id=hi)
    rows = {r.user_id: r for r in PlayerRating.objects.select_for_update().filter(user_id__in=ids)}
    pair_rows = {(r.player_low_id, r.player_high_id): r for r in PairStats.objects
                 .select_for_update().filter(player_low_id__in=[k[0] for k in keys])
                 if (r.player_low_id, r.player_high_id) in keys}
    me = (match.finished, match.pk)
    if any((k := _key(r.last_finished, r.last_match_id_seen)) is not None and k > me
           for r in [*rows.values(), *pair_rows.values()]):
        # A later match of one of these players was counted first (two tables ending at
        # the same moment): rebuild, so the order stays the canonical one.
        log.warning("match %s ended out of order: standings rebuilt", match.pk)
        recompute()
        return
    rounds = list(Round.objects.filter(match=match).only(
        "pk", "match_id", "number", "points_a", "points_b").prefetch_related("tricks"))
    players = {uid: Line.from_row(rows[uid]) for uid in ids}
    pairs = {k: Line.from_row(pair_rows[k]) for k in keys}
    _apply(facts(match, rounds), players, pairs)
    for uid, line in players.items():
        PlayerRating.objects.filter(user_id=uid).update(**line.row_values())
        RatingHistory.objects.bulk_create([
            RatingHistory(user_id=uid, match_id=m, at=at, mu=mu, sigma=sigma,
                          rating=rating.Skill(mu, sigma).ordinal, matches=n)
            for m, at, mu, sigma, n in line.history])
    for (lo, hi), line in pairs.items():
        PairStats.objects.filter(player_low_id=lo, player_high_id=hi).update(
            **line.row_values())


def compute_all() -> tuple[dict[int, Line], dict[tuple[int, int], Line]]:
    """Every finished match, in the canonical order, into fresh lines (nothing written)."""
    players: dict[int, Line] = {}
    pairs: dict[tuple[int, int], Line] = {}
    matches = (Match.objects.filter(status=MatchStatus.FINISHED, rated=True)
               .order_by("finished", "pk")
               .prefetch_related(_rounds_prefetch()))
    for m in matches.iterator(chunk_size=200):
        f = facts(m, list(m.rounds.all()))
        for uid in f.players:
            players.setdefault(uid, Line())
        for key in (pair_key(f.players[0], f.players[2]), pair_key(f.players[1], f.players[3])):
            pairs.setdefault(key, Line())
        _apply(f, players, pairs)
    return players, pairs


def recompute() -> tuple[int, int]:
    """Rebuild every standings row from history; returns (players, pairs)."""
    players, pairs = compute_all()
    with transaction.atomic():
        RatingHistory.objects.all().delete()
        PlayerRating.objects.all().delete()
        PairStats.objects.all().delete()
        PlayerRating.objects.bulk_create(
            [PlayerRating(user_id=uid, **line.row_values()) for uid, line in players.items()],
            batch_size=500)
        PairStats.objects.bulk_create(
            [PairStats(player_low_id=lo, player_high_id=hi, **line.row_values())
             for (lo, hi), line in pairs.items()], batch_size=500)
        RatingHistory.objects.bulk_create(
            [RatingHistory(user_id=uid, match_id=m, at=at, mu=mu, sigma=sigma,
                           rating=rating.Skill(mu, sigma).ordinal, matches=n)
             for uid, line in players.items() for m, at, mu, sigma, n in line.history],
            batch_size=1000)
    return len(players), len(pairs)


def snapshot() -> dict[str, Any]:
    """Every standings row as plain data (for comparing a rebuild with the live table)."""
    skip = {"id"}
    return {
        "players": sorted(
            tuple(sorted((k, v) for k, v in row.items() if k not in skip))
            for row in PlayerRating.objects.values()),
        "pairs": sorted(
            tuple(sorted((k, v) for k, v in row.items() if k not in skip))
            for row in PairStats.objects.values()),
        "history": sorted(
            tuple(sorted((k, v) for k, v in row.items() if k not in skip))
            for row in RatingHistory.objects.values()),
    }
