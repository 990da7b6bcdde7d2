"""The four bot levels offered to people (issue #27 item 6): labelled in every language with the
glossary's words, offered by Play now and a room owner's seat_bot, and shown at the table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import BOT_LEVEL_NAMES, bot_name
from games import bots, services
from games.models import Room
from games.text.table import ui_strings
from tests.support.tables import must

LABELS = {
    "rm": ("principiant", "simpel", "mesaun", "ferm"),
    "de": ("Anfänger", "einfach", "mittel", "stark"),
    "fr": ("débutant", "facile", "moyen", "fort"),
}


@pytest.mark.parametrize("lang", sorted(LABELS))
def test_every_level_is_labelled_in_every_language(lang: str) -> None:
    with translation.override(lang):
        names = tuple(str(BOT_LEVEL_NAMES[level]) for level in bots.LEVELS)
        table = ui_strings()
        assert tuple(table[f"level_{level}"] for level in bots.LEVELS) == LABELS[lang]
        assert bot_name("Gion", "medium") != "Gion (bot, medium)"
    assert names == LABELS[lang]


@pytest.mark.django_db
@pytest.mark.parametrize("level", bots.LEVELS)
def test_play_now_and_seat_bot_at_every_level(level: str, owner: Any, players: list[Any]
                                              ) -> None:
    c = Client()
    c.force_login(owner)
    home = c.get(reverse("games:home")).content.decode()
    assert f'value="{level}"' in home
    assert f'value="{bots.DEFAULT_LEVEL}" checked' in home
    landed = c.post(reverse("games:play_now"), {"level": level})
    assert landed.status_code == 302
    room = Room.objects.get(owner=owner)
    seated = [s.user.bot_level for s in room.seats.select_related("user") if s.user.is_bot]
    assert seated == [level] * 3
    # A room owner seats the same level by hand, and the table shows it.
    code = services.create_room(players[0]).code
    must(code, players[0], "seat_bot", index=1, level=level)
    shown = {x["index"]: x for x in services.table_snapshot(code).seats_json()}
    assert shown[1]["player"]["bot"] == level
