"""Issue #14 item 7, "fixes seen on the way": each fix with the test that pins it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

BASE = Path(settings.BASE_DIR)
LANGUAGES = [code for code, _ in settings.LANGUAGES]

pytestmark = pytest.mark.django_db


# --- 1. history.css no longer restyles the site-wide .card panel -----------------------------

def test_every_history_css_rule_is_scoped_to_the_history_wrapper():
    css = re.sub(r"/\*.*?\*/", "", (BASE / "static/css/history.css").read_text(), flags=re.S)
    css = re.sub(r"@media[^{]*\{", "", css)
    selectors = [sel.strip() for block in re.findall(r"([^{}]+)\{[^{}]*\}", css)
                 for sel in block.split(",") if sel.strip()]
    assert selectors, "history.css has rules"
    unscoped = [sel for sel in selectors if not sel.startswith(".history ")]
    assert unscoped == []


@pytest.mark.parametrize("name", ["match_list", "match_detail", "standings", "rating_panel"])
def test_history_templates_carry_the_wrapper(name):
    html = (BASE / f"games/templates/games/history/{name}.html").read_text()
    assert re.search(r'class="[^"]*\bhistory\b', html)


def test_the_profile_panels_are_not_history_cards(client: Client, make_user):
    client.force_login(make_user("reader", preferred_language="en"))
    page = client.get("/en/accounts/profile/").content.decode()
    # The rating panel is itself the wrapper, so `.history .card` matches none of the panels.
    assert re.search(r'class="card[^"]*\bhistory\b', page)
    assert not re.search(r'class="history".*class="card', page, flags=re.S)


# --- 5. the switcher names each language in itself ------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_language_switcher_names_each_language_in_itself(client: Client, language):
    html = client.get(f"/{language}/").content.decode()
    switcher = re.search(r'<form class="language-switcher".*?</form>', html, flags=re.S).group(0)
    labels = re.findall(r"<button[^>]*>([^<]+)</button>", switcher)
    assert labels == ["English", "Rumantsch", "Deutsch", "Français"]


# --- 6. a language in the URL wins for that page --------------------------------------------

def test_a_french_player_opening_a_german_link_reads_german(client: Client, make_user):
    client.force_login(make_user("deta", preferred_language="fr"))
    response = client.get("/de/accounts/profile/")
    assert response.status_code == 200
    assert '<html lang="de">' in response.content.decode()
    assert "Dein Profil" in response.content.decode()
    assert client.get("/")["Location"] == "/fr/"
