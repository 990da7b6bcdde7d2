"""bench/bot_arena.py (issue #27 item 7): a short duplicate run against the frozen baseline
counts, per level, the decisions' wall and CPU times, the playouts and the BUOB calls made and
refused; the baseline lives in bench/ alone, where no table can seat it. Never the timings."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bench import bot_arena

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.load, pytest.mark.timeout(240)]


def test_a_short_run_reports_each_level() -> None:
    r = bot_arena.run("easy", "baseline", pairs=4, seed=7, budget_ms=3.0, budget_b=3.0)
    assert len(r["diffs"]) == 4 and r["deals"] == 8
    stats: bot_arena.Stats = r["stats"]
    assert stats.rejected == 0
    easy, base = stats.levels["easy"], stats.levels["baseline"]
    for s in (easy, base):
        assert s.wall_ms and len(s.cpu_ms) == len(s.wall_ms)
        assert 0 <= s.refused <= s.calls
    assert easy.playouts == 0 and base.playouts > 0 and base.search_wall_ms > 0
    lines = bot_arena.report_level("baseline", 3.0, base, r["deals"])
    assert any("playouts" in line for line in lines)
    assert any("BUOB calls" in line and "refused" in line for line in lines)


def test_nothing_in_games_imports_the_baseline() -> None:
    for path in (ROOT / "games").rglob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n == "bench" or n.startswith("bench.") for n in names), path
