"""A tournament's pages kept live (docs/protocol.md "The site socket", docs/decisions.md "Live
standings: pushed on the site socket, polled as a fallback").

    changed(tournament_id, what)   after commit: `{"type": "tournament", ...}` to its watchers
    frame(tournament_id, what)     that frame

A page of a tournament (its page, its standings, the director's desk) asks its site socket to
`watch` the tournament; the socket joins the tournament's group once tournaments.may_watch
says yes (the tournament is one the viewer may see: the rule of its page). Whatever changes
what those pages show — a table's result copied, entered, adjudicated or adjusted, a round
paired, started or closed, an entry made or withdrawn, a table paused or given a substitute —
says so here, inside the transaction that makes the change; the frame leaves after its commit
(the after-commit port), never for a change that rolled back.

The frame names the tournament and the kind of change, nothing else: no score, no name, no
card, so it tells a watcher nothing the page's own door would not (a duplicate round's decks
stay behind games/clubs/duplicate.py's gate). Each page then reads its own JSON or HTML again,
with the viewer's rights.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from games.models.after_commit import Effects, on_commit

__all__ = ["CHANGES", "changed", "frame"]

# What a `tournament` frame's `changed` may say. The first four come from the changes below;
# `watch` answers the socket's own `watch` (the page reads again: it may have missed frames
# while its socket was away), `resync` follows the channel layer's word that frames may have
# been lost (games/live/channel_layer.py).
CHANGES: Final = frozenset({"entrants", "round", "table", "adjustment", "watch", "resync"})


def frame(tournament_id: int, what: str) -> dict[str, Any]:
    """The `tournament` frame saying that `what` changed."""
    if what not in CHANGES:
        raise ValueError(what)
    return {"type": "tournament", "tournament": tournament_id, "changed": what}


def _send(tournament_id: int, what: str) -> Callable[[Effects], None]:
    body = frame(tournament_id, what)
    return lambda port: port.publish_tournament(tournament_id, body)


def changed(tournament_id: int, what: str) -> None:
    """Tell the tournament's watchers that `what` changed, once the transaction commits (at
    once outside one)."""
    on_commit(_send(tournament_id, what))

