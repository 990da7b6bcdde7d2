"""A table driven through the services to the reveal window (RULES §5), for timer tests."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from games import services
from games.engine import REVEAL
from games.live.protocol import Command
from games.models import Room, Round, RoundAction
from tests import personas


def ok(code: str, user: Any, kind: str, **fields: Any) -> None:
    """Submit at the table's current version; the command must be accepted."""
    version = Room.objects.get(code=code).version
    out = services.submit(code, user, Command(kind, uuid.uuid4().hex, version, fields))
    assert out.ok and not out.duplicate, (kind, out)


def table_at_reveal(make_user: Callable[..., Any], reveal_seconds: int) -> Round:
    """The personas' table (owner A/0, anna B/1, benedetg A/2, curdin B/3); the owner deals
    all three passes (RULES §3, §5). The services schedule the reveal timer when the last pass
    commits."""
    owner, *others = (make_user(p.name) for p in personas.SEATED)
    room = services.create_room(owner, {"reveal_seconds": reveal_seconds})
    for user, persona in zip(others, personas.PLAYERS, strict=True):
        ok(room.code, user, "take_seat", team=persona.team)
    ok(room.code, owner, "start_round")
    for _ in range(3):
        ok(room.code, owner, "deal_next_pass")
    rnd = Round.objects.get(match__room=room)
    assert rnd.phase == REVEAL and rnd.deadline_kind == "reveal"
    assert rnd.version == Room.objects.get(pk=room.pk).version
    return rnd


def end_reveals(rnd: Round) -> int:
    return RoundAction.objects.filter(round=rnd, kind="end_reveal").count()
