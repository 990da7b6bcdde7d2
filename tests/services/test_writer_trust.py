"""Trust, issue #13: the writer's own doors (items found by the outside probe)."""

from __future__ import annotations

import pytest

from games import services
from tests.support.tables import cmd, fingerprint

pytestmark = pytest.mark.django_db


def test_action_ids_are_scoped_per_room(owner):
    """Item 9: reusing an action_id in a second room is a new action there, not a duplicate
    silently dropped; in the same room it is still applied once (docs/protocol.md §8)."""
    first = services.create_room(owner, name="Stiva")
    second = services.create_room(owner, name="Chasa")
    for room, name in ((first, "Stiva nova"), (second, "Chasa nova")):
        before = fingerprint(room.code)
        out = services.submit(room.code, owner, cmd("set_options", before[0],
                                                    action_id="rename-1", name=name))
        assert out.ok and not out.duplicate
        assert fingerprint(room.code) == (before[0] + 1, before[1] + 1)
    again = services.submit(second.code, owner, cmd("set_options", None,
                                                    action_id="rename-1", name="Other"))
    assert again.ok and again.duplicate
    second.refresh_from_db()
    assert second.name == "Chasa nova"
