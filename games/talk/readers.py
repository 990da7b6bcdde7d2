"""Who reads whom: the per-reader filters a socket applies to every talk frame."""

from __future__ import annotations

from games.models import TalkMute


def hidden_speakers(user_id: int) -> set[int]:
    """The speakers whose talk `user_id` does not see: those they muted. (The friends feature's
    blocks join this set: one function, so every socket filters the same way.)"""
    return set(TalkMute.objects.filter(user_id=user_id).values_list("muted_id", flat=True))


def links_allowed(reader_id: int, speaker_id: int) -> bool:
    """Whether a URL in `speaker_id`'s talk is shown to `reader_id` as a link. Only a friend's
    links are; the site has no friends yet, so no talk is ever rendered as a link (the client
    shows text as text either way)."""
    return False
