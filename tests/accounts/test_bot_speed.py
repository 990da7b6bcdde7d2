"""The profile's "Bot speed" (issue #24 item 14): Fast, Normal or Slow, in the player's
language, saved with the profile; a post without it keeps the choice, a value the list does
not know is refused with the form's error and changes nothing. What the speed does at a table
is tested in tests/services/bots/test_pace.py."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def url(language: str = "en") -> str:
    with translation.override(language):
        return reverse("accounts:profile")


def _profile(user: object, **fields: str) -> dict[str, str]:
    return {"display_name": "", "email": "", "preferred_language": "en", **fields}


def _select(page: str) -> str:
    found = re.search(r'<select name="bot_speed"[^>]*>(.*?)</select>', page, re.S)
    assert found, "no bot speed select on the profile page"
    return found.group(1)


@pytest.mark.parametrize(("language", "label", "names", "help_text"), [
    ("en", "Bot speed", ["Fast", "Normal", "Slow"], "so you can follow the trick"),
    ("de", "Bot-Tempo", ["Schnell", "Normal", "Langsam"], "damit du dem Stich folgen kannst"),
    ("fr", "Vitesse des bots", ["Rapide", "Normale", "Lente"], "pour que vous puissiez suivre"),
    ("rm", "Spertadad dals bots", ["Svelt", "Normal", "Plaun"], "per che vus possias suandar"),
])
def test_the_profile_offers_the_bot_speed_in_the_players_language(
        client: Client, make_user: object, language: str, label: str, names: list[str],
        help_text: str) -> None:
    client.force_login(make_user("mia"))  # type: ignore[operator]
    page = html.unescape(client.get(url(language)).content.decode())
    options = re.findall(r'<option value="(\w+)"( selected)?>([^<]+)</option>', _select(page))
    assert [(value, name) for value, _sel, name in options] == list(
        zip(["fast", "normal", "slow"], names, strict=True))
    assert [value for value, sel, _name in options if sel] == ["normal"]  # the default
    assert f'for="id_bot_speed">{label}</label>' in page and help_text in page


def test_the_choice_is_saved_and_kept_by_a_post_without_it(client: Client,
                                                            make_user: object) -> None:
    mia = make_user("mia")  # type: ignore[operator]
    client.force_login(mia)
    response = client.post(url(), _profile(mia, bot_speed="slow"))
    assert response.status_code == 302
    mia.refresh_from_db()
    assert mia.bot_speed == "slow"
    assert client.post(url(), _profile(mia)).status_code == 302
    mia.refresh_from_db()
    assert mia.bot_speed == "slow"
    page = client.get(url()).content.decode()
    assert '<option value="slow" selected>' in _select(page)


def test_an_unknown_speed_is_refused_and_changes_nothing(client: Client,
                                                        make_user: object) -> None:
    mia = make_user("mia", bot_speed="fast")  # type: ignore[operator]
    client.force_login(mia)
    response = client.post(url("de"), _profile(mia, bot_speed="instant", display_name="Mia M."))
    assert response.status_code == 200
    assert "instant ist keine gültige Auswahl" in html.unescape(response.content.decode())
    mia.refresh_from_db()
    assert (mia.bot_speed, mia.display_name) == ("fast", "Mia")
