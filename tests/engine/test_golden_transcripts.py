"""Golden transcripts: replay each tests/engine/transcripts/NAME.json through the command line
(`python -m games.engine replay FILE`, TRANSCRIPT.md) and compare its stdout with NAME.result.json.

The expected results were derived by hand from RULES.md (the reasoning is in each transcript's
`_comment`), never by running the engine. No Django, no database: only subprocesses.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
GOLDEN = sorted(p for p in TRANSCRIPTS.glob("*.json") if not p.name.endswith(".result.json"))


def replay(arg: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", "replay", arg],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )


def first_difference(expected: object, got: object, path: str = "$") -> str | None:
    """A readable pointer to the first place where two JSON values differ."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in list(expected) + [k for k in got if k not in expected]:
            if key not in got:
                return f"{path}.{key}: missing (expected {expected[key]!r})"
            if key not in expected:
                return f"{path}.{key}: unexpected key (got {got[key]!r})"
            diff = first_difference(expected[key], got[key], f"{path}.{key}")
            if diff:
                return diff
        return None
    if isinstance(expected, list) and isinstance(got, list):
        for i, (e, g) in enumerate(zip(expected, got, strict=False)):
            diff = first_difference(e, g, f"{path}[{i}]")
            if diff:
                return diff
        if len(expected) != len(got):
            return f"{path}: length {len(got)}, expected {len(expected)}"
        return None
    if expected != got or type(expected) is not type(got):
        return f"{path}: expected {expected!r}, got {got!r}"
    return None


def test_golden_set_is_complete():
    assert len(GOLDEN) >= 15
    for path in GOLDEN:
        assert path.with_suffix(".result.json").exists(), f"{path.name} has no result file"
        doc = json.loads(path.read_text())
        assert doc.get("format") == "troccas-transcript/1"
        assert doc.get("_comment"), f"{path.name} explains nothing"
        expected = json.loads(path.with_suffix(".result.json").read_text())
        assert expected["format"] == "troccas-result/1"
        assert "_comment" not in expected
        assert len(expected["results"]) == len(doc["actions"])


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_transcript(path: Path):
    expected = json.loads(path.with_suffix(".result.json").read_text())
    proc = replay(str(path))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    got = json.loads(proc.stdout)
    diff = first_difference(expected, got)
    assert got == expected, f"{path.name}: {diff}"


def test_replay_reads_standard_input():
    path = TRANSCRIPTS / "buob_example2_deferred.json"
    expected = json.loads(path.with_suffix(".result.json").read_text())
    proc = replay("-", stdin=path.read_text())
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got == expected, first_difference(expected, got)


# ---------------------------------------------------------------- invalid transcripts (exit 2)

CANONICAL = (
    [s + r for s in "CRSB" for r in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10",
                                     "J", "N", "Q", "K")]
    + [f"T{n}" for n in range(1, 22)]
    + ["NARR"]
)
PASSES = [{"type": "deal_next_pass", "seat": 3}] * 3


def doc(actions=None, **top):
    out = {"format": "troccas-transcript/1", "first_dealer": 3,
           "actions": actions if actions is not None else
           [{"type": "start_round", "deck": CANONICAL}]}
    out.update(top)
    return {k: v for k, v in out.items() if v is not _DROP}


_DROP = object()
START = {"type": "start_round", "deck": CANONICAL}
SETUP = [START, *PASSES, {"type": "end_reveal"},
         {"type": "discard_scart", "seat": 3, "cards": ["R5", "R6"]}]

# (id, transcript text, expected prefix after "invalid transcript: ")
INVALID = [
    ("bad_json", '{"format": "troccas-transcript/1", "first_dealer": 3, "actions": [',
     "top level:"),
    ("not_an_object", json.dumps([doc()]), "top level:"),
    ("empty_input", "", "top level:"),
    ("wrong_format", json.dumps(doc(format="troccas-transcript/2")), "top level:"),
    ("format_missing", json.dumps(doc(format=_DROP)), "top level:"),
    ("first_dealer_missing", json.dumps(doc(first_dealer=_DROP)), "top level:"),
    ("first_dealer_4", json.dumps(doc(first_dealer=4)), "top level:"),
    ("first_dealer_string", json.dumps(doc(first_dealer="3")), "top level:"),
    ("first_dealer_null", json.dumps(doc(first_dealer=None)), "top level:"),
    ("options_not_object", json.dumps(doc(options=["bock"])), "top level:"),
    ("unknown_option_key", json.dumps(doc(options={"bock_rounds": True})), "top level:"),
    ("match_deals_5", json.dumps(doc(options={"match_deals": 5})), "top level:"),
    ("reveal_seconds_1", json.dumps(doc(options={"reveal_seconds": 1})), "top level:"),
    ("turn_seconds_10", json.dumps(doc(options={"turn_seconds": 10})), "top level:"),
    ("scart_forbidden_all", json.dumps(doc(options={"scart_forbidden": "all"})), "top level:"),
    ("buob_caller_bad", json.dumps(doc(options={"buob_caller": "owner"})), "top level:"),
    ("bock_string", json.dumps(doc(options={"bock": "yes"})), "top level:"),
    ("bock_triggers_bad", json.dumps(doc(options={"bock_triggers": ["tie", "slam"]})),
     "top level:"),
    ("actions_missing", json.dumps(doc(actions=_DROP)), "top level:"),
    ("actions_not_list", json.dumps(doc(actions={"type": "start_round"})), "top level:"),
    ("action_not_object", json.dumps(doc(actions=[START, "deal_next_pass"])), "action 1:"),
    ("unknown_action_type",
     json.dumps(doc(actions=[START, *PASSES, {"type": "shuffle", "seat": 3}])), "action 4:"),
    ("action_type_missing", json.dumps(doc(actions=[START, {"seat": 3}])), "action 1:"),
    ("play_card_without_card",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "seat": 0}])), "action 6:"),
    ("play_card_without_seat",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "card": "C1"}])), "action 6:"),
    ("call_buob_null",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "seat": 0, "card": "C1",
                                      "call_buob": None}])), "action 6:"),
    ("call_buob_string",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "seat": 0, "card": "C1",
                                      "call_buob": "yes"}])), "action 6:"),
    ("card_not_string",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "seat": 0, "card": 1}])),
     "action 6:"),
    ("seat_out_of_range",
     json.dumps(doc(actions=[START, {"type": "deal_next_pass", "seat": 4}])), "action 1:"),
    ("seat_string",
     json.dumps(doc(actions=[START, {"type": "deal_next_pass", "seat": "3"}])), "action 1:"),
    ("seat_bool",
     json.dumps(doc(actions=[START, {"type": "deal_next_pass", "seat": True}])), "action 1:"),
    ("cards_not_list",
     json.dumps(doc(actions=[*SETUP[:5], {"type": "discard_scart", "seat": 3, "cards": "R5"}])),
     "action 5:"),
    ("cards_not_strings",
     json.dumps(doc(actions=[*SETUP[:5], {"type": "discard_scart", "seat": 3,
                                          "cards": ["R5", 6]}])), "action 5:"),
    ("call_suit_number",
     json.dumps(doc(actions=[*SETUP, {"type": "call_buob", "seat": 1, "suit": 2}])),
     "action 6:"),
    ("buob_suit_number",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "seat": 0, "card": "C1",
                                      "call_buob": True, "buob_suit": ["C"]}])), "action 6:"),
    ("deck_missing", json.dumps(doc(actions=[{"type": "start_round"}])), "action 0:"),
    ("deck_duplicate_id",
     json.dumps(doc(actions=[{"type": "start_round", "deck": ["C2"] + CANONICAL[1:]}])),
     "action 0:"),
    ("deck_77_ids",
     json.dumps(doc(actions=[{"type": "start_round", "deck": CANONICAL[:77]}])), "action 0:"),
    ("deck_79_ids",
     json.dumps(doc(actions=[{"type": "start_round", "deck": CANONICAL + ["C1"]}])),
     "action 0:"),
    ("deck_unknown_id",
     json.dumps(doc(actions=[{"type": "start_round", "deck": ["X1"] + CANONICAL[1:]}])),
     "action 0:"),
    ("deck_not_list",
     json.dumps(doc(actions=[{"type": "start_round", "deck": " ".join(CANONICAL)}])),
     "action 0:"),
    # Validated as a whole: a regame in DEALING would be rejected with WRONG_PHASE anyway, and
    # a start_round in a deal likewise, but their bad decks still make the file invalid.
    ("deck_invalid_on_rejected_regame",
     json.dumps(doc(actions=[START, {"type": "deal_next_pass", "seat": 3},
                             {"type": "regame", "deck": CANONICAL[:77]}])), "action 2:"),
    ("deck_invalid_on_rejected_start_round",
     json.dumps(doc(actions=[*SETUP, {"type": "start_round", "deck": CANONICAL[:-1] + ["T1"]}])),
     "action 6:"),
    ("deck_invalid_late_in_file",
     json.dumps(doc(actions=[*SETUP, {"type": "play_card", "seat": 0, "card": "C1"},
                             {"type": "regame", "deck": []}])), "action 7:"),
]


@pytest.mark.parametrize(("text", "where"), [(t, w) for _, t, w in INVALID],
                         ids=[i for i, _, _ in INVALID])
def test_invalid_transcript_exits_2(tmp_path: Path, text: str, where: str):
    path = tmp_path / "bad.json"
    path.write_text(text)
    proc = replay(str(path))
    assert proc.returncode == 2, (proc.returncode, proc.stdout[:200], proc.stderr)
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("invalid transcript: " + where), lines[0]


def test_invalid_transcript_on_standard_input():
    proc = replay("-", stdin=json.dumps(doc(first_dealer=_DROP)))
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("invalid transcript: top level:"), lines


def test_unknown_keys_and_seat_on_seatless_action_are_ignored():
    """TRANSCRIPT.md: unknown keys are ignored, and so is a seat on an action that has none
    (it is not validated either)."""
    actions = [dict(START, note="x"), *PASSES, {"type": "end_reveal", "seat": "nobody"}]
    proc = replay("-", stdin=json.dumps(doc(actions=actions, comment={"any": 1})))
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert [r["ok"] for r in got["results"]] == [True] * 5
    assert got["phase"] == "SCART"
