"""Four players in four tabs play a complete deal over websockets (issue #4, RULES §13).

Every frame each socket receives is checked: a seat's frames never hold a card of another
seat's hand, of the scart (unless it is the dealer's) or of the undealt deck; the spectator's
frames hold none of them at all; each seat's `hand` is exactly its hand in the database.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings

from games import services
from games.engine import from_json
from games.engine.cards import ids_of
from games.models import Room, Round, RoundAction, Trick
from tests import personas
from tests.support.live import TableClient, cards_in

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(120)]


def _hidden_sets() -> dict[Any, set[str]] | None:
    """For the running deal: the cards each seat (and None, the spectators) may not see."""
    rnd = Round.objects.order_by("-pk").first()
    if rnd is None:
        return None
    state = from_json(rnd.engine_state)
    deal = state.deal
    if deal is None or state.phase in ("ROUND_OVER", "MATCH_OVER"):
        return None
    hands = [set(ids_of(h)) for h in deal.hands]
    dealt = {0: 0, 1: 24, 2: 48, 3: 78}[deal.passes]
    undealt = {rnd.deck[i] for i in range(dealt, 78)}
    scart = set() if deal.scart is None else set(
        ids_of((1 << deal.scart[0]) | (1 << deal.scart[1])))
    reveal = set() if deal.reveal is None else {c for c in ids_of(
        sum(1 << x for x in deal.reveal))}
    # A card a BUOB exchange sent back to a hand was face up on the table: it is public.
    for t in deal.tricks:
        if t.buob is not None and t.buob.returned_card is not None:
            reveal |= set(ids_of(1 << t.buob.returned_card))
    out: dict[Any, set[str]] = {}
    for seat in (0, 1, 2, 3, None):
        hidden = set(undealt)
        for s in range(4):
            if s != seat:
                hidden |= hands[s]
        if seat != deal.dealer:
            hidden |= scart
        out[seat] = hidden - reveal  # reveal cards were shown to everyone (§5)
    return out


class Table:
    def __init__(self, clients: list[TableClient], spectator: TableClient) -> None:
        self.clients = clients
        self.spectator = spectator
        self.seat_of: dict[int, int] = {}
        self.errors: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.checked: dict[str, int] = {}

    @property
    def everyone(self) -> list[TableClient]:
        return [*self.clients, self.spectator]

    async def settle(self) -> None:
        """Bring every socket up to the table's version, then check every frame it got."""
        code = self.clients[0].code
        version = await sync_to_async(
            lambda: Room.objects.values_list("version", flat=True).get(code=code))()
        await asyncio.gather(*(c.wait_version(version, timeout=20) for c in self.everyone
                               if c.version < version))
        await asyncio.gather(*(c.drain() for c in self.everyone))
        hidden = await sync_to_async(_hidden_sets)()
        for c in self.everyone:
            # Every frame received since the last check, also those read by wait_for.
            frames = c.frames[self.checked.get(c.name, 0):]
            self.checked[c.name] = len(c.frames)
            seat = None if c is self.spectator else (c.view or {}).get("seat")
            for f in frames:
                if f["type"] == "error" and {"client": c.name, **f} not in self.errors:
                    self.errors.append({"client": c.name, **f})
                if f["type"] == "state" and "events" in f and c is self.spectator:
                    self.events.extend(f["events"])
                if hidden is not None:
                    leaked = cards_in(f) & hidden[seat]
                    assert not leaked, f"{c.name} (seat {seat}) received hidden {leaked}"
        await sync_to_async(self._check_hands)()

    def _check_hands(self) -> None:
        rnd = Round.objects.order_by("-pk").first()
        if rnd is None:
            return
        state = from_json(rnd.engine_state)
        for c in self.clients:
            v = c.view
            if v and v.get("seat") is not None and state.deal is not None and \
                    state.phase not in ("ROUND_OVER", "MATCH_OVER") and \
                    c.version == Room.objects.get(code=c.code).version:
                assert v["hand"] == ids_of(state.deal.hands[v["seat"]])

    async def act(self, client: TableClient, type_: str, **fields: Any) -> None:
        """Send a command, wait for its answer (ack or error), then settle every socket."""
        action_id = await client.send(type_, **fields)
        answer = await client.wait_for(
            lambda m: m["type"] in ("ack", "error") and m.get("action_id") == action_id,
            timeout=20)
        del answer  # errors are collected from every frame by settle()
        await self.settle()

    def by_seat(self, seat: int) -> TableClient:
        return next(c for c in self.clients if c.view and c.view["seat"] == seat)


async def _open_table(make_user: Any, spectator_user: Any, options: dict[str, Any]
                      ) -> Table:
    names = [p.name for p in personas.SEATED]
    users = [await sync_to_async(make_user)(n) for n in names]
    room = await sync_to_async(services.create_room)(users[0], options)
    clients = [TableClient(u, room.code, n) for u, n in zip(users, names, strict=True)]
    spec = TableClient(spectator_user, room.code, "spectator")
    table = Table(clients, spec)
    for c in table.everyone:
        assert await c.connect()
    await table.settle()
    # The owner sits in team A; the others take B, A, B.
    for c, persona in zip(clients[1:], personas.PLAYERS, strict=True):
        await table.act(c, "take_seat", team=persona.team)
    assert not table.errors, table.errors
    return table


async def _play_deal(table: Table, rng: random.Random) -> None:
    """Drive the deal from the views alone, as a client would, calling BUOB whenever a
    view offers it. (Deck seed 1 with play seed 11 gives a deal with an accepted BUOB call, an
    exchange at completion and a Narr debt.)"""
    for _ in range(400):
        view = table.spectator.view
        assert view is not None
        phase = view["phase"]
        if phase in ("ROUND_OVER", "MATCH_OVER"):
            return
        if phase == "DEALING":
            c = table.by_seat(view["dealer"])
            await table.act(c, "deal_next_pass")
        elif phase == "REVEAL":
            # The reveal window closes by the server's timer (room option reveal_seconds): the
            # in-process timer in the embedded mode; in the distributed mode a Celery worker
            # (tested in test_celery_timers.py) or beat's sweep, which this test stands in for.
            if settings.TROCCAS_MODE == "distributed":
                await asyncio.sleep(view["options"]["reveal_seconds"] + 0.2)
                await sync_to_async(services.sweep_deadlines)()
            await table.spectator.wait_for(lambda m: m["type"] == "state"
                                           and m["view"]["phase"] == "SCART", timeout=10)
            await table.settle()
        elif phase == "SCART":
            c = table.by_seat(view["dealer"])
            allowed = c.view["actions"]["scart_allowed"]
            await table.act(c, "discard_scart", cards=rng.sample(allowed, 2))
        elif phase == "PLAY":
            callers = [c for c in table.clients if c.view["buob"] and c.view["buob"]["suits"]]
            if callers:
                c = rng.choice(callers)
                await table.act(c, "call_buob", suit=rng.choice(c.view["buob"]["suits"]))
            else:
                c = table.by_seat(view["turn"])
                await table.act(c, "play_card", card=rng.choice(c.view["legal_cards"]))
    raise AssertionError("the deal did not end")


async def test_four_tabs_play_a_complete_deal_with_buob_and_narr(
        make_user: Any, spectator: Any, seeded_decks: Any) -> None:
    seeded_decks(1)
    table = await _open_table(make_user, spectator, {"reveal_seconds": 2})
    owner = table.clients[0]
    await table.act(owner, "start_round")
    assert table.spectator.view["phase"] == "DEALING"
    # A-B-A-B seating, the owner dealing first (RULES §3).
    assert table.spectator.view["dealer"] == owner.view["seat"] == 0
    rng = random.Random(11)
    await _play_deal(table, rng)
    view = table.spectator.view
    assert view["phase"] == "ROUND_OVER"
    assert view["review"]["points"]["A"] + view["review"]["points"]["B"] == 72
    kinds = {e["type"] for e in table.events}
    assert not table.errors, table.errors
    assert "buob_called" in kinds, "the deal exercised BUOB"
    assert {"narr_debt_created", "narr_debt_settled"} <= kinds, "the deal exercised the Narr"
    # Everything the players did is persisted: 19 tricks, one action log in order.
    rnd = await sync_to_async(lambda: Round.objects.get())()
    assert await sync_to_async(Trick.objects.filter(round=rnd).count)() == 19
    seqs = await sync_to_async(lambda: list(RoundAction.objects.filter(round=rnd)
                                            .values_list("sequence", flat=True)))()
    assert seqs == list(range(1, len(seqs) + 1))
    # Regame: the next dealer deals, totals kept.
    await table.act(table.clients[2], "regame")
    assert table.spectator.view["phase"] == "DEALING"
    assert table.spectator.view["dealer"] == 1
    assert table.spectator.view["totals"] == view["totals"]
    for c in table.everyone:
        await c.close()
