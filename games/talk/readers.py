"""Who reads whom: the per-reader filters a socket applies to every talk frame.

A socket reads both sets once (on connect, on resync, and whenever its user's mutes, blocks or
friends change) and filters every frame from them, without a query per message.
"""

from __future__ import annotations

from games.models import talk as talk_rows
from games.talk.friends import friend_ids


def hidden_speakers(user_id: int) -> set[int]:
    """The speakers whose talk `user_id` does not see: those they muted, those they blocked
    and those who blocked them (issue #17: "talk to you is hidden"); the replay hides the
    same (games/models/talk.py)."""
    return talk_rows.hidden_speakers(user_id)


def trusted_speakers(user_id: int) -> set[int]:
    """The speakers whose links `user_id` is shown as links: their friends. A stranger's URL
    stays text (and the client renders every message as text; a link is only ever built by
    the client from a URL in a friend's message)."""
    return friend_ids(user_id)


def links_allowed(speaker_id: int, trusted: set[int]) -> bool:
    """Whether a URL in `speaker_id`'s talk is shown as a link to a reader who trusts
    `trusted` (see trusted_speakers)."""
    return speaker_id in trusted
