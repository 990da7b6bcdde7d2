"""The hint tests drive the bots themselves, as the bots-at-the-table tests do: the same
fixture (no embedded worker pool racing the test's own wake-ups)."""

from tests.services.bots.conftest import no_worker_threads  # noqa: F401 - found by name
