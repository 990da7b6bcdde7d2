"""Playing the course's lessons by script: the right move of each step, found from the
lesson file and the learner's view (the tests of every lesson, bench/teaching.py)."""

from __future__ import annotations

from typing import Any

from games.teaching import lessons
from games.teaching.lesson_files import Lesson


def candidates(pos: lessons.Position) -> list[dict[str, Any]]:
    """Every move the learner could make now, as the page would send it."""
    v = pos.view()
    acts = v["actions"]
    out: list[dict[str, Any]] = []
    if acts["deal"]:
        out.append({"type": "deal_next_pass"})
    if v["phase"] == "REVEAL":
        out.append({"type": "continue"})
    if acts["scart"]:
        allowed = acts["scart_allowed"]
        out.append({"type": "discard_scart", "cards": allowed[:2]})
    if acts["buob_suits"]:
        out.append({"type": "call_buob"})
    for card in acts["legal_cards"] or []:
        out.append({"type": "play_card", "card": card})
    return out


def right_move(pos: lessons.Position) -> dict[str, Any]:
    for move in candidates(pos):
        verdict, _state, _events = lessons.judge(pos, move)
        if verdict.kind == lessons.RIGHT:
            return move
    raise AssertionError(f"no right move at step {pos.step}: {candidates(pos)}")


def play_scene(lesson: Lesson, scene: int) -> list[dict[str, Any]]:
    """The right moves that finish `scene`, each checked right."""
    pos = lessons.setup(lesson.scenes[scene])
    moves = []
    for _ in range(60):
        if pos.done:
            return moves
        move = right_move(pos)
        assert lessons.take(pos, move).kind == lessons.RIGHT
        moves.append(move)
    raise AssertionError("the scene never ends")
