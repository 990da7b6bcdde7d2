"""Who did what (issue #24 item 15): each player's figures on the match page — tricks and card
points won, BUOB calls made and won, the Narr played — from the stored tricks alone, agreeing
with the deals' own totals; and nothing in them a viewer could not see at the table."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from django.test import Client

from games.history.figures import player_figures
from games.models import Trick
from tests.support.fixtures import seeded_decks  # noqa: F401 - a fixture
from tests.support.matches import play_match, url

NAMES = ["Mengia", "Gion", "Ursina", "Flurin"]


def trick(winner: int | None, cards: list[tuple[int, str]], call: dict[str, Any] | None = None
          ) -> SimpleNamespace:
    return SimpleNamespace(winner=winner, buob_call=call,
                           cards=[{"seat": s, "card": c} for s, c in cards])


def test_each_seat_is_counted_from_the_tricks_it_took() -> None:
    figures = player_figures(NAMES, [
        # Seat 1 takes the king and queen of cups (5 + 4) and the two small cards (1 + 1).
        trick(1, [(0, "C7"), (1, "CK"), (2, "CQ"), (3, "C8")]),
        # Seat 2 calls BUOB and its team (A) takes the trick; seat 3 throws the Narr (5).
        trick(0, [(2, "T21"), (3, "NARR"), (0, "T2"), (1, "T3")],
              {"caller": 2, "suit": "C", "target": 0, "mode": "forced"}),
        # Seat 3 calls and team A takes it: made, not won.
        trick(2, [(3, "S7"), (0, "S8"), (1, "S9"), (2, "SK")],
              {"caller": 3, "suit": "S", "target": 1, "mode": "forced"}),
        # An open trick: the Narr in it counts, the trick does not yet.
        trick(None, [(1, "NARR")]),
    ])
    by_seat = {f.seat: f for f in figures}
    assert [f.team for f in figures] == ["A", "B", "A", "B"]
    assert by_seat[1].tricks == 1 and by_seat[1].card_points == 11
    assert by_seat[0].tricks == 1 and by_seat[0].card_points == 5 + 5 + 1 + 1
    assert (by_seat[2].buob_made, by_seat[2].buob_won) == (1, 1)
    assert (by_seat[3].buob_made, by_seat[3].buob_won) == (1, 0)
    assert by_seat[3].narr_played == 1 and by_seat[1].narr_played == 1
    assert sum(f.tricks for f in figures) == 3


@pytest.mark.django_db
def test_the_match_page_shows_figures_that_add_up_to_the_deals(
        client: Client, owner: Any, players: list[Any], seeded_decks: Any) -> None:  # noqa: F811
    seeded_decks(7)
    match = play_match(owner, players, random.Random(7))
    tricks = list(Trick.objects.filter(round__match=match))
    figures = player_figures([p.public_name for p in match.players], tricks)
    completed = [t for t in tricks if t.winner is not None]
    assert sum(f.tricks for f in figures) == len(completed)
    # Each team's tricks as the deals count them (the page's own "Tricks won" column).
    for team in (0, 1):
        assert sum(f.tricks for f in figures if f.seat % 2 == team) == sum(
            1 for t in completed if t.winner % 2 == team)
    # Every card played in a completed trick is counted once, in one player's points.
    from games.engine.cards import INDEX, POINTS_OF
    assert sum(f.card_points for f in figures) == sum(
        POINTS_OF[INDEX[c["card"]]] for t in completed for c in t.cards)
    assert sum(f.buob_made for f in figures) == sum(1 for t in completed if t.buob_call)
    client.force_login(owner)
    page = client.get(url("games:match", match.pk, language="de")).content.decode()
    assert "Wer hat was gemacht" in page
    for f in figures:
        row = page.split(f'data-figures-seat="{f.seat}"', 1)[1].split("</tr>", 1)[0]
        assert f.name in row
        assert f">{f.tricks}</td>" in row and f">{f.narr_played}</td>" in row
