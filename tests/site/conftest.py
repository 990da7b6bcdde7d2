"""Fixtures shared by the page tests."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Room
from tests.support.tables import must


@pytest.fixture
def room(owner: Any, players: list[Any]) -> Room:
    """A Bock room "Stiva" opened by the owner (seated on team A), anna seated on team B."""
    opened = services.create_room(owner, {"bock": True}, name="Stiva")
    must(opened.code, players[0], "take_seat", team="B")
    return Room.objects.get(pk=opened.pk)
