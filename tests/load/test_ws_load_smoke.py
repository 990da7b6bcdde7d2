"""CI exercises the load harness: bench/ws_load.py for a few seconds in the embedded mode.

Two tables play random legal moves on a real uvicorn (temporary SQLite file) through the
harness's own functions, in a child process (the harness sets up Django on its own database).
Asserted: no errors, no lost, repeated or out-of-order updates, no hidden card in any frame,
the replayed logs match, the echo answered. Never the timings: this machine is shared.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.load, pytest.mark.timeout(180)]


def test_two_tables_play_cleanly_through_the_harness(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "ws_load.py"), "--mode", "embedded",
         "--tables", "2", "--duration", "5", "--rate", "2", "--echo-duration", "2",
         "--cycles", "2", "--cycle-tables", "2", "--json", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=150)
    assert out.exists(), done.stdout + done.stderr
    report = json.loads(out.read_text())
    assert report["actions"] > 0 and report["samples"] == 4 * report["actions"], report
    assert report["errors"] == 0, report["error_examples"]
    assert report["lost_updates"] == 0
    assert report["duplicated_updates"] == 0
    assert report["out_of_order_updates"] == 0
    assert report["hidden_card_leaks"] == 0, report["leak_examples"]
    assert report["replay_problems"] == 0, report["replay_examples"]
    assert report["frames_scanned"] > 0
    assert report["echo"]["n"] > 0 and not report["echo"]["errors"]
    assert report["cycles"]["problem_count"] == 0
    assert not report.get("crashed")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_hidden_card_scan_catches_another_seats_card() -> None:
    """The scan is not vacuous: another hand's card, the scart and the deck are forbidden."""
    sys.path.insert(0, str(ROOT))
    from bench.ws_load import cards_in, forbidden_cards
    from games.engine import CARD_IDS, apply, new_match_state
    from games.engine.cards import ids_of

    state, _ = apply(new_match_state(None, 0), {"type": "start_round",
                                                "deck": list(CARD_IDS)})
    while state.phase == "DEALING":
        state, _ = apply(state, {"type": "deal_next_pass", "seat": state.deal.dealer})
    # REVEAL: the reveal cards are public, the rest of the other hands is not.
    reveal = {CARD_IDS[c] for c in state.deal.reveal}
    other = set(ids_of(state.deal.hands[1]))
    hidden = forbidden_cards(state, 0)
    assert other - reveal <= hidden and not reveal & hidden
    assert not set(ids_of(state.deal.hands[0])) & hidden
    frame = {"type": "state", "view": {"hand": sorted(other)}}
    assert cards_in(frame) & hidden
