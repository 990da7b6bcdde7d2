"""A review of a player's deal (issue #28 item 3): each of their decisions judged again by the
strong bot with only what they knew at that moment, the costly ones marked, the others
summarised; kept with the deal, shown to that player alone.

The deal is replayed from its log (the engine's own actions, RULES.md's rules); at each of the
player's decisions the strong bot ranks their options from `view(state, seat)` and the events
that seat was sent — the same inputs as a hint or the bot's own move (games/bots/advice.py), so
nothing of the other hands reaches it but what the seat had seen. The result holds only the
player's own cards (the card played, the better one of their hand).

The work runs where the bots' CPU goes, in the background: a Celery task by name with the
review's id in the distributed mode, the embedded bot threads otherwise (the after-commit
port's `run_review`); the review's row keeps its progress for the page's bar. A review whose
worker died is started again when its page is next read (`STALE_S`).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.bots import advice
from games.engine import (
    MatchState,
    PublicRefusal,
    RuleError,
    apply,
    events_for,
    new_match_state,
    team_of,
    view,
)
from games.engine.cards import INDEX, points
from games.engine.errors import ErrorCode
from games.engine.events import TrickWon
from games.engine.options import Options
from games.history.replay import ENGINE_KINDS, REFUSAL_KIND, engine_action
from games.models import DealReview, Match, ReviewStatus, Round, RoundAction, after_commit
from games.services.errors import ServiceError

log = logging.getLogger(__name__)

REVIEW_TASK = "games.review"
# A review with no progress for this long lost its worker: reading it starts it again.
STALE_S = 90
# A decision is marked costly when the better option is expected to bring the player's team
# this many points more, and the difference is more than twice its standard error.
COSTLY = 1.0


@dataclass(frozen=True)
class Decision:
    """One decision of the player in the deal, as they faced it."""

    version: int  # the table's version of the decision's log row
    trick: int  # 0 for the Scart
    state: MatchState  # the table just before it
    events: list[Any]  # the deal's events up to it (all of them: filtered per seat later)
    action: dict[str, Any]


def budget_ms() -> float:
    return float(settings.TROCCAS_REVIEW_BUDGET_MS)


def _start(rnd: Round, match: Match) -> MatchState:
    """The table before the deal: its dealer about to deal, a Bock deal as one."""
    state = new_match_state(Options.from_json(match.options), rnd.dealer)
    return state._replace(bock_pending=1) if rnd.is_bock else state


def decisions(rnd: Round, seat: int) -> list[Decision]:
    """The player's own decisions in the deal with a choice in them: the cards they played
    themselves (not a stand-in's, not a timer's) with more than one legal card, and their
    Scart."""
    match = rnd.match
    rows = list(RoundAction.objects.filter(round=rnd, kind__in=ENGINE_KINDS)
                .select_related("actor").order_by("version"))
    state = _start(rnd, match)
    events: list[Any] = []
    out: list[Decision] = []
    for row in rows:
        action = engine_action(row, {rnd.pk: rnd.deck})
        if action["type"] == "regame":
            action = {"type": "start_round", "deck": action["deck"]}
        mine = (row.actor_seat == seat and action["type"] in ("play_card", "discard_scart")
                and row.kind != REFUSAL_KIND
                and not (row.actor is not None and row.actor.is_bot))
        if mine:
            v = view(state, seat)
            choice = (len(v["actions"]["legal_cards"] or []) > 1 if action["type"] == "play_card"
                      else len(v["actions"]["scart_allowed"] or []) > 2)
            if choice:
                deal = state.deal
                trick = 0 if action["type"] == "discard_scart" or deal is None else (
                    len(deal.tricks) + 1)
                out.append(Decision(row.version, trick, state, list(events), action))
        try:
            state, new = apply(state, action)
            events.extend(new)
        except PublicRefusal as refused:
            state = refused.state
            events.extend(refused.events)
    return out


def _seed(rnd: Round, seat: int, version: int) -> int:
    digest = hashlib.sha256(f"review:{rnd.pk}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _played_option(got: advice.Advice, action: dict[str, Any]) -> advice.Option | None:
    for o in got.options:
        a = o.action
        if action["type"] == "play_card" and a["type"] == "play_card" and (
                a["card"] == action["card"] or action["card"] in o.same):
            return o
        if action["type"] == "discard_scart" and a["type"] == "discard_scart" and (
                set(a["cards"]) == set(action["cards"])):
            return o
    return None


def judge(d: Decision, seat: int, *, seed: int, budget: float,
          samples: int | None = None) -> dict[str, Any]:
    """One decision's verdict, from the seat's view and events at that moment alone."""
    got = advice.rank(view(d.state, seat), events_for(d.events, seat), seed=seed,
                      budget_ms=budget, samples=samples)
    best = got.options[0]
    played = _played_option(got, d.action)
    kind = "play" if d.action["type"] == "play_card" else "scart"
    out: dict[str, Any] = {
        "version": d.version, "trick": d.trick, "kind": kind,
        "played": d.action["card"] if kind == "play" else sorted(d.action["cards"]),
        "best": best.action["card"] if kind == "play" else sorted(best.action["cards"]),
        "best_points": best.points,
        "points": None, "loss": None, "error": None, "costly": False, "same": played is best,
    }
    if played is not None:
        loss = -played.behind
        out.update(points=played.points, loss=round(loss, 2), error=played.error,
                   costly=(played is not best and loss >= COSTLY
                           and (played.error < 0 or loss > 2 * played.error)))
    if kind == "play" and played is not best:
        out["reason"] = _why(d.state, seat, d.action, best.action)
    return out


def _trick_taken(state: MatchState, action: dict[str, Any]) -> TrickWon | None:
    try:
        _after, events = apply(state, {k: v for k, v in action.items()
                                       if k not in ("call_buob", "buob_suit")})
    except RuleError:
        return None
    return next((e for e in events if isinstance(e, TrickWon)), None)


def _why(state: MatchState, seat: int, played: dict[str, Any], best: dict[str, Any]) -> str:
    """What the better card does that the played one did not, where the player's card ends
    the trick (its outcome is then known from what the player saw): "wins" (it takes the trick
    for the team), "partner" (it leaves the trick to the partner), "cheaper" (the trick is lost
    either way: it gives the other team fewer points), "richer" (the team takes it either way:
    it brings more points), or "" (a reason only the rest of the deal shows)."""
    deal = state.deal
    if deal is None or deal.current is None or len(deal.current.cards) != 3:
        return ""
    mine, other = _trick_taken(state, played), _trick_taken(state, best)
    if mine is None or other is None:
        return ""
    ours = team_of(seat)
    mine_won, other_won = team_of(mine.winner) == ours, team_of(other.winner) == ours
    if other_won and not mine_won:
        return "partner" if other.winner != seat else "wins"
    card_points = points(INDEX[best["card"]]) - points(INDEX[played["card"]])
    if not other_won and not mine_won and card_points < 0:
        return "cheaper"
    if other_won and mine_won and card_points > 0:
        return "richer"
    return ""


def _own(user: Any, match: Match, number: int) -> tuple[Round, int]:
    rnd = Round.objects.filter(match=match, number=number).select_related("match").first()
    if rnd is None:
        raise ServiceError(ErrorCode.NOT_FOUND)
    ids = [match.player_0_id, match.player_1_id, match.player_2_id, match.player_3_id]
    seat = next((i for i, p in enumerate(ids) if p == user.pk), None)
    if seat is None:
        raise ServiceError(ErrorCode.NOT_FOUND)
    if rnd.finished is None or rnd.points_a is None:
        raise ServiceError(ErrorCode.WRONG_PHASE)
    return rnd, seat


def find(user: Any, match: Match, number: int) -> DealReview | None:
    """The player's review of the deal, if they asked for one (started again if its worker
    was lost)."""
    rnd, _seat = _own(user, match, number)
    review = DealReview.objects.filter(round=rnd, user=user).first()
    if (review is not None and review.status in (ReviewStatus.QUEUED, ReviewStatus.RUNNING)
            and review.updated < timezone.now() - timedelta(seconds=STALE_S)):
        DealReview.objects.filter(pk=review.pk).update(status=ReviewStatus.QUEUED,
                                                       updated=timezone.now())
        _enqueue(review.pk)
    return review


def ask(user: Any, match: Match, number: int) -> DealReview:
    """Ask for a review of the player's seat in deal `number` of `match` (a finished deal of
    theirs); the one they asked for before if there is one."""
    rnd, seat = _own(user, match, number)
    existing = find(user, match, number)
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            review = DealReview.objects.create(round=rnd, user=user, seat=seat)
            _enqueue(review.pk)
    except IntegrityError:  # asked twice at once: the other request made it
        found = DealReview.objects.filter(round=rnd, user=user).first()
        assert found is not None
        return found
    return review


def _enqueue(review_id: int) -> None:
    if settings.TROCCAS_MODE == "distributed":
        def send(_effects: Any) -> None:
            from troccas_site.celery import app

            app.send_task(REVIEW_TASK, (review_id,))

        after_commit.on_commit(send)
    else:
        after_commit.on_commit(lambda effects: effects.run_review(review_id)
                               if effects.run_review is not None else None)


def work(review_id: int, *, samples: int | None = None) -> None:
    """A runner's whole job: judge every decision, keeping the progress on the row."""
    review = DealReview.objects.select_related("round__match").filter(pk=review_id).first()
    if review is None or review.status == ReviewStatus.DONE:
        return
    rnd = review.round
    try:
        found = decisions(rnd, review.seat)
        DealReview.objects.filter(pk=review.pk).update(
            status=ReviewStatus.RUNNING, total=len(found), done=0, updated=timezone.now())
        verdicts = []
        for i, d in enumerate(found):
            verdicts.append(judge(d, review.seat, seed=_seed(rnd, review.seat, d.version),
                                  budget=budget_ms(), samples=samples))
            DealReview.objects.filter(pk=review.pk).update(done=i + 1, updated=timezone.now())
        DealReview.objects.filter(pk=review.pk).update(
            status=ReviewStatus.DONE, result=verdicts, updated=timezone.now())
    except Exception:
        log.exception("review %s of round %s failed", review_id, rnd.pk)
        DealReview.objects.filter(pk=review.pk).update(status=ReviewStatus.FAILED,
                                                       updated=timezone.now())


def summary(review: DealReview) -> dict[str, Any]:
    """What the page says of a finished review besides the costly decisions."""
    rows = review.result or []
    judged = [r for r in rows if r.get("loss") is not None]
    return {"decisions": len(rows), "same": sum(1 for r in rows if r.get("same")),
            "costly": sum(1 for r in rows if r.get("costly")),
            "small": sum(1 for r in judged if not r["costly"] and not r["same"]),
            "lost": round(sum(max(0.0, r["loss"]) for r in judged), 1)}


def is_practice(match: Match) -> bool:
    """A practice table's match: the player and three bots (where "try again" is offered)."""
    players = match.players
    return sum(1 for p in players if p is not None and p.is_bot) == 3


def position(review: DealReview, version: int) -> dict[str, Any]:
    """The deal up to (not including) the player's decision at `version`, turned so the
    player sits at seat 0 of a new practice table: the same deck (the deal gives each seat
    the same cards whoever deals, RULES.md §5), the dealer and every seat moved alike."""
    rnd = review.round
    if not any(r.get("version") == version for r in review.result or []):
        raise ServiceError(ErrorCode.INVALID_FIELD)
    shift = review.seat
    rows = (RoundAction.objects.filter(round=rnd, kind__in=ENGINE_KINDS, version__lt=version)
            .exclude(kind=REFUSAL_KIND).order_by("version"))
    actions: list[dict[str, Any]] = []
    for row in rows:
        action = engine_action(row, {rnd.pk: rnd.deck})
        if action["type"] in ("start_round", "regame"):
            continue
        if "seat" in action:
            action["seat"] = (action["seat"] - shift) % 4
        actions.append(action)
    return {"deck": list(rnd.deck), "dealer": (rnd.dealer - shift) % 4, "actions": actions,
            "source": rnd.pk}


__all__ = ["COSTLY", "REVIEW_TASK", "STALE_S", "Decision", "ask", "budget_ms", "decisions",
           "find", "is_practice", "judge", "position", "summary", "work"]
