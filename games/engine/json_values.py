"""Checks on values decoded from JSON, shared by every reader of client or file input (the
options, the transcripts, the socket protocol): the engine is the lowest layer they all import.
"""

from __future__ import annotations

from typing import Any, TypeGuard

__all__ = ["is_int"]


def is_int(value: Any) -> TypeGuard[int]:
    """True for a JSON integer. `True` and `False` are ints to Python but booleans to JSON and
    to a client, so a bool where a number is expected is bad input, never 1 or 0."""
    return isinstance(value, int) and not isinstance(value, bool)
