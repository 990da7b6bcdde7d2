"""The talk frames of docs/protocol.md §talk, built for one reader.

A stored message becomes a language-neutral payload once (`payload_of`, what the channel
layer carries); each socket turns it into its reader's frame (`for_reader`): a quick phrase in
the reader's language, and whether its links may be links. Hidden messages are never sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings

from games.models import QuickPhrase, Room, TalkAudience, TalkMessage
from games.talk.readers import links_allowed

# What a socket gets of the current match on connect or resync.
HISTORY_LENGTH = 50


def phrase_texts(phrase: QuickPhrase) -> dict[str, str]:
    """A phrase in every language (the English one where a translation is missing)."""
    return phrase.texts()


def _author_name(message: TalkMessage) -> str:
    """The author's name as the table shows it: fixed at the match's start at a table that
    may not talk freely (Match.seat_names, issue #25 item 9), else their name now."""
    live = str(message.author.public_name)
    if message.match_id is None or message.match is None:
        return live
    return str((message.match.seat_names or {}).get(str(message.author_id), live))


def payload_of(message: TalkMessage) -> dict[str, Any]:
    phrase = message.phrase
    return {
        "id": message.pk, "audience": message.audience, "author": message.author_id,
        "name": _author_name(message), "seat": message.seat, "text": message.text,
        "phrase": phrase.key if phrase is not None else None,
        "phrase_text": phrase_texts(phrase) if phrase is not None else None,
        "match": message.match_id, "version": message.version, "deal": message.deal,
        "trick": message.trick,
        "at": message.created.isoformat(),
    }


def for_reader(payload: dict[str, Any], language: str, trusted: set[int]) -> dict[str, Any]:
    """One message as a reader in `language`, whose friends are `trusted`, sees it."""
    texts = payload["phrase_text"]
    shown = dict(payload)
    del shown["phrase_text"]
    if texts is not None:
        shown["text"] = texts.get(language) or texts.get(settings.LANGUAGE_CODE, "")
    shown["links"] = links_allowed(payload["author"], trusted)
    return shown


def palette(language: str) -> list[dict[str, str]]:
    """The active quick phrases, in `language`, in the palette's order."""
    return QuickPhrase.palette(language)


def audiences_for(seat: int | None) -> tuple[str, ...]:
    """What a socket may read: a seat the table's talk; a spectator that and their chat."""
    if seat is not None:
        return (TalkAudience.TABLE,)
    return (TalkAudience.TABLE, TalkAudience.SPECTATORS)


def history_payloads(code: str, seat: int | None, hidden: Iterable[int]
                     ) -> tuple[int | None, list[dict[str, Any]]]:
    """The current match's id (None in the lobby before a first match) and the payloads of its
    last HISTORY_LENGTH visible messages this reader may see, oldest first: what a socket
    keeps, to refilter from when its reader's mutes change (games/live/talk.py)."""
    room = Room.objects.filter(code=code).values("id", "current_match_id").first()
    if room is None:
        return None, []
    rows = (TalkMessage.objects
            .filter(room_id=room["id"], match_id=room["current_match_id"],
                    hidden__isnull=True, audience__in=audiences_for(seat))
            .exclude(author_id__in=list(hidden))
            .select_related("author", "phrase", "match").order_by("-pk")[:HISTORY_LENGTH])
    return room["current_match_id"], [payload_of(m) for m in reversed(rows)]


def history_frame(payloads: Iterable[dict[str, Any]], language: str, hidden: set[int],
                  trusted: set[int]) -> dict[str, Any]:
    """The `talk_history` frame of `payloads` for one reader: without the speakers in
    `hidden`, the last HISTORY_LENGTH of the rest."""
    shown = [p for p in payloads if p["author"] not in hidden][-HISTORY_LENGTH:]
    return {"type": "talk_history",
            "messages": [for_reader(p, language, trusted) for p in shown]}


def history(code: str, seat: int | None, language: str, hidden: Iterable[int],
            trusted: set[int]) -> dict[str, Any]:
    """The `talk_history` frame: the last HISTORY_LENGTH visible messages of the current
    match (or of the lobby, before a first match) that this reader may see, oldest first."""
    hidden = set(hidden)
    return history_frame(history_payloads(code, seat, hidden)[1], language, hidden, trusted)
