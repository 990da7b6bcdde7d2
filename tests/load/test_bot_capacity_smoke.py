"""CI exercises the capacity bench: bench/bot_capacity.py for a few seconds in the embedded mode.

One practice table (a simulated person over a real websocket, three strong bots) on a real
uvicorn, in a child process (the bench sets up Django on its own database). Asserted: the person
and the bots played, no errors, the decisions ran in the server's bot runner (embedded) and its
figures reached the bench; never the timings (this machine is shared).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.load, pytest.mark.timeout(180)]


def test_one_practice_table_plays_cleanly_through_the_bench(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bot_capacity.py"), "--mode", "embedded",
         "--budget", "adaptive", "--tables", "1", "--warmup", "2", "--step-seconds", "8",
         "--think", "0.3", "--quick", "0.1", "--budget-ms", "50", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=150)
    assert out.exists(), done.stdout + done.stderr
    report = json.loads(out.read_text())
    (step,) = report["steps"]
    assert step["errors"] == 0, step["error_examples"]
    assert step["person_actions"] > 0 and step["bot_replies"] > 0, step
    assert step["decisions"] > 0 and step["decisions_in_asgi"] == step["decisions"], step
    assert step["runner_processes"] == 1 and step["budget_at_end_ms"], step
    assert set(step["decisions_by_budget_ms"]) <= {"50", "25", "20"}, step
    assert not report["crashed"]
    assert done.returncode == 0, done.stdout + done.stderr
