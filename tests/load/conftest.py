"""The load smoke test's marker (registered here so tests/load needs nothing in pyproject)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "load: runs bench/ws_load.py briefly against a real server (no timings)")
