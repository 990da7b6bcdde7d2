"""`{% score_pair a b %}`: both teams' figures labelled, A first (issue #24 item 4), for the
history pages; the words are games/text/scores.py's."""

from __future__ import annotations

from django import template

from games.text.scores import score_pair as _score_pair

register = template.Library()


@register.simple_tag
def score_pair(a: int, b: int) -> str:
    return _score_pair(a, b)
