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


# --- 2. the face-down card's label comes from the page's strings, translated -----------------

@pytest.mark.parametrize(("language", "label"), [
    ("de", "verdeckte Karte"), ("rm", "charta zuppada"), ("fr", "carte face cachée"),
    ("en", "face-down card"),
])
def test_table_strings_carry_the_face_down_label(language, label):
    from django.utils import translation

    from games.text.table import ui_strings

    with translation.override(language):
        assert ui_strings()["face_down"] == label
    scene = (BASE / "static/js/views/scene.js").read_text()
    assert "this.S.face_down" in scene


# --- 3. one form of address per language; counts in plural forms ----------------------------



def _msgstrs(language):
    po = (BASE / f"locale/{language}/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    return re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', po, flags=re.M)


def test_german_says_du_everywhere():
    texts = _msgstrs("de") + [
        (BASE / f"games/templates/games/rules/{name}_de.html").read_text()
        for name in ("rules", "bock")]
    # Any capitalised Sie/Ihr form is the polite address (none starts a sentence on purpose).
    found = [m.group(0) for text in texts
             for m in re.finditer(r"\b(Sie|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres|Ihnen)\b", text)]
    assert found == []


def test_romansh_says_vus_everywhere():
    texts = _msgstrs("rm") + [
        (BASE / f"games/templates/games/rules/{name}_rm.html").read_text()
        for name in ("rules", "bock")]
    ti = [m.group(0) for text in texts
          for m in re.finditer(r"\b(Ti|ti|Tia|tia|Tias|tias|Tes|tes|tai|Tai)\b", text)]
    assert ti == []


def test_french_says_vous():
    tu = [m.group(0) for text in _msgstrs("fr")
          for m in re.finditer(r"\b(tu|ton|ta|tes|toi)\b", text)]
    assert tu == []


def test_romansh_plural_forms_header():
    po = (BASE / "locale/rm/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in po


COUNTS = {
    "en": ("1 card", "2 cards", "Bock: 1 deal left", "Bock: 2 deals left",
           "after 1 match ", "after 2 matches "),
    "de": ("1 Karte", "2 Karten", "noch 1 Runde", "noch 2 Runden",
           "nach 1 Partie ", "nach 2 Partien "),
    "rm": ("1 charta", "2 chartas", "anc 1 ronda", "anc 2 rondas",
           "suenter 1 partida ", "suenter 2 partidas "),
    "fr": ("1 carte", "2 cartes", "encore 1 manche", "encore 2 manches",
           "après 1 partie ", "après 2 parties "),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_counts_agree_with_their_number(language):
    from django.template import Context, Template
    from django.utils import translation

    from games.text.table import ui_strings

    one_card, two_cards, one_deal, two_deals, one_match, two_matches = COUNTS[language]
    template = Template(
        "{% load i18n %}{% blocktranslate with rating=1 wins=0 count matches=n %}"
        "Rating {{ rating }} after {{ matches }} match ({{ wins }} won).{% plural %}"
        "Rating {{ rating }} after "
        "{{ matches }} matches ({{ wins }} won).{% endblocktranslate %}")
    with translation.override(language):
        s = ui_strings()
        assert s["cards_count_one"] % {"n": 1} == one_card
        assert s["cards_count"] % {"n": 2} == two_cards
        assert (s["bock_left_one"] % {"n": 1}).endswith(one_deal)
        assert (s["bock_left"] % {"n": 2}).endswith(two_deals)
        assert one_match in template.render(Context({"n": 1}))
        assert two_matches in template.render(Context({"n": 2}))


# --- 4. English says "deal", never "round", for one hand of play ----------------------------

def test_table_strings_say_deal_not_round():
    from django.utils import translation

    from games.text.table import ui_strings

    with translation.override("en"):
        rounds = [v for v in ui_strings().values()
                  if re.search(r"\bround\b", v) and "Bock round" not in v]
    assert rounds == []


def test_the_invite_link_opens_in_each_players_own_language(owner, make_user):
    """The room page's invite link has no language prefix (a prefix now wins over a player's
    preference): a German player following a Romansh owner's link lands on the German page."""
    from games import services

    room = services.create_room(owner)
    rm_owner = Client()
    rm_owner.force_login(owner)
    page = rm_owner.get(f"/rm/rooms/{room.code}/").content.decode()
    assert f'value="http://testserver/rooms/{room.code}/"' in page
    german = Client()
    german.force_login(make_user("dora", preferred_language="de"))
    followed = german.get(f"/rooms/{room.code}/", follow=True)
    assert followed.redirect_chain[-1][0] == f"/de/rooms/{room.code}/"
