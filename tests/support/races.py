"""Concurrent writers for the race tests (PostgreSQL only): each call in its own thread and
database connection, all released at once by a barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.db import connection


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run `calls` at the same moment; their results in order."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait(timeout=30)
            return call()
        finally:
            connection.close()  # each thread's own connection

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))
