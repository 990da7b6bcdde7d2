"""Clubs and tournaments at 390×844 (issue #26, and the phone rule of issue #24 item 10):
every page of a club and of a tournament that has played a round — the lists, the club page,
the tournament page with its house rules and ratings note, the standings, the round, the
director's desk and the create forms — fits a phone's width with long names and long German
labels: no sideways scrolling. The page HTML comes from the test client with its stylesheets
inlined (as tests/browser/test_phone_history.py does), so Chromium lays out what is served."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.clubs import membership, rounds
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.test_phone_history import PHONE, _inline
from tests.clubs.tournament_helpers import make_tournament, play_round
from tests.support.matches import url

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(240)]

LONG = "Tschurtschenthaler-Caminada"


def test_club_and_tournament_pages_fit_a_phone(client: Client,
                                               make_user: Any) -> None:
    from playwright.sync_api import sync_playwright

    director = make_user("directura", display_name=f"Mengia {LONG}")
    people = [make_user(f"giugader{i}", display_name=f"Giugader{i} {LONG}") for i in range(8)]
    club = membership.create_club(director, f"Uniun {LONG}",
                                  description="Nus giugain mintga venderdi. " * 6,
                                  region="Surselva e Foppa", language="rm")
    for person in people:
        membership.join(person, club.pk)
    tournament = make_tournament(director, people, club=club,
                                 stages=(("swiss", 2, None, False),))
    tournament.name = f"Campiunadi grischun {LONG}"
    tournament.save(update_fields=["name"])
    rounds.advance_tournament(tournament.pk)
    play_round(tournament, 1)
    client.force_login(director)
    addresses = {
        "clubs": url("games:clubs", language="de"),
        "club": club.get_absolute_url(),
        "tournaments": url("games:tournaments", language="de"),
        "tournament": url("games:tournament", tournament.pk, language="de"),
        "standings": url("games:tournament_standings", tournament.pk, language="fr"),
        "round": url("games:tournament_round", tournament.pk, 1, language="de"),
        "desk": url("games:tournament_desk", tournament.pk, language="de"),
        "create": url("games:create_tournament", language="de"),
    }
    pages = {}
    for name, address in addresses.items():
        response = client.get(address)
        assert response.status_code == 200, (name, address)
        pages[name] = _inline(response.content.decode())
    assert LONG in pages["standings"] and LONG in pages["club"]
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = chromium.new_page(viewport=PHONE)
            wide = {}
            for name, html in pages.items():
                page.set_content(html)
                width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
                boxes = page.evaluate("[...document.querySelectorAll('.table-scroll')]"
                                      ".map((e) => [e.scrollWidth, e.clientWidth])")
                if width[0] > width[1] or any(w > c for w, c in boxes):
                    # What sticks out, to say where to look.
                    wide[name] = page.evaluate(
                        "[...document.querySelectorAll('body *')].filter((e) => "
                        "e.getBoundingClientRect().right > innerWidth + 1).slice(-3)"
                        ".map((e) => e.tagName + '.' + e.className + ' '"
                        " + (e.textContent || '').trim().slice(0, 40))")
            assert not wide, wide
        finally:
            chromium.close()
