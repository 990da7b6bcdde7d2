"""Table talk over real websockets (issue #17 items 1-3, 6; docs/protocol.md "Table talk").

The table of tests/personas.py: owner A/0, anna B/1, benedetg A/2, curdin B/3, and a spectator
without a seat. What a seated player says is public to all four seats and the spectators;
the spectators' chat reaches only spectators. Each reader sees a quick phrase in their own
language, filters the speakers they muted, and every refusal is a coded, translated error.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games.engine import PLAY
from games.models import BlockedWord, TalkMessage, TalkReport, TalkSuspension
from tests.support import tables
from tests.support.live import TableClient

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True),
              pytest.mark.timeout(90), pytest.mark.usefixtures("palette")]


@pytest.fixture
def palette(transactional_db: Any) -> None:
    """The seeded quick phrases (migration 0007): a transactional test's flush removes the
    migration's rows, so each test seeds them again the way the migration does."""
    from django.apps import apps

    seed = importlib.import_module("games.migrations.0007_table_talk").seed_phrases
    seed(apps, None)


async def say(c: TableClient, **fields: Any) -> dict[str, Any]:
    """Send `say` and return its answer: `talk_ack` or `error`."""
    action = await c.send("say", **fields)
    return await c.wait_for(lambda m: m["type"] in ("talk_ack", "error")
                            and m.get("action_id") == action)


async def send(c: TableClient, type_: str, **fields: Any) -> dict[str, Any]:
    action = await c.send(type_, **fields)
    return await c.wait_for(lambda m: m["type"] in ("talk_ack", "error")
                            and m.get("action_id") == action)


async def heard(c: TableClient, text: str) -> dict[str, Any]:
    """The `talk` frame of `text` this socket got (already, or within the timeout)."""
    def match(m: dict[str, Any]) -> bool:
        return m["type"] == "talk" and m["message"]["text"] == text

    seen = [m for m in c.frames if match(m)]
    return (seen[0] if seen else await c.wait_for(match))["message"]


async def talk_in(c: TableClient) -> list[str]:
    """The texts of the `talk` frames this socket gets until it is quiet."""
    return [m["message"]["text"] for m in await c.drain(0.3) if m["type"] == "talk"]


async def open_all(code: str, by_seat: dict[int, Any], spectator: Any
                   ) -> tuple[list[TableClient], TableClient]:
    seats = [await tables.open_tab(by_seat[i], code) for i in range(4)]
    return seats, await tables.open_tab(spectator, code)


async def close_all(*clients: TableClient) -> None:
    for c in clients:
        await c.close()


async def test_seated_talk_is_public_and_the_spectators_chat_stays_with_spectators(
        table, spectator):
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, PLAY)
    seats, watcher = await open_all(code, by_seat, spectator)
    try:
        ack = await say(seats[1], text="  Partner,   lead a trump!  ")
        assert ack["type"] == "talk_ack" and ack["duplicate"] is False
        version = await sync_to_async(tables.version)(code)
        for c in [*seats, watcher]:
            said = await heard(c, "Partner, lead a trump!")  # whitespace folded
            assert said["seat"] == 1 and said["audience"] == "table"
            assert said["name"] == by_seat[1].public_name and said["author"] == by_seat[1].pk
            assert said["version"] == version and said["deal"] == 1 and said["links"] is False
        # A spectator helping a player: only spectators read it, never a seat.
        assert (await say(watcher, text="Anna holds the world!"))["type"] == "talk_ack"
        assert (await heard(watcher, "Anna holds the world!"))["audience"] == "spectators"
        for c in seats:
            assert await talk_in(c) == []
        # On connect a socket gets the talk it may see of the current match.
        fresh = TableClient(by_seat[2], code)
        assert await fresh.connect()
        hist = await fresh.wait_for(lambda m: m["type"] == "talk_history")
        assert [m["text"] for m in hist["messages"]] == ["Partner, lead a trump!"]
        other_watcher = TableClient(spectator, code)
        assert await other_watcher.connect()
        hist = await other_watcher.wait_for(lambda m: m["type"] == "talk_history")
        assert [m["text"] for m in hist["messages"]] == ["Partner, lead a trump!",
                                                          "Anna holds the world!"]
        await close_all(fresh, other_watcher)
        stored = await sync_to_async(list)(TalkMessage.objects.order_by("pk").values_list(
            "audience", "seat", "deal"))
        assert stored == [("table", 1, 1), ("spectators", None, 1)]
    finally:
        await close_all(*seats, watcher)


async def test_a_quick_phrase_reads_in_each_readers_language_and_the_option_governs_talk(
        owner, players, make_user):
    by_seat = {0: owner, **dict(enumerate(players, 1))}
    for user, lang in zip(players, ("rm", "de", "fr"), strict=True):
        user.preferred_language = lang
        await sync_to_async(user.save)()
    room = await sync_to_async(tables.seat_table)(owner, players, {"table_talk": "phrases"})
    code = room.code
    seats = [await tables.open_tab(by_seat[i], code) for i in range(4)]
    try:
        refused = await say(seats[0], text="hello")
        assert refused["code"] == "TALK_PHRASES_ONLY"
        german = await say(seats[2], text="hallo")
        assert german["code"] == "TALK_PHRASES_ONLY" and german["message"] != refused["message"]
        assert (await say(seats[0], phrase="well-played"))["type"] == "talk_ack"
        texts = [(await seats[i].wait_for(lambda m: m["type"] == "talk"))["message"]
                 for i in range(4)]
        assert [t["text"] for t in texts] == ["Well played!", "Bain giugà!", "Gut gespielt!",
                                              "Bien joué !"]
        assert {t["phrase"] for t in texts} == {"well-played"}
        assert (await say(seats[1], phrase="no-such-phrase"))["code"] == "UNKNOWN_PHRASE"
        # The owner makes it a silent table (between matches); everyone's state shows it.
        await seats[0].send("set_options", options={"table_talk": "silent"})
        for c in seats:
            await c.wait_for(lambda m: m["type"] == "state"
                             and m["view"]["room"]["options"]["table_talk"] == "silent")
        assert (await say(seats[3], phrase="thanks"))["code"] == "TALK_SILENT"
        assert (await say(seats[3], text="merci"))["code"] == "TALK_SILENT"
        assert await sync_to_async(TalkMessage.objects.count)() == 1
    finally:
        await close_all(*seats)


async def test_a_player_mutes_another_on_every_socket_and_unmutes(table):
    code, by_seat = table
    seats = [await tables.open_tab(by_seat[i], code) for i in range(4)]
    curdin_again = await tables.open_tab(by_seat[3], code)
    anna = by_seat[1]
    try:
        await say(seats[1], text="before the mute")
        for c in (*seats, curdin_again):
            await heard(c, "before the mute")
        assert (await send(seats[3], "mute", player=anna.pk, muted=True))["type"] == "talk_ack"
        # Both of curdin's sockets refilter at once: anna's earlier talk is gone too.
        for c in (seats[3], curdin_again):
            hist = await c.wait_for(lambda m: m["type"] == "talk_history")
            assert hist["messages"] == []
        await say(seats[1], text="after the mute")
        for c in seats[:3]:
            await heard(c, "after the mute")
        assert await talk_in(seats[3]) == [] and await talk_in(curdin_again) == []
        # A second connect keeps the mute (per user, stored).
        late = TableClient(by_seat[3], code)
        assert await late.connect()
        await late.wait_for(lambda m: m["type"] == "state")
        assert await talk_in(late) == []
        await late.close()
        assert (await send(seats[3], "mute", player=by_seat[3].pk, muted=True)
                )["code"] == "CANNOT_TARGET_SELF"
        await send(seats[3], "mute", player=anna.pk, muted=False)
        hist = await seats[3].wait_for(lambda m: m["type"] == "talk_history")
        assert [m["text"] for m in hist["messages"]] == ["before the mute", "after the mute"]
        await say(seats[1], text="heard again")
        await heard(seats[3], "heard again")
    finally:
        await close_all(*seats, curdin_again)


async def test_friends_links_are_links_and_a_block_hides_talk_both_ways(table):
    """Issue #17: "no links rendered as links from strangers" and a blocked user's "talk to you
    is hidden" — both read by every open socket as soon as the friendship or block changes."""
    from games.talk import blocks, friends

    code, by_seat = table
    anna, benedetg, curdin = by_seat[1], by_seat[2], by_seat[3]
    seats = [await tables.open_tab(by_seat[i], code) for i in range(4)]
    try:
        await sync_to_async(friends.send_request)(anna, benedetg.pk)
        await sync_to_async(friends.accept)(benedetg, anna.pk)
        await seats[2].wait_for(lambda m: m["type"] == "talk_history")
        await say(seats[1], text="rules at https://example.org/troccas")
        assert (await heard(seats[2], "rules at https://example.org/troccas"))["links"] is True
        for c in (seats[0], seats[3]):  # strangers: the URL stays text
            assert (await heard(c, "rules at https://example.org/troccas"))["links"] is False
        await sync_to_async(blocks.block)(curdin, anna.pk)
        hist = await seats[3].wait_for(lambda m: m["type"] == "talk_history")
        assert hist["messages"] == []  # anna's earlier talk is gone from curdin's socket
        await seats[1].wait_for(lambda m: m["type"] == "talk_history")
        await say(seats[1], text="from anna")
        await say(seats[3], text="from curdin")
        for c in (seats[0], seats[2]):
            await heard(c, "from anna")
            await heard(c, "from curdin")
        assert "from anna" not in await talk_in(seats[3])
        assert "from curdin" not in await talk_in(seats[1])
    finally:
        await close_all(*seats)


def _staff_client(make_user: Any) -> Client:
    staff = make_user("moderator", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    return client


async def test_a_report_reaches_staff_who_hide_it_live_and_suspend_the_speaker(
        table, spectator, make_user):
    code, by_seat = table
    await sync_to_async(tables.advance)(code, by_seat, PLAY)
    seats, watcher = await open_all(code, by_seat, spectator)
    try:
        await say(seats[0], text="good luck all")
        await say(seats[1], text="you are all donkeys")
        await say(seats[2], text="let us play")
        bad = await heard(seats[2], "you are all donkeys")
        # A report asks why (issue #24 item 14): none, or one not in the list, stores nothing.
        assert (await send(seats[2], "report", message=bad["id"]))["code"] == "MISSING_FIELD"
        for reason in ("boring", "", "ABUSE"):
            refused = await send(seats[2], "report", message=bad["id"], reason=reason)
            assert refused["code"] == "REPORT_REASON_UNKNOWN", reason
        too_long = await send(seats[2], "report", message=bad["id"], reason="abuse",
                              note="x" * 301)
        assert too_long["code"] == "TALK_TOO_LONG"
        hidden = await send(seats[2], "report", message=bad["id"], reason="abuse",
                            note="look \u202e here")
        assert hidden["code"] == "INVALID_FIELD"
        assert not await sync_to_async(TalkReport.objects.exists)()
        assert (await send(seats[2], "report", message=bad["id"], reason="abuse",
                           note="  not the first time  "))["type"] == "talk_ack"
        again = await send(seats[2], "report", message=bad["id"], reason="spam")  # one report
        assert again["type"] == "talk_ack"
        assert (await send(seats[1], "report", message=bad["id"], reason="abuse"))["code"] == \
            "CANNOT_TARGET_SELF"
        assert (await send(seats[2], "report", message=10**6, reason="abuse"))["code"] == \
            "TALK_MESSAGE_NOT_FOUND"
        report = await sync_to_async(TalkReport.objects.get)()
        assert (report.reason, report.note) == ("abuse", "not the first time")
        client = await sync_to_async(_staff_client)(make_user)
        page = await sync_to_async(client.get)(
            reverse("admin:games_talkreport_change", args=[report.pk]))
        html = page.content.decode()
        assert page.status_code == 200
        for text in ("you are all donkeys", "good luck all", "let us play", "talk-reported",
                     "insults or harassment", "not the first time"):
            assert text in html
        match_id = await sync_to_async(lambda: TalkMessage.objects.get(pk=bad["id"]).match_id)()
        assert f'{reverse("games:match", args=[match_id])}#v' in html
        # Staff hide it: it disappears for everyone, live, and from every later history.
        await sync_to_async(client.post)(
            reverse("admin:games_talkmessage_changelist"),
            {"action": "hide_messages", "_selected_action": [bad["id"]]})
        for c in [*seats, watcher]:
            await c.wait_for(lambda m: m["type"] == "talk_hidden" and m["id"] == bad["id"])
        fresh = TableClient(by_seat[3], code)
        assert await fresh.connect()
        hist = await fresh.wait_for(lambda m: m["type"] == "talk_history")
        assert [m["text"] for m in hist["messages"]] == ["good luck all", "let us play"]
        await fresh.close()
        assert await sync_to_async(
            TalkReport.objects.filter(resolved=True).count)() == 1
        # And suspend the speaker's talk.
        await sync_to_async(client.post)(
            reverse("admin:games_talkreport_changelist"),
            {"action": "suspend_day", "_selected_action": [report.pk]})
        assert await sync_to_async(
            TalkSuspension.objects.filter(user_id=by_seat[1].pk).exists)()
        assert (await say(seats[1], text="sorry"))["code"] == "TALK_SUSPENDED"
        assert (await say(seats[0], text="fine"))["type"] == "talk_ack"
    finally:
        await close_all(*seats, watcher)


async def test_bad_talk_is_refused_with_its_code_and_markup_stays_text(table, make_user):
    code, by_seat = table
    await sync_to_async(BlockedWord.objects.create)(language="de", word="Idiot")
    anna = await tables.open_tab(by_seat[1], code)
    owner = await tables.open_tab(by_seat[0], code)
    try:
        cases = [
            ({"text": "x" * 201}, "TALK_TOO_LONG"),
            ({"text": "   "}, "TALK_EMPTY"),
            ({"text": "du IDIOT!"}, "TALK_BLOCKED_WORD"),
            ({"text": "bell\u0007"}, "INVALID_FIELD"),
            ({"text": "\u202eevil"}, "INVALID_FIELD"),
            ({"text": "hi", "phrase": "thanks"}, "INVALID_FIELD"),
            ({}, "INVALID_FIELD"),
            ({"text": 42}, "INVALID_FIELD"),
            ({"phrase": ["thanks"]}, "INVALID_FIELD"),
        ]
        for fields, code_ in cases:
            answer = await say(anna, **fields)
            assert answer["type"] == "error" and answer["code"] == code_, (fields, answer)
            assert answer["message"] and answer["message"] != code_
        await anna.send_raw('{"type": "say", "text": "no action id"}')
        assert (await anna.wait_for(lambda m: m["type"] == "error"))["code"] == "MISSING_FIELD"
        await anna.send_raw('{"type": "say", "action_id": "a", "text": "' + "y" * 5000 + '"}')
        assert (await anna.wait_for(lambda m: m["type"] == "error"))["code"] == \
            "MESSAGE_TOO_LARGE"
        assert await sync_to_async(TalkMessage.objects.count)() == 0
        # Markup and links are carried as the text they are (the client renders text, never
        # HTML, and a stranger's URL is no link).
        attack = '<img src=x onerror=alert(1)> <script>alert(2)</script> https://evil.example'
        assert (await say(anna, text=attack))["type"] == "talk_ack"
        got = await heard(owner, attack)
        assert got["links"] is False
        # The rate limit: five messages in ten seconds, then a refusal (one is said above).
        for i in range(4):
            assert (await say(anna, text=f"quick {i}"))["type"] == "talk_ack"
        assert (await say(anna, text="one too many"))["code"] == "TALK_TOO_FAST"
        # A resent action_id is said once (the owner: anna is at her limit now).
        action = await owner.send("say", text="double", action_id="same-1")
        await owner.send("say", text="double", action_id="same-1")
        answers = [await owner.wait_for(lambda m: m.get("action_id") == action)
                   for _ in range(2)]
        assert [(a["type"], a["duplicate"]) for a in answers] == [("talk_ack", False),
                                                                   ("talk_ack", True)]
        assert await sync_to_async(TalkMessage.objects.filter(text="double").count)() == 1
        client = await sync_to_async(_staff_client)(make_user)
        page = await sync_to_async(client.get)(reverse("admin:games_talkmessage_changelist"))
        assert "<script>alert(2)" not in page.content.decode()
        assert "&lt;script&gt;alert(2)" in page.content.decode()
    finally:
        await close_all(anna, owner)
