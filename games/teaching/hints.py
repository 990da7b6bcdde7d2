"""Hints at practice tables (issue #28 item 2): the strong bot's best actions for a person's
seat, with the points their team is expected to end the deal with after each.

A hint is judged from the seat's view and the events that seat was sent, exactly as a bot
decides (games/bots/advice.py): it shows nothing the player could not see. It is offered only
where no result counts — a table where every other seat is a bot's (Play now, a room seated
with bots only), never a tournament's table — and the server refuses it elsewhere
(HINT_NOT_ALLOWED), whatever a client's button shows.

`check` is the door's first step (a quick read: the seat, the table, the decision): its codes go
back to the socket at once. `answer` is the work, on a bot runner (a Celery worker in the
distributed mode, the embedded bot pool otherwise), never on the event loop; it reads the table
again and answers for the version it finds, which the client compares with its own. The
runner's door sends the frame to the asking socket only.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.bots import advice
from games.engine import events_for, view
from games.engine.errors import ErrorCode
from games.models import MatchStatus
from games.services.bots.stand_ins import practice_person
from games.services.bots.turns import deal_events
from games.services.errors import ServiceError
from games.services.tables import Table, load_code, seats_of

log = logging.getLogger(__name__)

# The options shown: the best three (issue #28 item 2).
SHOWN = 3
HINT_TASK = "games.hint"


@dataclass(frozen=True)
class HintJob:
    """What a runner needs: ids only (a broker's message never carries a card)."""

    code: str
    user_id: int
    version: int


def budget_ms() -> float:
    """The hint's search budget (settings.TROCCAS_HINT_BUDGET_MS)."""
    return float(settings.TROCCAS_HINT_BUDGET_MS)


def _seat(t: Table, user_id: int) -> int:
    seats = seats_of(t)
    mine = next((s for s in seats if s.user_id == user_id and s.index is not None), None)
    if mine is None or mine.index is None:
        raise ServiceError(ErrorCode.NOT_SEATED)
    # The table's own notion of a practice table (the view's `match.practice`, the pause).
    if practice_person(seats) != user_id:
        raise ServiceError(ErrorCode.HINT_NOT_ALLOWED)
    if getattr(t.room, "tournament_table", None) is not None:
        raise ServiceError(ErrorCode.HINT_NOT_ALLOWED)
    return mine.index


def _decision(t: Table, seat: int) -> dict[str, Any]:
    """The seat's view, if it has a decision to advise on; NOTHING_TO_ADVISE otherwise."""
    if (t.state is None or t.match is None or t.match.status != MatchStatus.RUNNING
            or t.round is None):
        raise ServiceError(ErrorCode.NOTHING_TO_ADVISE)
    v = view(t.state, seat)
    acts = v["actions"]
    if acts["play"] or (acts["scart"] and len(acts["scart_allowed"]) >= 2):
        return v
    raise ServiceError(ErrorCode.NOTHING_TO_ADVISE)


def check(code: str, user: Any) -> HintJob:
    """Whether `user` may have a hint at table `code` now; the job for a runner, or a
    ServiceError (NOT_SEATED, HINT_NOT_ALLOWED, NOTHING_TO_ADVISE, ROOM_NOT_FOUND)."""
    try:
        t = load_code(code, lock=False)
    except Exception as exc:  # Room.DoesNotExist
        raise ServiceError(ErrorCode.ROOM_NOT_FOUND) from exc
    seat = _seat(t, user.pk)
    _decision(t, seat)
    return HintJob(code, user.pk, t.room.version)


def _seed(code: str, version: int, user_id: int) -> int:
    digest = hashlib.sha256(f"hint:{code}:{version}:{user_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _option(o: advice.Option) -> dict[str, Any]:
    a = o.action
    out: dict[str, Any] = {"points": o.points, "behind": o.behind}
    if a["type"] == "play_card":
        out.update(type="play_card", card=a["card"], same=list(o.same),
                   call_buob=bool(a.get("call_buob")))
    else:
        out.update(type="discard_scart", cards=list(a["cards"]))
    return out


def answer(job: HintJob) -> dict[str, Any]:
    """The `hint` frame for the job's player: the table as it is now (its version in the
    frame). A ServiceError if the table no longer allows it (the door sends its code)."""
    try:
        t = load_code(job.code, lock=False)
    except Exception as exc:  # Room.DoesNotExist: the room was deleted meanwhile
        raise ServiceError(ErrorCode.ROOM_NOT_FOUND) from exc
    seat = _seat(t, job.user_id)
    v = _decision(t, seat)
    events = events_for(deal_events(t), seat)
    got = advice.rank(v, events, seed=_seed(job.code, t.room.version, job.user_id),
                      budget_ms=budget_ms())
    return frame(got, t.room.version)


def frame(got: advice.Advice, version: int) -> dict[str, Any]:
    """The `hint` frame of an advice given at `version` (a table's, or a lesson's)."""
    return {"type": "hint", "version": version, "kind": got.kind,
            "options": [_option(o) for o in got.options[:SHOWN]], "call": got.call}


def reply(job: HintJob, action_id: str | None) -> dict[str, Any]:
    """A runner's whole job: the channel message for the asking socket's consumer
    (`teaching_hint`), with the answer's frame or the code of a refusal found now. The runner
    (a door: games/tasks.py, games/live/bot_pool.py) sends it to that socket alone."""
    message: dict[str, Any] = {"type": "teaching.hint", "action_id": action_id}
    try:
        message["frame"] = answer(job)
    except ServiceError as exc:
        message["error"] = str(exc.code)
    except Exception:
        log.exception("hint at room %s failed", job.code)
        message["error"] = str(ErrorCode.SERVER_ERROR)
    return message


def enqueue(job: HintJob, channel_name: str, action_id: str | None) -> None:
    """The distributed mode: a Celery task sent by name (never run in an ASGI process)."""
    from troccas_site.celery import app

    app.send_task(HINT_TASK, (job.code, job.user_id, job.version, channel_name, action_id))


__all__ = ["HINT_TASK", "SHOWN", "HintJob", "answer", "budget_ms", "check", "enqueue", "frame",
           "reply"]
