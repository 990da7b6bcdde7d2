"""The one after-commit port (games/models/after_commit.py): what a transaction sets off is
delivered once it commits, never from inside it, and a transaction that rolls back announces
nothing — a table's change, talk, a wake-up alike."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from django.db import transaction

from games import services
from games.models import after_commit
from games.talk import hooks
from tests import personas
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(60)]


class Failed(Exception):
    pass


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """What reaches the registered implementation, in order."""
    out: list[tuple[str, Any]] = []
    port = after_commit.effects()
    assert port is not None  # registered when the app is ready (games/apps.py)

    def record(name: str) -> Any:
        return lambda *args: out.append((name, args))

    monkeypatch.setattr(after_commit, "_effects", dataclasses.replace(port, **{
        f.name: record(f.name) for f in dataclasses.fields(port)}))
    return out


def test_work_is_delivered_after_commit_not_before(sent: list[tuple[str, Any]]) -> None:
    with transaction.atomic():
        hooks.said("abc", "table", {"text": "hoi"})
        hooks.hidden("abc", 7)
        assert sent == []  # nothing from inside the transaction
    assert sent == [("publish_talk", ("abc", "table", {"text": "hoi"})),
                    ("publish_talk_hidden", ("abc", 7))]


def test_a_rolled_back_transaction_announces_nothing(sent: list[tuple[str, Any]]) -> None:
    with pytest.raises(Failed), transaction.atomic():
        hooks.mutes_changed(3)
        after_commit.on_commit(lambda port: port.publish_presence("abc", {}))
        raise Failed
    assert sent == []


def test_a_refused_command_announces_nothing_and_an_accepted_one_once(
        owner: Any, players: list[Any], sent: list[tuple[str, Any]]) -> None:
    room = services.create_room(owner, None)
    sent.clear()
    # Refused (only the owner starts a match, and not at a table of one): nothing sent.
    out = tables.submit(room.code, players[0], "start_round")
    assert not out.ok and sent == []
    tables.must(room.code, players[0], "take_seat", team=personas.PLAYERS[0].team)
    published = [args[0] for name, args in sent if name == "publish"]
    assert [snap.version for snap in published] == [tables.version(room.code)]


def test_without_a_registration_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(after_commit, "_effects", None)
    seen: list[Any] = []
    with transaction.atomic():
        after_commit.on_commit(seen.append)
    assert seen == []
