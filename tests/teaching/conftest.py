"""The bots-at-the-table tests wake the bots themselves."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from games.live import bot_pool


@pytest.fixture
def no_worker_threads() -> Iterator[None]:
    """No embedded worker pool: one a websocket test of this process started would race the
    test's own wake-ups (the workers have tests of their own, tests/live/test_bot_pool.py)."""
    bot_pool.embedded.stop()
    yield
    bot_pool.embedded.stop()
