"""One truth in the record (issue #24 item 3): the profile's rating panel never says "No
finished match yet" above "Finished 2 of 3 matches" — the rating names rated matches as such,
and the finished record (every match, rated or not) is one partial."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.history.reliability import Record

LANGUAGES = ["en", "rm", "de", "fr"]


def _panel(language: str, row: object, record: Record) -> str:
    with translation.override(language):
        return render_to_string("games/history/rating_panel.html",
                                {"row": row, "chart": "", "record": record})


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_rated_match_beside_finished_ones_does_not_contradict(language: str) -> None:
    html = _panel(language, None, Record(finished=2, started=3))
    with translation.override(language):
        none = _("No rated match finished yet: a match with a bot is not rated.")
        finished = ngettext("Finished %(finished)s of %(started)s match.",
                            "Finished %(finished)s of %(started)s matches.", 3) % {
            "finished": 2, "started": 3}
        old = _("No finished match yet.")
    assert none in html and finished in html
    assert old not in html
    if language != "en":
        assert none != "No rated match finished yet: a match with a bot is not rated."


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rating_counts_rated_matches_by_that_name(language: str) -> None:
    row = SimpleNamespace(rating=21.5, wins=1, matches=3, provisional=True)
    html = _panel(language, row, Record(finished=4, started=4))
    with translation.override(language):
        rated = ngettext("Rating %(rating)s after %(matches)s rated match (%(wins)s won).",
                         "Rating %(rating)s after %(matches)s rated matches (%(wins)s won).",
                         3) % {"rating": floatformat(21.5, 1),
                               "matches": 3, "wins": 1}
    assert rated in html, html
    assert 'class="finished-record"' in html
    # The record's words live in one partial (the resignation counter changes them there).
    assert html.count('class="finished-record"') == 1


def test_an_empty_record_says_nothing_of_finishing() -> None:
    assert 'class="finished-record"' not in _panel("en", None, Record(finished=0, started=0))
