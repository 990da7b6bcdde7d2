"""A tournament's pages are told of its changes on the site socket /ws/me/ (docs/protocol.md
"The site socket"; games/clubs/push.py): a page `watch`es its tournament, and a finished
table, a result entered, a round started or closed, an entry made reach it as a `tournament`
frame that names the change and nothing else — through the channel layer (Redis in the
distributed run). Whoever may not see a club's tournament cannot watch it."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.clubs import desk, membership, rounds, tournaments
from games.models import SitePresence, TournamentTable
from games.services.errors import ServiceError
from tests.clubs.tournament_helpers import make_tournament, play_table, round_of
from tests.support.live import cards_in
from tests.talk.test_online import site_tab

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(180),
              pytest.mark.asyncio]

FRAME_KEYS = {"type", "tournament", "changed"}


async def _next(comm: WebsocketCommunicator, wanted: str = "tournament") -> dict[str, Any]:
    """The next frame of type `wanted`, past the others (the unread count, a banner)."""
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] == wanted:
            return frame


async def _watch(comm: WebsocketCommunicator, tournament: Any) -> dict[str, Any]:
    await comm.send_to(text_data=json.dumps({"type": "watch", "tournament": tournament}))
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] in ("tournament", "error"):
            return frame


async def _nothing_more(comm: WebsocketCommunicator) -> None:
    """No `tournament` frame is on its way (a ping's pong comes after anything sent before)."""
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    while (frame := json.loads(await comm.receive_from(timeout=10)))["type"] != "pong":
        assert frame["type"] != "tournament", frame


def _said(tournament: Any, changed: str) -> dict[str, Any]:
    return {"type": "tournament", "tournament": tournament.pk, "changed": changed}


@pytest.fixture
def crowd(make_user: Callable[..., Any]) -> list[Any]:
    return [make_user(name) for name in ("mengia", "gion", "ursina", "flurin")]


async def test_a_finished_table_of_a_duplicate_round_reaches_the_watching_page(
        owner: Any, outsider: Any, crowd: list[Any]) -> None:
    # An open tournament: anyone signed in may follow it, the director and an outsider alike.
    tournament = await sync_to_async(make_tournament)(
        owner, crowd, stages=(("swiss", 1, None, True),))
    director_tab, outsider_tab = await site_tab(owner), await site_tab(outsider)
    for tab in (director_tab, outsider_tab):
        assert await _watch(tab, tournament.pk) == _said(tournament, "watch")

    # The start, the pairing and the round's start: one word each, all of them "round".
    await sync_to_async(rounds.advance_tournament)(tournament.pk)
    for tab in (director_tab, outsider_tab):
        assert [await _next(tab) for _ in range(3)] == [_said(tournament, "round")] * 3

    # The Partie is played out through the services; the sweep copies its result.
    [table] = await sync_to_async(list)(TournamentTable.objects.filter(
        round=await sync_to_async(round_of)(tournament, 1)))
    await sync_to_async(play_table)(table)
    await sync_to_async(rounds.advance_tournament)(tournament.pk)
    for tab in (director_tab, outsider_tab):
        frames = [await _next(tab) for _ in range(3)]
        # The table's result, the round's close, the tournament's end.
        assert frames == [_said(tournament, "table"), _said(tournament, "round"),
                          _said(tournament, "round")]
        # Of a duplicate round: no deck, no card, no score — only what changed.
        assert all(set(f) == FRAME_KEYS and not cards_in(f) for f in frames)
        await _nothing_more(tab)
    for tab in (director_tab, outsider_tab):
        await tab.disconnect()


async def test_a_result_entered_and_an_adjustment_at_the_desk_reach_it(
        owner: Any, crowd: list[Any]) -> None:
    tournament = await sync_to_async(make_tournament)(owner, crowd)
    await sync_to_async(rounds.advance_tournament)(tournament.pk)
    tab = await site_tab(owner)
    assert await _watch(tab, tournament.pk) == _said(tournament, "watch")
    table = await sync_to_async(TournamentTable.objects.get)(round__tournament=tournament)
    await sync_to_async(desk.enter_result)(tournament, owner, table.pk, [[45, 33], [20, 58]])
    assert await _next(tab) == _said(tournament, "table")
    # A refused action changes nothing and says nothing.
    with pytest.raises(ServiceError, match="TOURNAMENT_TABLE_FINISHED"):
        await sync_to_async(desk.enter_result)(tournament, owner, table.pk, [[1, 2]])
    await _nothing_more(tab)
    entrant = table.seat_entrants[0]
    await sync_to_async(desk.adjust)(tournament, owner, entrant, 0, -5, "Miscounted Scart")
    assert await _next(tab) == _said(tournament, "adjustment")
    await tab.disconnect()


async def test_whoever_may_not_see_a_club_tournament_cannot_watch_it(
        owner: Any, outsider: Any, crowd: list[Any]) -> None:
    club = await sync_to_async(membership.create_club)(owner, "Ligia Grischa", language="rm")
    for person in crowd[:3]:
        await sync_to_async(membership.join)(person, club.pk)
    later = timezone.now() + timedelta(hours=2)
    tournament = await sync_to_async(make_tournament)(owner, crowd[:2], club=club,
                                                      starts_at=later,
                                                      registration_opens=timezone.now())
    member_tab, outsider_tab = await site_tab(crowd[0]), await site_tab(outsider)
    assert await _watch(member_tab, tournament.pk) == _said(tournament, "watch")
    refused = await _watch(outsider_tab, tournament.pk)
    assert refused["type"] == "error" and refused["code"] == "TOURNAMENT_NOT_FOUND"
    # A tournament that does not exist reads the same; anything but a row id is refused.
    for bad, code in ((tournament.pk + 1000, "TOURNAMENT_NOT_FOUND"),
                      ("1", "INVALID_FIELD"), (True, "INVALID_FIELD"), (0, "INVALID_FIELD"),
                      (2**63, "INVALID_FIELD"), (None, "INVALID_FIELD")):
        answer = await _watch(outsider_tab, bad)
        assert answer["type"] == "error" and answer["code"] == code, (bad, answer)

    # A member registers: the member's page hears of it, the outsider's does not.
    await sync_to_async(tournaments.register)(crowd[2], tournament)
    assert await _next(member_tab) == _said(tournament, "entrants")
    await _nothing_more(outsider_tab)
    # The refused sockets are still open for what they may see.
    for tab in (member_tab, outsider_tab):
        await tab.disconnect()


async def test_a_second_watch_replaces_the_first_and_a_resync_reads_again(
        owner: Any, crowd: list[Any]) -> None:
    later = timezone.now() + timedelta(hours=2)
    first, second = [await sync_to_async(make_tournament)(owner, crowd[:1], starts_at=later,
                                                          registration_opens=timezone.now())
                     for _ in range(2)]
    tab = await site_tab(owner)
    assert await _watch(tab, first.pk) == _said(first, "watch")
    assert await _watch(tab, second.pk) == _said(second, "watch")
    await sync_to_async(tournaments.register)(crowd[1], first)
    await _nothing_more(tab)
    await sync_to_async(tournaments.register)(crowd[1], second)
    assert await _next(tab) == _said(second, "entrants")
    # The channel layer's word that frames may have been lost: the page reads again.
    layer = get_channel_layer()
    assert layer is not None
    channel = await sync_to_async(SitePresence.objects.get)(user=owner)
    await layer.send(channel.channel_name, {"type": "layer.resync"})
    assert await _next(tab) == _said(second, "resync")
    await tab.disconnect()
