"""No error hides in the log (issue #24 item 12): the socket and browser tests fail on any
ERROR record, whether it was logged in the test's own process (the consumers under
channels.testing) or by the server process a browser test talks to (its log file).

A test that provokes an error on purpose (a bot that raises, a broadcast that fails) says so
with `@pytest.mark.allow_error_log("why")`, and still sees its records in caplog if it asserts
on them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

# The site's own format (settings.LOGGING "plain": "<date> <time> LEVEL logger: message") and
# uvicorn's ("ERROR:    Exception in ASGI application"), and any traceback printed bare.
_ERROR_LINE = re.compile(
    r"^(?:\S+ \S+ (?:ERROR|CRITICAL) |(?:ERROR|CRITICAL):\s|Traceback \(most recent call last\))")


def error_lines(text: str) -> list[str]:
    """The lines of a log that record an error: the first line of each record."""
    return [line for line in text.splitlines() if _ERROR_LINE.match(line)]


def _allowed(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("allow_error_log") is not None


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def _no_error_records(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail the test if anything in this process logged at ERROR or above while it ran (the
    root logger: every logger of the site propagates to it, settings.LOGGING)."""
    handler = _Collect()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    if handler.records and not _allowed(request):
        shown = "\n".join(f"{r.levelname} {r.name}: {r.getMessage()}" for r in handler.records)
        pytest.fail(f"the test logged {len(handler.records)} error record(s):\n{shown}",
                    pytrace=False)


class ServerLog:
    """A server process's log file, read from where the last test left it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def skip_to_end(self) -> None:
        self.offset = self.path.stat().st_size if self.path.exists() else 0

    def new_errors(self) -> list[str]:
        if not self.path.exists():
            return []
        with self.path.open("rb") as fh:
            fh.seek(self.offset)
            data = fh.read()
        self.offset += len(data)
        return error_lines(data.decode("utf-8", errors="replace"))


def check_server_log(request: pytest.FixtureRequest, log: ServerLog) -> Iterator[None]:
    """The body of a browser package's autouse fixture: the server's errors while the test
    ran fail it (read after the test, so a page's last request has been answered)."""
    log.skip_to_end()
    yield
    errors = log.new_errors()
    if errors and not _allowed(request):
        pytest.fail("the server logged errors during the test:\n" + "\n".join(errors[:20]),
                    pytrace=False)
