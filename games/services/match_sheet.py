"""The match's scored deals, as the table's score sheet shows them (issue #14 item 5).

Read inside the writer's transaction (and by a sync) only while the table is between deals
(ROUND_OVER) or the match is over: a scored deal is public (RULES.md §13), and nothing here
names a card, so a running deal's hidden cards cannot reach the sheet. The view's `match.deals`
(docs/protocol.md) is this list.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch

from games.models import Match, NarrDebt, Round, Trick


def _buob_calls(rnd: Round) -> list[dict[str, Any]]:
    """The deal's accepted BUOB calls in trick order: who called whom, on which suit, in which
    mode, and whether the caller's team took that trick."""
    calls = []
    for trick in sorted(rnd.tricks.all(), key=lambda t: t.number):
        call = trick.buob_call
        if not call or trick.winner is None:
            continue
        calls.append({
            "trick": trick.number, "caller": call["caller"], "target": call["target"],
            "suit": call["suit"], "mode": call["mode"],
            "won": trick.winner % 2 == call["caller"] % 2,
        })
    return calls


def _narr_debt(rnd: Round) -> dict[str, Any] | None:
    debt = next(iter(rnd.narr_debts.all()), None)
    if debt is None:
        return None
    return {"debtor": debt.debtor, "creditor": debt.creditor, "status": debt.status}


def deals_of(match: Match) -> list[dict[str, Any]]:
    """Every scored deal of the match, in order, with the running totals after it (three
    queries whatever the match's length)."""
    rounds = (Round.objects.filter(match=match, points_a__isnull=False).order_by("number")
              .only("pk", "match_id", "number", "dealer", "is_bock", "points_a", "points_b")
              .prefetch_related(
                  Prefetch("tricks", queryset=Trick.objects.only(
                      "pk", "round_id", "number", "winner", "buob_call")),
                  Prefetch("narr_debts", queryset=NarrDebt.objects.only(
                      "pk", "round_id", "debtor", "creditor", "status"))))
    out = []
    running = [0, 0]
    for rnd in rounds:
        assert rnd.points_a is not None and rnd.points_b is not None
        mult = 2 if rnd.is_bock else 1  # a Bock deal counts double (RULES.md §11)
        scored = [rnd.points_a * mult, rnd.points_b * mult]
        running = [running[0] + scored[0], running[1] + scored[1]]
        out.append({
            "number": rnd.number, "dealer": rnd.dealer, "bock": rnd.is_bock,
            "points": [rnd.points_a, rnd.points_b], "scored": scored, "running": running,
            "narr_debt": _narr_debt(rnd), "buob": _buob_calls(rnd),
        })
    return out
