"""How deeply a JSON text nests, read before it is parsed.

Both the socket's frames (games/live/protocol.py) and the HTTP API's bodies (games/views/api.py)
refuse a text nested past MAX_DEPTH before handing it to a JSON decoder: without a bound, 2 KB
of "[[[[…" made the decoder recurse until RecursionError. Here, below both doors, since doors
never import each other; pure and stdlib-only like the rest of the engine's codec.
"""

from __future__ import annotations

import re

__all__ = ["MAX_DEPTH", "too_deep"]

# Deepest nesting of arrays and objects a text may have. The deepest command is 3 levels
# (set_options → options → bock_triggers); unknown keys are ignored but must stay this shallow.
MAX_DEPTH = 16
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether `text` nests arrays and objects deeper than `limit`, brackets inside strings
    not counted. Cheap for real frames: a few brackets are never too deep, and only a text
    with more than `limit` of them is scanned (the callers bound its size first)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False
