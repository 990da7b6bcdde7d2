"""Scores read right (issue #24 item 4): every score pair names both teams, A first, in every
language, on the table's sheet and status line (the JS formats the "score_pair" string) and on
the history pages (the {% score_pair %} tag)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from games.models import Match
from games.text.scores import score_pair
from games.text.table import ui_strings
from tests.support.matches import play_match, url

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "rm", "de", "fr"]
PAIR = re.compile(r"A 16 : B 56")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pair_labels_both_teams_a_first(language: str) -> None:
    with translation.override(language):
        assert PAIR.search(score_pair(16, 56))
        assert score_pair(56, 16) == score_pair(16, 56).replace("16", "x").replace(
            "56", "16").replace("x", "56")
        rendered = Template("{% load score_tags %}{% score_pair a b %}").render(
            Context({"a": 16, "b": 56}))
        assert rendered == score_pair(16, 56)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tables_deal_result_names_the_winner_and_both_scores(language: str) -> None:
    with translation.override(language):
        s = ui_strings()
    assert "%(a)s" in s["score_pair"] and "%(b)s" in s["score_pair"]
    assert s["score_pair"].index("%(a)s") < s["score_pair"].index("%(b)s")
    # The deal's result takes the labelled pair whole: no bare "16:56" beside the winner.
    assert "%(score)s" in s["score_win"] and "%(a)s" not in s["score_win"]
    if language != "en":
        with translation.override("en"):
            assert s["score_win"] != ui_strings()["score_win"]


def test_the_js_prints_every_score_pair_through_one_function() -> None:
    scene = (ROOT / "static/js/views/scene.js").read_text()
    assert "fmt(this.S.score_pair" in scene
    assert "score: this.scorePair(points)" in scene
    sources = {p.name: p.read_text() for p in (ROOT / "static/js").rglob("*.js")}
    assert [n for n, text in sources.items() if "S.score_pair" in text] == ["scene.js"]
    # The sheet's final line goes through it too, never "Team A 12 : 30 Team B".
    assert "t.scorePair(v.totals)" in sources["scoresheet.js"]
    for name, text in sources.items():
        assert not re.search(r"\.A\}? ?:? ?\$\{[^}]*\.B\}", text), name


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_history_pages_label_both_teams(client: Client, language: str, owner, players,
                                        seeded_decks) -> None:
    seeded_decks(21)
    match: Match = play_match(owner, players, random.Random(21))
    client.force_login(players[0])  # seat 1: team B
    with translation.override(language):
        expected = score_pair(match.total_a, match.total_b)
    listing = client.get(url("games:matches", language=language)).content.decode()
    assert expected in listing
    assert re.search(r"\(\w+ ?: \w+ B\)", listing)  # "(you: Team B)" in the page's language
    detail = client.get(url("games:match", match.pk, language=language)).content.decode()
    for rnd in match.rounds.all():
        with translation.override(language):
            assert score_pair(rnd.points_a, rnd.points_b) in detail
