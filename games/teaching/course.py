"""The course's doors' work (issue #28 item 1): a learner's attempt at a lesson kept in their
session, each move judged (games/teaching/lessons.py) and answered with the table's view and
the lesson's words in the page's language, and the lessons finished kept per account.

An attempt is the lesson, its scene, the learner's right moves in it and the wrong ones
counted; the position is rebuilt from the file and those moves at every request, so a
reload, a second tab or a restarted server shows the same table. Anonymous learners keep
what they finished in the session too; signing up or in moves it to their account
(`carry_over`, on Django's user_logged_in).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils.translation import get_language

from games.engine import events_for
from games.engine.errors import ErrorCode
from games.models import LessonProgress, funnel
from games.services.errors import ServiceError
from games.text.errors import message_for
from games.text.refusals import sentence

from . import hints, lessons
from .lesson_files import Lesson, LessonFileError, lesson, texts
from .lesson_files import lessons as all_lessons

ATTEMPT = "lesson_attempt"
FINISHED = "lessons_finished"  # an anonymous learner's {slug: stars}
# The rules page's section for each refusal a lesson may meet (else the lesson's own).
_RULE_OF = {"MUST_FOLLOW_SUIT": "follow-suit", "MUST_PLAY_TRUMP": "must-trump",
            "BUOB_FORCED_JACK": "buob", "SCART_FORBIDDEN_CARD": "scart"}
# One hint a second per learner: a hint is a search of several hundred milliseconds.
HINT_EVERY_S = 1.0
# The names at the lesson's table: the learner, their partner, the two opponents.
_NAMES = ("", "Mengia", "Gion", "Flurina")


@dataclass
class Attempt:
    slug: str
    scene: int = 0
    moves: list[dict[str, Any]] = field(default_factory=list)
    wrong: int = 0
    hints: int = 0
    hint_at: float = 0.0


def _attempt(session: Any, found: Lesson) -> Attempt:
    raw = session.get(ATTEMPT)
    if isinstance(raw, dict) and raw.get("slug") == found.slug:
        try:
            att = Attempt(**raw)
            if 0 <= att.scene < len(found.scenes):
                return att
        except TypeError:
            pass
    return Attempt(found.slug)


def _save(session: Any, att: Attempt) -> None:
    session[ATTEMPT] = asdict(att)


def _position(found: Lesson, session: Any, att: Attempt) -> lessons.Position:
    try:
        return lessons.replay(found, att.scene, att.moves)
    except LessonFileError:
        # The file changed under a kept attempt: the scene starts again.
        att.moves = []
        _save(session, att)
        return lessons.setup(found.scenes[att.scene])


def _rule_url(anchor: str) -> str:
    if anchor == "bock":
        return reverse("games:rules_bock")
    return f"{reverse('games:rules')}#{anchor}" if anchor else reverse("games:rules")


def _table_view(pos: lessons.Position, found: Lesson, words: Mapping[str, str],
                you: str) -> dict[str, Any]:
    """The table's `view` (docs/protocol.md §3) of the lesson: the engine's view of the
    learner's seat and the room around it, as a practice table's."""
    out = pos.view()
    seat = pos.scene.seat
    names = {seat: you}
    others = [(seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4]
    for name, other in zip(_NAMES[1:], others, strict=True):
        names[other] = name
    out["room"] = {"code": "lesson", "name": words.get("title", found.slug),
                   "owner": {"id": 1, "name": you}, "visibility": "private",
                   "allow_spectators": False, "options": pos.state.options.to_json(),
                   "closed": False}
    out["seats"] = [{"index": i, "team": "A" if i % 2 == 0 else "B",
                     "player": {"id": 1 if i == seat else 2 + i, "name": names[i], "bot": None},
                     "stand_in": False, "connected": True, "away_since": None,
                     "is_owner": i == seat} for i in range(4)]
    out["match"] = {"id": 0, "number": 1, "status": "running", "practice": pos.scene.hints,
                    "paused_at": None}
    out["deadline"] = None
    out["deadline_kind"] = None
    # A lesson's deal ends with its score: no next deal, no match to end or start again.
    out["actions"] = {**out["actions"], "regame": False, "end_match": False, "new_match": False}
    return out


def _frame(found: Lesson, att: Attempt, pos: lessons.Position, you: str,
           verdict: lessons.Verdict | None = None) -> dict[str, Any]:
    words = texts(found.slug, get_language() or settings.LANGUAGE_CODE)
    step = pos.current
    out: dict[str, Any] = {
        "lesson": found.slug, "scene": att.scene, "scenes": len(found.scenes),
        "step": pos.step, "version": pos.version,
        "goal": words.get(step.goal, "") if step is not None else "",
        "expect": step.expect if step is not None else None,
        "hints": pos.scene.hints, "wrong": att.wrong,
        "view": _table_view(pos, found, words, you),
        "events": None, "verdict": None, "message": "", "rule": None,
        "scene_done": pos.done, "finished": pos.done and att.scene == len(found.scenes) - 1,
        "stars": None, "next": None,
    }
    if verdict is not None:
        out["verdict"] = verdict.kind
        if verdict.kind == lessons.RIGHT:
            out["events"] = events_for(pos.last, pos.scene.seat)
            out["message"] = words.get(verdict.key, "")
        elif verdict.kind == lessons.WRONG:
            out["message"] = words.get(verdict.key, "") or message_for("INVALID_ACTION")
            out["rule"] = _rule_url(found.rule)
        else:
            legal = out["view"]["actions"]["legal_cards"] or []
            out["message"] = sentence(verdict.key, verdict.refusal, "NARR" in legal)
            buob = verdict.key.lower().startswith("buob_")  # every BUOB refusal (RULES §8)
            out["rule"] = _rule_url(_RULE_OF.get(verdict.key, "buob" if buob else found.rule))
    if out["finished"]:
        out["stars"] = lessons.stars(att.wrong)
        out["done"] = words.get("done", "")
        following = [x for x in all_lessons() if x.number > found.number]
        out["next"] = reverse("games:lesson", args=[following[0].slug]) if following else None
    return out


def find(slug: str) -> Lesson:
    found = lesson(slug)
    if found is None:
        raise ServiceError(ErrorCode.NOT_FOUND)
    return found


def state(session: Any, slug: str, you: str) -> dict[str, Any]:
    """The lesson as the learner left it (a new attempt if they were elsewhere)."""
    found = find(slug)
    att = _attempt(session, found)
    _save(session, att)
    return _frame(found, att, _position(found, session, att), you)


def restart(session: Any, slug: str, you: str) -> dict[str, Any]:
    found = find(slug)
    att = Attempt(found.slug)
    _save(session, att)
    return _frame(found, att, lessons.setup(found.scenes[0]), you)


def _clean(data: Any) -> dict[str, Any]:
    """The learner's move as sent: a small object of known fields (else a coded refusal)."""
    if not isinstance(data, dict):
        raise ServiceError(ErrorCode.MALFORMED_MESSAGE)
    kind = data.get("type")
    if kind not in (*lessons.MOVE_TYPES, "next"):
        raise ServiceError(ErrorCode.UNKNOWN_TYPE)
    out: dict[str, Any] = {"type": kind}
    card = data.get("card")
    if kind == "play_card":
        if not isinstance(card, str) or len(card) > 4:
            raise ServiceError(ErrorCode.INVALID_FIELD)
        out["card"] = card
        if data.get("call_buob") is True:
            out["call_buob"] = True
            suit = data.get("buob_suit")
            if suit is not None and suit not in ("C", "R", "S", "B"):
                raise ServiceError(ErrorCode.INVALID_FIELD)
            out["buob_suit"] = suit
    elif kind == "call_buob":
        suit = data.get("suit")
        if suit is not None and suit not in ("C", "R", "S", "B"):
            raise ServiceError(ErrorCode.INVALID_FIELD)
        out["suit"] = suit
    elif kind == "discard_scart":
        cards = data.get("cards")
        if (not isinstance(cards, list) or len(cards) != 2
                or not all(isinstance(c, str) and len(c) <= 4 for c in cards)):
            raise ServiceError(ErrorCode.INVALID_FIELD)
        out["cards"] = cards
    return out


def move(session: Any, user: Any, slug: str, data: Any, you: str) -> dict[str, Any]:
    """One move of the learner (or `next`: on to the lesson's next scene)."""
    found = find(slug)
    clean = _clean(data)
    att = _attempt(session, found)
    pos = _position(found, session, att)
    if clean["type"] == "next":
        if not pos.done or att.scene + 1 >= len(found.scenes):
            raise ServiceError(ErrorCode.WRONG_PHASE)
        att.scene += 1
        att.moves = []
        _save(session, att)
        return _frame(found, att, lessons.setup(found.scenes[att.scene]), you)
    if pos.done:
        raise ServiceError(ErrorCode.WRONG_PHASE)
    verdict = lessons.take(pos, clean)
    if verdict.kind == lessons.RIGHT:
        att.moves.append(clean)
    else:
        att.wrong += 1
    _save(session, att)
    out = _frame(found, att, pos, you, verdict)
    if out["finished"]:
        record(user, session, found.slug, out["stars"])
    return out


def hint(session: Any, slug: str) -> dict[str, Any]:
    """The strong bot's three best options for the learner now (a scene with hints only), in
    the table's `hint` frame (docs/protocol.md "Hints")."""
    found = find(slug)
    att = _attempt(session, found)
    pos = _position(found, session, att)
    if not pos.scene.hints:
        raise ServiceError(ErrorCode.HINT_NOT_ALLOWED)
    acts = pos.view()["actions"]
    if pos.done or not (acts["play"] or acts["scart"]):
        raise ServiceError(ErrorCode.NOTHING_TO_ADVISE)
    now = time.monotonic()
    if 0 <= now - att.hint_at < HINT_EVERY_S:
        raise ServiceError(ErrorCode.HINT_PENDING)
    att.hint_at = now
    att.hints += 1
    _save(session, att)
    digest = hashlib.sha256(f"lesson:{slug}:{att.scene}:{pos.version}".encode()).digest()
    got = lessons.hint(pos, budget_ms=hints.budget_ms(),
                       seed=int.from_bytes(digest[:8], "big"))
    return hints.frame(got, pos.version)


# --- progress ----------------------------------------------------------------------------------

def finished(user: Any, session: Any) -> dict[str, int]:
    """The lessons finished and their stars: the account's, and the session's for a visitor."""
    if user is not None and user.is_authenticated:
        return dict(LessonProgress.objects.filter(user=user).values_list("lesson", "stars"))
    raw = session.get(FINISHED)
    return {k: int(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def _keep(user: Any, slug: str, stars: int) -> None:
    with transaction.atomic():
        row, created = LessonProgress.objects.select_for_update().get_or_create(
            user=user, lesson=slug, defaults={"stars": stars})
        if not created and stars > row.stars:
            row.stars = stars
            row.save(update_fields=["stars"])
        if created and LessonProgress.objects.filter(user=user).count() == 1:
            funnel.reached(user, "lesson")  # the account's first lesson finished


def record(user: Any, session: Any, slug: str, stars: int) -> None:
    """A finished lesson, its best stars kept."""
    if user is not None and user.is_authenticated:
        _keep(user, slug, stars)
        return
    done = finished(None, session)
    done[slug] = max(stars, done.get(slug, 0))
    session[FINISHED] = done


def carry_over(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """Django's user_logged_in: what the visitor finished before signing up or in becomes the
    account's (the session keeps its data across the sign-in's new key)."""
    session = getattr(request, "session", None)
    if session is None:
        return
    done = finished(None, session)
    if not done:
        return
    for slug, stars in done.items():
        if lesson(slug) is not None:
            _keep(user, slug, stars)
    del session[FINISHED]


__all__ = ["ATTEMPT", "FINISHED", "Attempt", "carry_over", "finished", "hint",
           "move", "record", "restart", "state"]
