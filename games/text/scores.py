"""A score pair in words: both teams labelled, always A first (issue #24 item 4), so that
"Team B wins the deal 16:56" can no longer be read as the winner's 16. The table's JS prints
the same pair with the "score_pair" string of games/text/table.py (static/js/views/scene.js
scorePair); the history pages use the {% score_pair %} tag (games/templatetags/score_tags.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def score_pair(a: int, b: int) -> str:
    """Team A's then Team B's figure, each labelled: "A 16 : B 56"."""
    # Translators: a score of both teams, A first; keep the team letters A and B.
    return _("A %(a)s : B %(b)s") % {"a": a, "b": b}

