"""Fixtures shared by the page tests."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Room, Seat


@pytest.fixture
def room(owner: Any, players: list[Any]) -> Room:
    """A Bock room "Stiva" with the owner seated on team A and one player on team B."""
    room = Room.objects.create(owner=owner, name="Stiva", options={"bock": True})
    Seat.objects.create(room=room, user=owner, team="A")
    Seat.objects.create(room=room, user=players[0], team="B")
    return room
