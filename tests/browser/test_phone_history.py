"""History and standings at 390×844 (issue #24 item 10): the pages, rendered with a finished
match and long names, fit the phone's width — no sideways scrolling. The page HTML comes from
the test client and its stylesheets are inlined, so Chromium lays out exactly what is served."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.test import Client

from games.models import PlayerRating
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.fixtures import seeded_decks  # noqa: F401  (a fixture)
from tests.support.matches import play_match, url

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}
STYLESHEET = re.compile(r'<link rel="stylesheet" href="/static/([^"]+)"[^>]*>')


def _inline(html: str) -> str:
    def style(m: re.Match[str]) -> str:
        return f"<style>{(ROOT / 'static' / m.group(1)).read_text()}</style>"

    html = re.sub(r"<script\b.*?</script>", "", html, flags=re.S)
    return STYLESHEET.sub(style, html)


def test_history_and_standings_fit_a_phone(client: Client, owner, players,
                                           seeded_decks) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    seeded_decks(21)
    for p in (owner, *players):
        p.display_name = f"{p.display_name} Tschurtschenthaler-Caminada"
        p.save(update_fields=["display_name"])
    match = play_match(owner, players, random.Random(21))
    for i, p in enumerate((owner, *players)):
        PlayerRating.objects.update_or_create(user=p, defaults={
            "matches": 5 + i, "wins": 3, "rating": 24.5, "avg_points": 36.0})
    client.force_login(owner)
    pages = {name: _inline(client.get(address).content.decode()) for name, address in (
        ("matches", url("games:matches", language="rm")),
        ("standings", url("games:standings", language="de")),
        ("match", url("games:match", match.pk, language="fr")))}
    assert "Tschurtschenthaler" in pages["matches"] and "Tschurtschenthaler" in pages["standings"]
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = chromium.new_page(viewport=PHONE)
        for name in ("matches", "standings", "match"):
            page.set_content(pages[name])
            width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            assert width[0] <= width[1], (name, width)
            # Nor inside the table's own scroll box (which would hide the overflow from the page).
            boxes = page.evaluate("[...document.querySelectorAll('.table-scroll')]"
                                  ".map((e) => [e.scrollWidth, e.clientWidth])")
            assert boxes and all(w <= c for w, c in boxes), (name, boxes)
            # The result and the totals stay visible.
            key = {"matches": "td[data-label]", "standings": "tbody td:nth-child(3)",
                   "match": ".totals"}[name]
            assert page.locator(key).first.is_visible(), name
        chromium.close()
