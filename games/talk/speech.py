"""Saying something at a table: every check, the stored row, the announcement after commit.

Who hears what (issue #17): a seated player's talk is public to the whole table — the four
seats and the spectators, as at a real table; there is no private partner channel. Anyone
without a seat speaks in the spectators' chat, which only spectators receive, so a watcher
cannot help a player. The room's `table_talk` option governs both: `free`, `phrases` (quick
phrases only) or `silent`.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.validators import has_visible, is_plain_text, matchable, normalise, too_many_marks
from games.engine.options import Options
from games.models import (
    BlockedWord,
    QuickPhrase,
    Room,
    Round,
    Seat,
    TalkAudience,
    TalkMessage,
    TalkSuspension,
    Trick,
)
from games.models.talk import MAX_CHARS
from games.talk import hooks
from games.talk.errors import TalkError
from games.talk.frames import payload_of

# At most RATE_COUNT messages per RATE_WINDOW per user and room. Counted on the stored rows,
# so every ASGI process of the distributed mode sees the same count.
RATE_COUNT = 5
RATE_WINDOW = timedelta(seconds=10)


def say(code: str, user: Any, *, text: str | None = None, phrase: str | None = None
        ) -> TalkMessage:
    """Store what `user` says at table `code` and announce it after commit, or raise
    TalkError (nothing stored). Exactly one of `text` and `phrase` (a QuickPhrase key)."""
    room = Room.objects.filter(code=code).select_related("current_match").first()
    if room is None:
        raise TalkError("ROOM_NOT_FOUND")
    if room.closed is not None:
        raise TalkError("ROOM_CLOSED")
    mode = Options.from_json(room.options).table_talk
    if mode == "silent":
        raise TalkError("TALK_SILENT")
    if (text is None) == (phrase is None):
        raise TalkError("INVALID_FIELD")
    quick: QuickPhrase | None = None
    clean = ""
    if phrase is not None:
        quick = QuickPhrase.objects.filter(key=phrase, active=True).first()
        if quick is None:
            raise TalkError("UNKNOWN_PHRASE")
    else:
        if mode == "phrases":
            raise TalkError("TALK_PHRASES_ONLY")
        if not is_plain_text(text or ""):  # as typed: a bidi control is refused, not dropped
            raise TalkError("INVALID_FIELD")
        clean = " ".join(normalise(text or "").split())
        check_text(clean)
    now = timezone.now()
    if TalkSuspension.objects.filter(user_id=user.pk, until__gt=now).exists():
        raise TalkError("TALK_SUSPENDED")
    recent = TalkMessage.objects.filter(room=room, author_id=user.pk,
                                        created__gt=now - RATE_WINDOW).count()
    if recent >= RATE_COUNT:
        raise TalkError("TALK_TOO_FAST")
    seat = (Seat.objects.filter(room=room, user_id=user.pk, index__isnull=False)
            .values_list("index", flat=True).first())
    audience = TalkAudience.TABLE if seat is not None else TalkAudience.SPECTATORS
    deal, trick = _moment(room)
    with transaction.atomic():
        message = TalkMessage.objects.create(
            room=room, match=room.current_match, audience=audience, author_id=user.pk,
            seat=seat, text=clean, phrase=quick, version=room.version, deal=deal,
            trick=trick, created=now)
        message.author = user
        hooks.said(code, audience, payload_of(message))
    return message


def check_text(text: str) -> None:
    """Refuse an empty or invisible, oversized, control-character, mark-stacked or
    blocked-word text (TalkError); `text` is normalised (accounts.validators.normalise)."""
    if not text or not has_visible(text):
        raise TalkError("TALK_EMPTY")
    if len(text) > MAX_CHARS:
        raise TalkError("TALK_TOO_LONG")
    if not is_plain_text(text):
        raise TalkError("INVALID_FIELD")
    if too_many_marks(text):
        raise TalkError("TEXT_TOO_MANY_MARKS")
    if blocked_word_in(text):
        raise TalkError("TALK_BLOCKED_WORD")


def blocked_word_in(text: str) -> bool:
    """Whether `text` holds a blocked word of any language's list, as a whole word in any case:
    a table mixes languages, so every list applies to every message."""
    words = set(BlockedWord.objects.values_list("word", flat=True))
    if not words:
        return False
    # Read as normalised and without any invisible character: "b\u200bad", "ｂａｄ" and
    # "bad" are one word (issue #25 item 10).
    text = matchable(text)
    said = set(re.findall(r"\w+", text))
    for word in words:
        folded = matchable(word).strip()
        if " " in folded or not folded.isalnum():
            if re.search(r"(?<!\w)" + re.escape(folded) + r"(?!\w)", text):
                return True
        elif folded in said:
            return True
    return False


def _moment(room: Room) -> tuple[int | None, int | None]:
    """The deal and trick of the room's current match at this moment (None in the lobby)."""
    if room.current_match_id is None:
        return None, None
    deal = (Round.objects.filter(match_id=room.current_match_id).order_by("-number")
            .values_list("id", "number").first())
    if deal is None:
        return None, None
    trick = (Trick.objects.filter(round_id=deal[0]).order_by("-number")
             .values_list("number", flat=True).first())
    return deal[1], trick
