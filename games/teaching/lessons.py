"""A lesson played (issue #28 item 1): its scenes set up with the rules engine itself, the
learner's moves judged against the lesson file's steps, the other seats answered by the
script or the easy bot.

A lesson's position is never stored: it is rebuilt from the file and the learner's right
moves so far (the session keeps those, games/teaching/course.py), so the same lesson file
and moves always give the same table. A wrong or illegal move changes nothing — the learner
tries again — and is counted for the stars.

No Django here beyond what the engine and the bots need: the texts are the caller's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games import bots
from games.bots import advice
from games.engine import (
    CARD_IDS,
    PLAY,
    REVEAL,
    ROUND_OVER,
    MatchState,
    RuleError,
    apply,
    events_for,
    new_match_state,
    team_of,
    view,
)
from games.engine.events import BuobCalled, TrickWon

from .lesson_files import Lesson, LessonFileError, Move, Scene, Step

# The honours may never be filled into a Scart the file does not name (RULES §6).
_HONOURS = frozenset({"CK", "RK", "SK", "BK", "T1", "T21", "NARR"})
# The learner's moves a lesson takes, as the table's commands name them, and `continue`
# (the end of the reveal window, which a table's timer would bring).
MOVE_TYPES = ("play_card", "call_buob", "discard_scart", "deal_next_pass", "continue")
RIGHT, WRONG, ILLEGAL = "right", "wrong", "illegal"


@dataclass
class Position:
    """A scene as it stands: the engine's state, the deal's events so far (for the bots and
    the hints, each seat's share), and how many changes were made (the table's version)."""

    scene: Scene
    state: MatchState
    events: list[Any] = field(default_factory=list)
    version: int = 0
    step: int = 0  # the index of the step the learner is on (== len(steps): the scene is done)
    last: list[Any] = field(default_factory=list)  # the events of the last right move

    @property
    def done(self) -> bool:
        return self.step >= len(self.scene.steps)

    @property
    def current(self) -> Step | None:
        return None if self.done else self.scene.steps[self.step]

    def view(self) -> dict[str, Any]:
        return view(self.state, self.scene.seat)

    def seat_events(self, events: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        return events_for(list(self.events if events is None else events), self.scene.seat)

    def _do(self, action: Mapping[str, Any]) -> list[Any]:
        self.state, events = apply(self.state, action)
        self.events.extend(events)
        self.version += 1
        return list(events)


@dataclass(frozen=True)
class Verdict:
    kind: str  # RIGHT, WRONG or ILLEGAL
    key: str = ""  # the text key of the explanation (right, wrong), or the refusal's code
    refusal: dict[str, Any] | None = None  # the view's refusal for an illegal card


def _deck(scene: Scene) -> list[str]:
    """A deck whose deal (RULES §5) gives each seat the file's hand — in the order written,
    so the last card is the reveal card — the cards the file leaves open shuffled with the
    scene's seed."""
    hands = [list(h) for h in scene.hands]
    # A card the script plays belongs to the seat that plays it, named in its hand or not.
    for move in [*scene.before, *(m for st in scene.steps for m in st.then)]:
        for action in move.actions(scene.dealer):
            card = action.get("card")
            if card and not any(card in h for h in hands) and card not in scene.scart:
                hands[action["seat"]].append(card)
    named = [c for hand in hands for c in hand] + list(scene.scart)
    if len(set(named)) != len(named):
        raise LessonFileError("a card is named twice in a scene")
    rest = [c for c in CARD_IDS if c not in set(named)]
    # A lesson's fixed deal, not a secret: the file's seed makes the same hands every time.
    random.Random(scene.seed).shuffle(rest)  # noqa: S311
    d = scene.dealer
    scart = list(scene.scart)
    if scene.start == "play" and not scart:
        scart = [c for c in rest if c not in _HONOURS][:2]
        rest = [c for c in rest if c not in scart]
    dealt: dict[int, list[str]] = {}
    # The seats with the most suits they must not get are filled first, from what is left.
    for seat in sorted(range(4), key=lambda s: -len(scene.void[s])):
        want = 19 if seat != d else 21 - len(scart)
        cards = list(hands[seat])
        if len(cards) > want:
            raise LessonFileError(f"seat {seat} holds more than {want} cards")
        fits = [c for c in rest if _suit(c) not in scene.void[seat]][:want - len(cards)]
        if len(cards) + len(fits) < want:
            raise LessonFileError(f"seat {seat}: not enough cards outside {scene.void[seat]}")
        rest = [c for c in rest if c not in fits]
        dealt[seat] = cards + fits + (scart if seat == d else [])
    order = [(d + 1) % 4, (d + 2) % 4, (d + 3) % 4, d]
    deck: list[str] = []
    for lo, hi in ((0, 6), (6, 12)):
        for seat in order:
            deck += dealt[seat][lo:hi]
    for seat in order:
        deck += dealt[seat][12:]
    return deck


def _suit(card: str) -> str:
    return "N" if card == "NARR" else card[0]


def setup(scene: Scene) -> Position:
    """The scene's position before the learner's first move."""
    deck = _deck(scene)
    state = new_match_state(scene.options, scene.dealer)
    if scene.bock_pending:
        # The match is in a Bock round (RULES §11): the lesson's position, as a table's totals.
        state = state._replace(bock_pending=scene.bock_pending)
    pos = Position(scene, state)
    pos._do({"type": "start_round", "deck": deck})
    if scene.start in ("scart", "play"):
        for _ in range(3):
            pos._do({"type": "deal_next_pass", "seat": scene.dealer})
        pos._do({"type": "end_reveal"})
    if scene.start == "play":
        # The dealer's last two cards of the deal: the file's Scart, or the two _deck chose.
        pos._do({"type": "discard_scart", "seat": scene.dealer, "cards": deck[-2:]})
    for move in scene.before:
        for action in move.actions(scene.dealer):
            pos._do(action)
    pos.last = []
    return pos


def _action(scene: Scene, move: Mapping[str, Any]) -> dict[str, Any]:
    """The learner's move as the engine takes it (their own seat, whatever the client said)."""
    kind = move.get("type")
    if kind == "continue":
        return {"type": "end_reveal"}
    out: dict[str, Any] = {"type": kind, "seat": scene.seat}
    if kind == "play_card":
        out["card"] = move.get("card")
        if move.get("call_buob"):
            out["call_buob"] = True
            out["buob_suit"] = move.get("buob_suit")
    elif kind == "call_buob":
        out["suit"] = move.get("suit")
    elif kind == "discard_scart":
        out["cards"] = move.get("cards")
    return out


def _is_call(action: Mapping[str, Any]) -> bool:
    return action["type"] == "call_buob" or bool(action.get("call_buob"))


def judge(pos: Position, move: Mapping[str, Any]) -> tuple[Verdict, MatchState | None, list[Any]]:
    """The verdict on one learner move at `pos`, and the engine's result of it (None when the
    engine refused it). Nothing of `pos` changes."""
    step = pos.current
    if step is None or move.get("type") not in MOVE_TYPES:
        return Verdict(ILLEGAL, "WRONG_PHASE"), None, []
    action = _action(pos.scene, move)
    if action["type"] == "end_reveal" and (pos.state.phase != REVEAL or step.expect != "continue"):
        return Verdict(ILLEGAL, "WRONG_PHASE"), None, []
    try:
        state, events = apply(pos.state, action)
    except RuleError as refused:
        code = str(refused.code)
        v = pos.view()
        refusal = v.get("refusal")
        return (Verdict(ILLEGAL, code, refusal if refusal and refusal.get("code") == code
                        else None), None, [])
    wrong = Verdict(WRONG, step.wrong)
    kind = action["type"]
    if step.expect == "buob":
        called = [e for e in events if isinstance(e, BuobCalled)]
        ok = _is_call(action) and called and (not step.mode or called[0].mode == step.mode)
        return (Verdict(RIGHT, step.why) if ok else wrong), state, list(events)
    expected = {"card": "play_card", "deal": "deal_next_pass", "continue": "end_reveal",
                "scart": "discard_scart"}[step.expect]
    if kind != expected:
        return wrong, state, list(events)
    cards = ([action["card"]] if kind == "play_card"
             else list(action["cards"]) if kind == "discard_scart" else [])
    if step.judge == "legal" or step.expect in ("deal", "continue"):
        ok = True
    elif step.judge == "wins":
        # The trick as the script (or, past it, a turn timer) completes it.
        after = state
        seen = list(events)
        for m in step.then:
            for a in m.actions(pos.scene.dealer):
                after, more = apply(after, a)
                seen.extend(more)
        won = [e for e in seen if isinstance(e, TrickWon)]
        ok = bool(won) and team_of(won[-1].winner) == team_of(pos.scene.seat)
    else:
        ok = all(c in step.right for c in cards)
    if ok:
        return Verdict(RIGHT, step.why), state, list(events)
    for w in step.wrongs:
        if any(c in w.cards for c in cards):
            return Verdict(WRONG, w.why), state, list(events)
    return wrong, state, list(events)


def _answer(pos: Position, step: Step, seed: int) -> None:
    """The other seats' moves after a right one: the script's, then (a scene with bots) the
    easy bot's until the learner is to act again or the deal is scored."""
    for move in step.then:
        for action in move.actions(pos.scene.dealer):
            pos.last.extend(pos._do(action))
    if not pos.scene.bots:
        return
    seat = pos.scene.seat
    for _ in range(80):
        deal = pos.state.deal
        if pos.state.phase != PLAY or deal is None or deal.turn is None or deal.turn == seat:
            return
        turn = deal.turn
        action = bots.decide(view(pos.state, turn), events_for(pos.events, turn),
                             level="easy", seed=seed * 131 + pos.version)
        pos.last.extend(pos._do({**action, "seat": turn}))


def take(pos: Position, move: Mapping[str, Any]) -> Verdict:
    """Judge the learner's move; a right one is made, answered, and moves the lesson on."""
    verdict, state, events = judge(pos, move)
    if verdict.kind != RIGHT or state is None:
        return verdict
    step = pos.current
    assert step is not None
    pos.state = state
    pos.events.extend(events)
    pos.version += 1
    pos.last = list(events)
    _answer(pos, step, pos.scene.seed)
    if not (step.repeat and pos.state.phase not in (ROUND_OVER,)):
        pos.step += 1
    return verdict


def replay(lesson: Lesson, scene: int, moves: Sequence[Mapping[str, Any]]) -> Position:
    """Scene `scene` after the learner's right `moves` (as kept by the session)."""
    pos = setup(lesson.scenes[scene])
    for move in moves:
        if take(pos, move).kind != RIGHT:
            raise LessonFileError("a kept move is no longer right: the lesson changed")
    return pos


def stars(wrong: int) -> int:
    """Three stars with no wrong move, two with one or two, one with more."""
    return 3 if wrong == 0 else 2 if wrong <= 2 else 1


def hint(pos: Position, *, budget_ms: float, seed: int) -> advice.Advice:
    """The strong bot's judgement of the learner's options now, from their view alone."""
    return advice.rank(pos.view(), pos.seat_events(), seed=seed, budget_ms=budget_ms)


def candidates(pos: Position) -> list[dict[str, Any]]:
    """Every move the learner could make now, as the lesson's page would send it."""
    v = pos.view()
    acts = v["actions"]
    out: list[dict[str, Any]] = []
    if acts["deal"]:
        out.append({"type": "deal_next_pass"})
    if v["phase"] == REVEAL:
        out.append({"type": "continue"})
    if acts["scart"]:
        out.append({"type": "discard_scart", "cards": acts["scart_allowed"][:2]})
    if acts["buob_suits"]:
        out.append({"type": "call_buob"})
    for card in acts["legal_cards"] or []:
        out.append({"type": "play_card", "card": card})
    return out


def right_move(pos: Position) -> dict[str, Any]:
    """A move the step judges right (a lesson that has none cannot be finished: its file is
    wrong, and the tests say so)."""
    for move in candidates(pos):
        if judge(pos, move)[0].kind == RIGHT:
            return move
    raise LessonFileError(f"no right move at step {pos.step}")


def solve(lesson: Lesson, scene: int) -> list[dict[str, Any]]:
    """The right moves that finish a scene of the lesson (the tests, bench/teaching.py)."""
    pos = setup(lesson.scenes[scene])
    moves: list[dict[str, Any]] = []
    for _ in range(60):
        if pos.done:
            return moves
        move = right_move(pos)
        take(pos, move)
        moves.append(move)
    raise LessonFileError("the scene never ends")


__all__ = ["ILLEGAL", "MOVE_TYPES", "RIGHT", "WRONG", "Move", "Position", "Verdict",
           "candidates", "hint", "judge", "replay", "right_move", "setup", "solve", "stars",
           "take"]
