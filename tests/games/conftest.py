"""Fixtures for live-table tests: a seeded deck instead of the CSPRNG, and table personas."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import CARD_IDS


@pytest.fixture
def seeded_decks(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Make the server shuffle reproducibly (tests only): decks follow random.Random(seed)."""

    def use(seed: int) -> None:
        rng = random.Random(seed)

        def deck() -> list[str]:
            d = list(CARD_IDS)
            rng.shuffle(d)
            return d

        monkeypatch.setattr("games.services.shuffled_deck", deck)

    return use


@pytest.fixture
def spectator(make_user: Callable[..., Any]) -> Any:
    return make_user("spectator")
