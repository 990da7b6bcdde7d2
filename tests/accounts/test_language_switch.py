"""The language switcher moves the URL too (issue #24 item 8): whichever page it is pressed on,
the player lands on the same page under the new language's prefix, and the page is in that
language — signed in or not, whatever the profile said before. An address the page carries in
its own `next` (the log-in page's) moves with it, and the replay's step (#d2t7) is kept."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import translation

pytestmark = pytest.mark.django_db
LANGUAGES = ("rm", "de", "fr", "en")


def _plain_pages() -> list[str]:
    """Every page of the site's language prefix that takes no argument (as the English path;
    the admin aside, which is Django's own)."""
    with translation.override("en"):
        resolver = get_resolver()
        out: list[str] = []

        def walk(patterns: list[Any], prefix: str, namespace: str) -> None:
            for p in patterns:
                if isinstance(p, URLResolver):
                    if p.namespace == "admin":
                        continue
                    ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                    walk(p.url_patterns, prefix + str(p.pattern), ns)
                elif isinstance(p, URLPattern) and p.name and not p.pattern.converters:
                    route = prefix + str(p.pattern)
                    if route.startswith("en/") and "<" not in route and "." not in route:
                        out.append("/" + route)

        walk(resolver.url_patterns, "", "")
    return sorted(set(out))


def test_the_page_list_is_the_sites() -> None:
    pages = _plain_pages()
    assert {"/en/", "/en/rules/", "/en/matches/", "/en/standings/", "/en/friends/",
            "/en/accounts/login/", "/en/accounts/profile/"} <= set(pages)


@pytest.mark.parametrize("signed_in", [False, True], ids=["signed-out", "signed-in"])
def test_every_page_moves_to_the_new_prefix_and_speaks_it(make_user: Any,
                                                          signed_in: bool) -> None:
    client = Client()
    if signed_in:
        # A profile in German: the switcher must win over it, not lag one language behind.
        client.force_login(make_user("curdin", preferred_language="de"))
    for page in _plain_pages():
        current = "de"
        here = page.replace("/en/", f"/{current}/", 1)
        for language in LANGUAGES:
            response = client.post("/i18n/setlang/", {"language": language, "next": here})
            assert response.status_code == 302, page
            target = response["Location"]
            assert urlsplit(target).path == page.replace("/en/", f"/{language}/", 1), (
                page, language, target)
            shown = client.get(target)
            if shown.status_code == 200:
                assert shown["Content-Language"] == language, (target, signed_in)
                assert f'<html lang="{language}"' in shown.content.decode()
            here = target


def test_the_log_in_pages_next_moves_with_it() -> None:
    response = Client().post("/i18n/setlang/", {
        "language": "rm", "next": "/de/accounts/login/?next=/de/matches/"})
    target = urlsplit(response["Location"])
    assert target.path == "/rm/accounts/login/"
    assert parse_qs(target.query) == {"next": ["/rm/matches/"]}


def test_a_next_elsewhere_is_left_as_it_is() -> None:
    # Only a page of this site moves; anything else in `next` is not touched (the log-in view
    # refuses a foreign one anyway).
    response = Client().post("/i18n/setlang/", {
        "language": "fr", "next": "/de/accounts/login/?next=//evil.example/de/"})
    target = urlsplit(response["Location"])
    assert target.path == "/fr/accounts/login/"
    assert parse_qs(target.query) == {"next": ["//evil.example/de/"]}


def test_the_step_after_the_hash_is_kept(make_user: Any) -> None:
    client = Client()
    client.force_login(make_user("anna", preferred_language="rm"))
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/rm/matches/#d2t7"})
    assert response["Location"] == "/fr/matches/#d2t7"
