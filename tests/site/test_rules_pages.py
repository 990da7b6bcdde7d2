"""Issue #6: the rules and Bock pages in every language, no English left on the key pages of
rm/de/fr, translated error sentences, language alternates and the first visit's language."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from games.engine.errors import RULE_CODES
from games.models import FAQEntry
from games.text.errors import MESSAGES, message_for
from games.text.options import LABELS
from games.views.rules import BOCK_COMPARISON, BOCK_SECTIONS, RULES_SECTIONS

from .test_i18n import po_entries

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("rm", "de", "fr")
ALL = ("en", *TRANSLATED)


def url_in(language: str, name: str, **kwargs: str) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs)


def visible_text(page: str) -> str:
    """What a reader gets: the text of the body and of the attributes people read."""
    body = page[page.find("<body"):]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    # The switcher names each language in itself ("English", "Rumantsch"), on purpose.
    body = re.sub(r'<form class="language-switcher".*?</form>', " ", body, flags=re.S)
    attributes = " ".join(
        re.findall(r'(?:title|placeholder|aria-label|alt)="([^"]*)"', body)
        + re.findall(r'<input[^>]*type="(?:submit|button)"[^>]*value="([^"]*)"', body)
    )
    title = re.search(r"<title>(.*?)</title>", page, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", body)
    joined = " ".join([title.group(1) if title else "", text, attributes])
    return re.sub(r"\s+", " ", html_lib.unescape(joined))


def catalog_msgids() -> list[str]:
    """The English source strings worth looking for in a page: whole phrases, no placeholders
    (a rendered placeholder no longer matches its msgid)."""
    po = (ROOT / "locale" / "rm" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    msgids = set()
    for msgid, _translations, _fuzzy in po_entries(po):
        if not msgid or "%" in msgid or "{" in msgid or "<" in msgid:
            continue
        if " " not in msgid and len(msgid) < 5:
            continue  # "Go", "no", "Add": too short to tell from a word in another language
        msgids.add(msgid)
    return sorted(msgids, key=len, reverse=True)


def contains_phrase(text: str, phrase: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", text) is not None


# --- fixtures



@pytest.fixture
def faq():
    return FAQEntry.objects.create(
        question="Who deals first?", answer="The room owner's seat.",
        question_rm="Tgi dat l'emprim?", answer_rm="Il plaz dal possessur da la stanza.",
        question_de="Wer gibt zuerst?", answer_de="Der Sitzplatz des Raum-Erstellers.",
        question_fr="Qui donne en premier ?", answer_fr="La place du propriétaire de la salle.",
    )


def key_pages(room) -> list[tuple[str, dict[str, str], bool]]:
    """(url name, kwargs, needs a signed-in player)."""
    pages = [
        ("games:home", {}, False),
        ("games:rules", {}, False),
        ("games:rules_bock", {}, False),
        ("games:faq", {}, False),
        ("accounts:login", {}, False),
        ("accounts:signup", {}, False),
        ("games:room", {"code": room.code}, False),
    ]
    try:
        reverse("games:create_room")
    except NoReverseMatch:
        pass  # the room-creation page is not part of this build yet
    else:
        pages.append(("games:create_room", {}, True))
    return pages


# --- 1. No English left on the key pages

@pytest.mark.parametrize("language", TRANSLATED)
def test_key_pages_have_no_untranslated_english(client: Client, make_user, room, faq, language):
    """Every catalog phrase shown on the English page must be gone from the rm/de/fr page,
    unless that language's translation is the same words (Scart, BUOB, Standard...)."""
    reader = make_user("reader", preferred_language="")
    # A player's name on the page is theirs, not a catalog phrase ("Owner", a persona's name,
    # is also a club role's word).
    from accounts.models import User

    names = set(User.objects.values_list("display_name", flat=True))
    msgids = [m for m in catalog_msgids() if m not in names]
    for name, kwargs, private in key_pages(room):
        client.logout()
        if private:
            client.force_login(reader)
        english = visible_text(client.get(url_in("en", name, **kwargs)).content.decode())
        response = client.get(url_in(language, name, **kwargs))
        assert response.status_code == 200, name
        page = response.content.decode()
        assert f'<html lang="{language}">' in page
        rendered = visible_text(page)
        with translation.override(language):
            leftovers = [
                msgid for msgid in msgids
                if contains_phrase(english, msgid)
                and translation.gettext(msgid) != msgid
                and contains_phrase(rendered, msgid)
            ]
        assert leftovers == [], f"{name} in {language} shows English: {leftovers}"


# --- 2. Every error code speaks every language

# Codes whose sentence may read the same as in English in some language (none today).
SAME_AS_ENGLISH_ALLOWED: dict[str, set[str]] = {}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_error_code_has_a_translated_sentence(language):
    codes = sorted(set(RULE_CODES) | set(MESSAGES))
    assert set(RULE_CODES) <= set(MESSAGES), "an engine code has no sentence at all"
    with translation.override("en"):
        english = {code: message_for(code) for code in codes}
    with translation.override(language):
        local = {code: message_for(code) for code in codes}
    same = {
        code for code in codes
        if local[code] == english[code] and language not in SAME_AS_ENGLISH_ALLOWED.get(code, ())
    }
    assert same == set()
    assert all(local[code].strip() for code in codes)


# --- 3. Language alternates, <html lang>, the switcher

@pytest.mark.parametrize("language", ALL)
def test_every_key_page_links_its_language_versions(client: Client, room, language):
    for name, kwargs, private in key_pages(room):
        if private:
            continue
        path = url_in(language, name, **kwargs)
        page = client.get(path).content.decode()
        assert f'<html lang="{language}">' in page
        links = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', page))
        expected = {code: "http://testserver" + url_in(code, name, **kwargs) for code in ALL}
        expected["x-default"] = "http://testserver" + path[len(language) + 1:]
        assert links == expected, name
        # The switcher is on the page, with the current language marked.
        assert 'class="language-switcher"' in page
        assert re.search(rf'value="{language}"[^>]*aria-current="true"', page, flags=re.S)


def test_x_default_redirects_to_the_visitors_language(client: Client):
    response = client.get("/rules/", headers={"accept-language": "rm"})
    assert response.status_code == 302 and response["Location"] == "/rm/rules/"


def test_a_page_that_does_not_exist_has_no_alternates(client: Client):
    page = client.get("/rm/no-such-page/").content.decode()
    assert "hreflang" not in page


# --- 4. The first visit's language

@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        ("rm", "/rm/"),
        ("rm-CH,de;q=0.8", "/rm/"),
        ("de-CH,de;q=0.9,en;q=0.5", "/de/"),
        ("fr-CH, fr;q=0.9, en;q=0.8", "/fr/"),
        ("it-CH,it;q=0.9,fr;q=0.5", "/fr/"),
        ("en-GB", "/en/"),
        ("ja", "/en/"),
        ("", "/en/"),
    ],
)
def test_first_visit_follows_accept_language(accept, expected):
    client = Client()
    response = client.get("/", headers={"accept-language": accept} if accept else {})
    assert response.status_code == 302
    assert response["Location"] == expected


def test_a_visitors_choice_is_remembered_in_a_cookie_over_accept_language():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "rm", "next": "/de/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rm/rules/"
    assert client.cookies["troccas_language"].value == "rm"
    assert client.get("/", headers={"accept-language": "fr"})["Location"] == "/rm/"


def test_a_players_profile_language_wins(make_user):
    client = Client()
    client.force_login(make_user("romansh", preferred_language="rm"))
    assert client.get("/", headers={"accept-language": "fr"})["Location"] == "/rm/"
    # An explicit language in the URL wins for that page (issue #14 item 7).
    response = client.get("/de/rules/")
    assert response.status_code == 200 and '<html lang="de">' in response.content.decode()


# --- 5. The rules page

@pytest.mark.parametrize("language", ALL)
def test_rules_page_has_every_section_option_and_the_faq(client: Client, faq, language):
    response = client.get(url_in(language, "games:rules"))
    assert response.status_code == 200
    page = response.content.decode()
    text = visible_text(page)
    with translation.override(language):
        for anchor, title in RULES_SECTIONS:
            assert f'id="{anchor}"' in page and f'href="#{anchor}"' in page
            assert str(title) in text, title
        for key, label in LABELS.items():
            assert f'id="option-{key}"' in page, key
            assert str(label) in text, key
            table = page.split(f'id="option-{key}"', 1)[1].split("</section>", 1)[0]
            assert translation.gettext("Standard") in table
            assert translation.gettext("This option") in table
        assert faq.question in html_lib.unescape(page)  # the FAQ in this language
    # The §8 worked examples and the §10 counting table.
    for cards in ("SK S4 S9 SJ", "S3 SJ SK S6", "C7 C1 RK RJ", "SK SQ SN SJ"):
        assert cards in text
    counting = page.split('class="rules-table counting-table"', 1)[1].split("</table>", 1)[0]
    assert re.findall(r"<strong>(\d+)</strong>", counting) == ["1", "5", "11", "6", "1", "5", "72"]
    # Card pictures use the sprite's symbols when it exists; the page reads without it.
    for symbol in ("suit-C", "suit-R", "suit-S", "suit-B", "court-K", "court-Q", "court-N",
                   "court-J", "trump", "narr", "back"):
        assert f"#{symbol}" in page or "cards.svg" not in page


@pytest.mark.parametrize("language", TRANSLATED)
def test_rules_prose_is_written_in_each_language(client: Client, language):
    """The long prose is the language's own, not the English source."""
    english = visible_text(client.get(url_in("en", "games:rules")).content.decode())
    local = visible_text(client.get(url_in(language, "games:rules")).content.decode())
    for sentence in ("Follow suit if you can.", "owes the winners one card",
                     "The two teams always make 72 points together."):
        assert sentence in english
        assert sentence not in local


def test_rules_page_is_print_friendly(client: Client):
    page = client.get("/en/rules/").content.decode()
    assert "css/rules.css" in page
    css = (ROOT / "static" / "css" / "rules.css").read_text(encoding="utf-8")
    assert "@media print" in css and ".site-header" in css.split("@media print", 1)[1]


def test_rules_and_bock_are_linked_from_nav_and_footer(client: Client):
    page = client.get("/fr/").content.decode()
    nav = page.split('class="site-nav"', 1)[1].split("</nav>", 1)[0]
    footer = page.split('class="site-footer"', 1)[1]
    assert 'href="/fr/rules/"' in nav
    assert 'href="/fr/rules/"' in footer and 'href="/fr/rules/bock/"' in footer


# --- 6. The Bock page

@pytest.mark.parametrize("language", ALL)
def test_bock_page_has_the_comparison_table(client: Client, language):
    response = client.get(url_in(language, "games:rules_bock"))
    assert response.status_code == 200
    page = response.content.decode()
    table = page.split('class="rules-table compare-table bock-compare"', 1)[1].split("</table>")[0]
    text = html_lib.unescape(table)
    with translation.override(language):
        assert translation.gettext("Standard") in text
        assert translation.gettext("Bock rounds on") in text
        for label, standard, bock in BOCK_COMPARISON:
            assert str(label) in text and str(bock) in text
            if standard is not None:
                assert str(standard) in text
        body = visible_text(page)
        for anchor, title in BOCK_SECTIONS:
            assert f'id="{anchor}"' in page and str(title) in body
    # The facts of RULES.md §11 in the prose: 36:36, 19 tricks, 4 deals.
    for fact in ("36:36", "19", "4"):
        assert fact in visible_text(page)


@pytest.mark.parametrize("language", TRANSLATED)
def test_bock_prose_is_written_in_each_language(client: Client, language):
    local = visible_text(client.get(url_in(language, "games:rules_bock")).content.decode())
    assert "Bock deals still owed when the match ends are dropped" not in local
    assert "counts double" not in local


@pytest.mark.parametrize("language", ALL)
def test_the_turn_timer_standard_is_one_on_the_form_the_rules_page_and_the_drawer(
        client: Client, language):
    from games.forms import CreateRoomForm
    from games.text.options import describe, rule_words
    from games.views.rules import option_comparisons

    page = client.get(url_in(language, "games:rules")).content.decode()
    text = visible_text(page)
    # Words, never the options' keys.
    for key in LABELS:
        assert key not in text, key
    with translation.override(language):
        sixty = describe("turn_seconds", 60)
        form = CreateRoomForm()
        assert form.fields["turn_seconds"].initial == 60
        standard = f"{translation.gettext('Standard:')} {sixty}."
        assert standard in str(form.fields["turn_seconds"].help_text)
        assert rule_words()["standard"]["turn_seconds"] == 60
        timer = next(o for o in option_comparisons() if o.key == "turn_seconds")
        assert str(timer.standard.value) == sixty
        no_limit = translation.gettext("No time limit: the table waits for each player.")
        assert no_limit not in str(timer.standard.effect)  # only the "off" variant has no limit
        section = page.split('<h3 id="option-turn_seconds-h">', 1)[1].split("</section>", 1)[0]
        section = visible_text("<body>" + section)
        assert sixty in section and no_limit in section
