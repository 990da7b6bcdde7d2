"""Only games/services/ writes game rows (ARCHITECTURE.md convention 9) — watched on every
statement the suite runs.

A pytest plugin (pyproject.toml: `-p tests.write_guard`): every database connection the test
process opens gets an execute wrapper that looks at each INSERT, UPDATE and DELETE on a game
table (Room, Seat, Match, Round, Trick, NarrDebt, RoundAction) and at the Python stack that sent
it. The statement is in order when the services are on that stack, or a migration, or when no
door is: a test building or breaking rows by hand for a constraint test, or the test runner's
own flush between tests. A write that comes through a door (a view, the API, a consumer, the
admin, a task, a management command) without the services is recorded, and the test that
caused it fails in its teardown with the statement and the stack.

tests/site/test_layers.py holds the static half (a scan of the code for writes the suite may
not run) and proves that this guard catches a write.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db.backends.signals import connection_created

ROOT = Path(__file__).resolve().parent.parent
GAME_TABLES = ("games_room", "games_seat", "games_match", "games_round", "games_trick",
               "games_narrdebt", "games_roundaction")
_WRITE = re.compile(
    r'^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+["`]?(' + "|".join(GAME_TABLES) + r')["`]?\b',
    re.IGNORECASE)
# Where a legitimate write may come from.
_WRITERS = (str(ROOT / "games" / "services") + "/", str(ROOT / "games" / "migrations") + "/")
# Framework frames that mean "this came in through a door", even when a test started it.
# (Django's own management commands are left out: `flush` empties the tables between tests;
# the project's commands are project frames and judged as such.)
_DOOR_FRAMES = ("/django/core/handlers/", "/django/contrib/admin/", "/channels/",
                "/celery/app/trace")
_TESTS = str(ROOT / "tests") + "/"
_PROJECT = str(ROOT) + "/"
_VENV = str(ROOT / ".venv") + "/"

violations: list[str] = []
_lock = threading.Lock()


def _verdict(sql: str) -> str | None:
    """None if this statement may run here, else a description of the offence."""
    match = _WRITE.match(sql)
    if match is None:
        return None
    frame = sys._getframe(2)
    project: list[str] = []
    door = False
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(_WRITERS):
            return None
        if name.startswith(_PROJECT) and not name.startswith(_VENV):
            if name != __file__:
                project.append(f"{Path(name).relative_to(ROOT)}:{frame.f_lineno}")
        elif any(part in name for part in _DOOR_FRAMES):
            door = True
        frame = frame.f_back
    # The models' own methods (RoundAction.save refusing updates) only pass a write on.
    outside_tests = [p for p in project if not p.startswith(("tests/", "games/models/"))]
    if not outside_tests and not door:
        return None  # a test's own rows, or the runner's housekeeping
    where = " <- ".join(project[:8]) or "(framework code only)"
    return f"{sql.split(None, 3)[0].upper()} on {match.group(1)} from {where}"


def guard(execute: Callable[..., Any], sql: str, params: Any, many: bool,
          context: dict[str, Any]) -> Any:
    offence = _verdict(sql)
    if offence is not None:
        with _lock:
            violations.append(offence)
    return execute(sql, params, many, context)


def install(connection: Any) -> None:
    if guard not in connection.execute_wrappers:
        # First in line: a test's own `execute_wrapper()` block pops the last one on exit.
        connection.execute_wrappers.insert(0, guard)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    install(connection)


def pytest_configure(config: pytest.Config) -> None:
    connection_created.connect(_on_connection, weak=False)


@pytest.fixture(autouse=True)
def _only_services_write_game_rows() -> Iterator[None]:
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        install(conn)
    with _lock:
        seen = len(violations)
    yield
    with _lock:
        new = violations[seen:]
    if new:
        pytest.fail("game rows written outside games/services/:\n  " + "\n  ".join(new),
                    pytrace=False)
