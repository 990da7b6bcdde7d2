"""CI exercises the teaching bench (issue #28 item 5): bench/teaching.py in the embedded mode,
in a child process (its own SQLite file), with a few hints and one review at small budgets —
it must finish and print its last line. Never the timings."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAST_LINE = re.compile(
    r"^teaching: hint p50 [0-9]+ ms p95 [0-9]+ ms, review of a deal p50 [0-9.]+ s, "
    r"lessons (\d+)$")

pytestmark = [pytest.mark.load, pytest.mark.timeout(240)]


def test_the_bench_hints_reviews_and_plays_the_course() -> None:
    env = {**os.environ, "TROCCAS_HINT_BUDGET_MS": "20", "TROCCAS_REVIEW_BUDGET_MS": "20"}
    for key in ("DATABASE_URL", "REDIS_URL"):
        env.pop(key, None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "teaching.py"), "--hints", "4", "--reviews", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=200, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    found = LAST_LINE.match(done.stdout.strip().splitlines()[-1])
    assert found is not None, done.stdout
    assert int(found.group(1)) >= 10
