"""Fixtures for live-table tests: a seated table, a seeded deck instead of the CSPRNG, a channel
layer per test, and the replay check after every test. The people are tests/conftest.py's
(tests/personas.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games.engine import CARD_IDS
from tests.support.servers import Processes, server_processes


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    """Every test gets a channel layer of its own: channels-redis binds its per-channel locks
    to the event loop that took them, and each async test runs on a loop of its own."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def table(owner: Any, players: list[Any]) -> tuple[str, dict[int, Any]]:
    """A room with the four players seated (tests/personas.py) and its seats by index; a test
    module that needs the table further on defines its own `table`."""
    from tests import personas
    from tests.support import tables

    room = tables.seat_table(owner, players)
    return room.code, personas.by_seat(owner, players)


@pytest.fixture
def seeded_decks(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """Make the server shuffle reproducibly (tests only): decks follow random.Random(seed)."""

    def use(seed: int) -> None:
        rng = random.Random(seed)

        def deck() -> list[str]:
            d = list(CARD_IDS)
            rng.shuffle(d)
            return d

        monkeypatch.setattr("games.services.writer.shuffled_deck", deck)

    return use


@pytest.fixture(autouse=True)
def _every_match_replays(request: pytest.FixtureRequest) -> Any:
    """Issue #7: after every test that played on the database, each match's transcript
    (games.history, built from the action log) replays through the engine to exactly the
    stored state — phase, totals, each deal's points and piles (tests/support/matches.py)."""
    uses_db = request.node.get_closest_marker("django_db") is not None or any(
        name in request.fixturenames for name in ("db", "transactional_db"))
    if uses_db:
        request.getfixturevalue("_django_db_helper")  # torn down after this check
    yield
    if uses_db:
        from tests.support.matches import check_every_match

        check_every_match()


@pytest.fixture
def server_procs(request: pytest.FixtureRequest, transactional_db: Any,
                 tmp_path: Path) -> Iterator[Processes]:
    """Server processes for one distributed-mode test (tests/support/servers.py): uvicorn
    servers, Celery workers and beat on the test's committed rows and the Redis index its
    module reserves (`REDIS_INDEX`); all are killed when the test ends, whatever its outcome."""
    with server_processes(request.module.REDIS_INDEX, tmp_path) as procs:
        yield procs
