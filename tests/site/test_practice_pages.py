"""The pages of a practice table (issue #24 item 2, issue #25 item 1): the home page shows the
player's practice match, paused or running, as "Continue your game" with a link to the table,
in every language; Play now past the cap of open bot tables lands back on the home page with
a sentence that says to finish or close one; the table's strings carry the leave question
that says the game waits."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Room
from games.text.errors import message_for
from games.text.table import ui_strings
from tests.support.tables import must

pytestmark = pytest.mark.django_db

CONTINUE = {"en": "Continue your game", "rm": "Cuntinuar vossa partida",
            "de": "Deine Partie fortsetzen", "fr": "Reprendre votre partie"}
PAUSED = {"en": "Paused: the game waits for you.", "rm": "En pausa: la partida spetga sin vus.",
          "de": "Pausiert: Die Partie wartet auf dich.", "fr": "En pause : la partie vous attend."}


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_home_page_shows_the_practice_match_as_continue_your_game(owner: Any,
                                                                      players: list[Any]) -> None:
    c = _client(owner)
    assert "data-continue-game" not in c.get(reverse("games:home")).content.decode()
    room = services.create_practice_table(owner, "easy")
    # A table of people is not one of them.
    people = services.create_room(players[0])
    for p in players[1:]:
        must(people.code, p, "take_seat", team="B" if p is players[1] else "A")
    page = c.get(reverse("games:home")).content.decode()
    assert page.count("data-continue-game") == 1
    assert f'href="{room.get_absolute_url()}" data-continue-game' in page
    assert "In play: the bots are at the table." in page
    services.connect(room.code, owner, "tab")
    services.disconnect(room.code, "tab")  # paused
    for lang in CONTINUE:
        with translation.override(lang):
            url = reverse("games:home")
        page = c.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert CONTINUE[lang] in page and PAUSED[lang] in page, lang
    # Another player's home page does not show it; a closed room is gone from the owner's.
    assert "data-continue-game" not in _client(players[0]).get(
        reverse("games:home")).content.decode()
    must(room.code, owner, "close_room")
    assert "data-continue-game" not in c.get(reverse("games:home")).content.decode()


def test_play_now_past_the_cap_goes_home_with_a_sentence(owner: Any, settings: Any) -> None:
    settings.TROCCAS_MAX_BOT_TABLES = 1
    c = _client(owner)
    first = c.post(reverse("games:play_now"), {"level": "easy"})
    assert first.status_code == 302 and first.url != reverse("games:home")
    rooms = Room.objects.count()
    refused = c.post(reverse("games:play_now"), {"level": "easy"}, follow=True)
    assert refused.redirect_chain[-1][0] == reverse("games:home")
    assert Room.objects.count() == rooms
    page = refused.content.decode()
    assert "finish or close one of them first" in page
    assert "Continue your game" in page  # where the open one is


def test_the_cap_sentence_and_the_leave_question_in_every_language() -> None:
    for lang in ("en", "rm", "de", "fr"):
        with translation.override(lang):
            sentence = message_for("BOT_TABLES_CAPPED")
            question = ui_strings()["leave_confirm_practice"]
        if lang == "en":
            assert "finish or close one" in sentence
            assert question.startswith("The game waits for you until you come back")
        else:
            assert "finish or close" not in sentence and "The game waits" not in question
