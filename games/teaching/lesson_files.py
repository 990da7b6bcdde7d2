"""The course's lessons as data (issue #28 item 1): read and checked from TOML files a Troccas
teacher can edit without touching code.

    games/teaching/lessons/<NN>-<slug>.toml        the positions, the moves, the goals
    games/teaching/lessons/<lang>/<NN>-<slug>.toml  the words, one file per language

A lesson is one or more scenes; a scene is a position at the table (hands, house rules, the
moves already made) and the steps the learner takes in it, each with the key of its goal
sentence, of the explanation of a right move and of a wrong one. The language files hold the
sentences under those keys; every language has every key (tests/teaching/test_lessons.py).
The format is described in games/teaching/lessons/README.md.

Nothing here knows Django: the files are read once per process, the texts looked up by the
caller's language.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from games.engine import CARD_IDS, Options

ROOT = Path(__file__).with_name("lessons")
LANGUAGES = ("en", "rm", "de", "fr")
# What a step asks of the learner: a card, a pass of the deal, the end of the reveal window,
# the dealer's two discards, a BUOB call.
EXPECTS = ("card", "deal", "continue", "scart", "buob")
# How a step knows a right move besides its list: any legal one; the one that wins the trick
# for the learner's team.
JUDGES = ("", "legal", "wins")
STARTS = ("dealing", "scart", "play")
_SUITS = ("C", "R", "S", "B")
# What `void` may keep from a seat: a suit, the trumps (T), the Narr (N).
_VOIDABLE = frozenset((*_SUITS, "T", "N"))


class LessonFileError(ValueError):
    """A lesson file that cannot be played as written (the message names the file)."""


@dataclass(frozen=True)
class Move:
    """One move of the script, as written: `"2 C4"`, `"0 SK buob S"`, `"3 buob"`, `"deal"`,
    `"reveal"`, `"3 scart R5 R6"`, and `"timeout 8"`: eight moves as a table's turn timer
    makes them (RULES §12: the seat on turn plays its legal card of lowest value), to reach
    a late trick without writing every card."""

    text: str

    def actions(self, dealer: int) -> list[dict[str, Any]]:
        words = self.text.split()
        if words[0] == "timeout":
            return [{"type": "turn_timeout"}] * int(words[1])
        return [self.action(dealer)]

    def action(self, dealer: int) -> dict[str, Any]:
        words = self.text.split()
        if words == ["deal"]:
            return {"type": "deal_next_pass", "seat": dealer}
        if words == ["reveal"]:
            return {"type": "end_reveal"}
        seat, rest = int(words[0]), words[1:]
        if rest[0] == "scart":
            return {"type": "discard_scart", "seat": seat, "cards": rest[1:3]}
        if rest[0] == "buob":
            return {"type": "call_buob", "seat": seat, "suit": rest[1] if len(rest) > 1 else None}
        out: dict[str, Any] = {"type": "play_card", "seat": seat, "card": rest[0]}
        if len(rest) > 1 and rest[1] == "buob":
            out["call_buob"] = True
            out["buob_suit"] = rest[2] if len(rest) > 2 else None
        return out


@dataclass(frozen=True)
class Wrong:
    """Legal moves that are not what the step asks, with their own explanation."""

    cards: frozenset[str]
    why: str


@dataclass(frozen=True)
class Step:
    expect: str
    goal: str  # text keys
    why: str
    wrong: str
    right: frozenset[str] = frozenset()
    judge: str = ""
    mode: str = ""  # a buob step: the mode the call must have ("" any)
    wrongs: tuple[Wrong, ...] = ()
    then: tuple[Move, ...] = ()
    repeat: bool = False  # a whole deal: the step is taken again until the deal is scored


@dataclass(frozen=True)
class Scene:
    seat: int
    dealer: int
    options: Options
    hands: tuple[tuple[str, ...], ...]
    scart: tuple[str, ...]
    # Per seat, the suits (C R S B, T for trumps, N for the Narr) the shuffled rest may not
    # give it: "void in cups" without naming all nineteen cards.
    void: tuple[str, ...]
    bock_pending: int  # Bock deals still owed when the scene's deal starts (RULES §11)
    seed: int
    start: str
    before: tuple[Move, ...]
    bots: bool  # the other seats answer with the easy bot after the script's own moves
    hints: bool  # the learner may ask the strong bot for a hint
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str
    rule: str  # the rules page's section linked under the lesson ("tricks", "bock" …)
    scenes: tuple[Scene, ...]
    keys: frozenset[str] = field(default=frozenset())  # every text key the lesson uses


def _cards(where: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise LessonFileError(f"{where}: a list of card ids")
    unknown = [c for c in value if c not in CARD_IDS]
    if unknown:
        raise LessonFileError(f"{where}: unknown cards {unknown}")
    return tuple(value)


def _moves(where: str, value: Any) -> tuple[Move, ...]:
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise LessonFileError(f"{where}: a list of moves")
    moves = tuple(Move(m) for m in value)
    for m in moves:
        words = m.text.split()
        ok = words in (["deal"], ["reveal"]) or (
            len(words) == 2 and words[0] == "timeout" and words[1].isdigit()) or (
            len(words) >= 2 and words[0] in "0123" and (
                (words[1] == "scart" and len(words) == 4 and all(c in CARD_IDS for c in words[2:]))
                or (words[1] == "buob" and len(words) <= 3
                    and all(s in _SUITS for s in words[2:]))
                or (words[1] in CARD_IDS and (len(words) == 2 or (
                    words[2] == "buob" and len(words) <= 4
                    and all(s in _SUITS for s in words[3:]))))))
        if not ok:
            raise LessonFileError(f"{where}: cannot read the move {m.text!r}")
    return moves


def _step(where: str, raw: dict[str, Any]) -> Step:
    expect = raw.get("expect", "card")
    judge = raw.get("judge", "")
    if expect not in EXPECTS or judge not in JUDGES:
        raise LessonFileError(f"{where}: expect one of {EXPECTS}, judge one of {JUDGES}")
    for key in ("goal", "why"):
        if not isinstance(raw.get(key), str):
            raise LessonFileError(f"{where}: `{key}` names a sentence of the language files")
    wrongs = tuple(Wrong(frozenset(_cards(f"{where}.wrongs", w.get("cards"))), str(w["why"]))
                   for w in raw.get("wrongs", []))
    step = Step(expect=expect, goal=raw["goal"], why=raw["why"], wrong=raw.get("wrong", ""),
                right=frozenset(_cards(f"{where}.right", raw.get("right", []))), judge=judge,
                mode=raw.get("mode", ""), wrongs=wrongs,
                then=_moves(f"{where}.then", raw.get("then", [])),
                repeat=bool(raw.get("repeat", False)))
    if expect == "card" and not step.right and not judge:
        raise LessonFileError(f"{where}: a card step needs `right` cards or a `judge`")
    if step.mode not in ("", "forced", "deferred", "self"):
        raise LessonFileError(f"{where}: mode is forced, deferred or self")
    return step


def _scene(where: str, raw: dict[str, Any]) -> Scene:
    hands = raw.get("hands", [[], [], [], []])
    if not isinstance(hands, list) or len(hands) != 4:
        raise LessonFileError(f"{where}: `hands` holds four lists, seats 0–3")
    start = raw.get("start", "play")
    if start not in STARTS:
        raise LessonFileError(f"{where}: start is one of {STARTS}")
    void = raw.get("void", ["", "", "", ""])
    if (not isinstance(void, list) or len(void) != 4
            or not all(isinstance(v, str) and set(v) <= _VOIDABLE for v in void)):
        raise LessonFileError(f"{where}: `void` holds four strings of C R S B T N")
    try:
        options = Options.from_json(raw.get("options", {}))
    except Exception as exc:
        raise LessonFileError(f"{where}: options: {exc}") from exc
    steps = tuple(_step(f"{where}.step[{i}]", s) for i, s in enumerate(raw.get("step", [])))
    if not steps:
        raise LessonFileError(f"{where}: a scene needs at least one step")
    seat, dealer = int(raw.get("seat", 0)), int(raw.get("dealer", 3))
    if seat not in range(4) or dealer not in range(4):
        raise LessonFileError(f"{where}: seat and dealer are 0–3")
    return Scene(seat=seat, dealer=dealer, options=options,
                 hands=tuple(_cards(f"{where}.hands[{i}]", h) for i, h in enumerate(hands)),
                 scart=_cards(f"{where}.scart", raw.get("scart", [])), void=tuple(void),
                 bock_pending=int(raw.get("bock_pending", 0)),
                 seed=int(raw.get("seed", 1)), start=start,
                 before=_moves(f"{where}.before", raw.get("before", [])),
                 bots=bool(raw.get("bots", False)), hints=bool(raw.get("hints", False)),
                 steps=steps)


def _keys(scenes: tuple[Scene, ...]) -> frozenset[str]:
    out = {"title", "intro", "done"}
    for scene in scenes:
        for s in scene.steps:
            out.update(k for k in (s.goal, s.why, s.wrong) if k)
            out.update(w.why for w in s.wrongs)
    return frozenset(out)


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LessonFileError(f"{path.name}: {exc}") from exc


@cache
def lessons() -> tuple[Lesson, ...]:
    """Every lesson of the course, in its order (the number its file name starts with)."""
    out = []
    for path in sorted(ROOT.glob("[0-9][0-9]-*.toml")):
        raw = _read(path)
        number, slug = int(path.stem[:2]), path.stem[3:]
        scenes = tuple(_scene(f"{path.name}: scene[{i}]", s)
                       for i, s in enumerate(raw.get("scene", [])))
        if not scenes:
            raise LessonFileError(f"{path.name}: a lesson needs at least one scene")
        out.append(Lesson(number=number, slug=slug, rule=str(raw.get("rule", "")),
                          scenes=scenes, keys=_keys(scenes)))
    return tuple(out)


def lesson(slug: str) -> Lesson | None:
    return next((x for x in lessons() if x.slug == slug), None)


@cache
def texts(slug: str, language: str) -> dict[str, str]:
    """The lesson's sentences in `language` (English where the language has no file)."""
    found = next((x for x in lessons() if x.slug == slug), None)
    if found is None:
        raise LessonFileError(f"no lesson {slug!r}")
    lang = language.split("-")[0] if language.split("-")[0] in LANGUAGES else "en"
    path = ROOT / lang / f"{found.number:02d}-{slug}.toml"
    if not path.exists():
        path = ROOT / "en" / f"{found.number:02d}-{slug}.toml"
    raw = _read(path)
    return {k: str(v).strip() for k, v in raw.items() if isinstance(v, str)}


__all__ = ["EXPECTS", "JUDGES", "LANGUAGES", "ROOT", "Lesson", "LessonFileError", "Move",
           "Scene", "Step", "Wrong", "lesson", "lessons", "texts"]
