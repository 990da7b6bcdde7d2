"""Bots at the table (issue #15 items 3-5): the owner seats and removes bots through lobby
commands, a person takes a bot's seat back, Play now opens a practice table, a stand-in plays
for an away player only after the grace period and hands the seat back, matches with bots
change no rating, and a bot that fails is replaced by the easy bot's choice (issue #24 item 13).

The bots are woken by the test itself here (tests/support/bots.py), so every step is
deterministic; the workers that wake them in production are tested in test_bots_workers.py.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pytest
from django.contrib.auth import authenticate

from accounts.bots import bot_account
from games import bots, services
from games.bots import easy
from games.engine import DEALING, MATCH_OVER, PLAY, legal_actions
from games.live.protocol import ProtocolError, parse
from games.models import PlayerRating, RatingHistory, RoundAction, Seat
from games.services.bots import budget as bot_budget
from tests import personas
from tests.support import bots as helpers
from tests.support import tables

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout(120),
              pytest.mark.usefixtures("no_worker_threads")]



@pytest.fixture
def by_seat(owner: Any, players: list[Any]) -> dict[int, Any]:
    return personas.by_seat(owner, players)


def _room(owner: Any, options: dict[str, Any] | None = None) -> str:
    return services.create_room(owner, options).code


# --- the accounts -----------------------------------------------------------------------------

def test_a_bot_account_never_logs_in_and_is_named_as_a_bot() -> None:
    bot = bot_account("easy", 0)
    assert bot.is_bot and bot.bot_level == "easy" and not bot.has_usable_password()
    assert bot_account("easy", 0).pk == bot.pk  # made once, on demand
    bot.set_password("a-password-4711")
    bot.save()
    assert authenticate(None, username=bot.username, password="a-password-4711") is None
    assert bot.public_name == "Gion (bot, easy)"
    from django.utils import translation

    for lang, word in (("de", "Bot"), ("fr", "bot"), ("rm", "bot")):
        with translation.override(lang):
            assert word in bot.public_name, (lang, bot.public_name)


# --- seat_bot, remove_bot -----------------------------------------------------------------------

def test_the_owner_seats_and_removes_bots(owner: Any) -> None:
    code = _room(owner)
    v = tables.version(code)
    helpers.seat_bots(code, owner, "strong", (1, 2))
    seats = {s.index: s.user for s in Seat.objects.filter(room__code=code)}
    assert seats[1].is_bot and seats[1].bot_level == "strong" and seats[2].is_bot
    assert tables.version(code) == v + 2
    logged = list(RoundAction.objects.filter(room__code=code, kind="seat_bot")
                  .values_list("payload", flat=True))
    assert logged == [{"index": 1, "level": "strong", "bot": seats[1].pk},
                      {"index": 2, "level": "strong", "bot": seats[2].pk}]
    snap = services.table_snapshot(code)
    shown = {s["index"]: s for s in snap.seats_json()}
    assert shown[1]["player"]["bot"] == "strong" and shown[0]["player"]["bot"] is None
    assert shown[1]["connected"] and shown[1]["away_since"] is None  # a bot is never away
    tables.must(code, owner, "remove_bot", index=1)
    assert not Seat.objects.filter(room__code=code, index=1).exists()


@pytest.mark.parametrize(("who", "fields", "code_"), [
    ("player", {"index": 1, "level": "easy"}, "NOT_ROOM_OWNER"),
    ("owner", {"index": 0, "level": "easy"}, "SEAT_TAKEN"),
    ("owner", {"index": 2, "level": "strong"}, "SEAT_TAKEN"),
    ("owner", {"index": 1, "level": "hard"}, "BOT_LEVEL_UNKNOWN"),
])
def test_seat_bot_refusals_change_nothing(owner: Any, players: list[Any], who: str,
                                          fields: dict[str, Any], code_: str) -> None:
    code = _room(owner)
    tables.must(code, players[0], "take_seat", team="A")  # seat 2
    before = tables.fingerprint(code)
    out = tables.submit(code, owner if who == "owner" else players[0], "seat_bot", **fields)
    assert (out.ok, out.code) == (False, code_)
    assert tables.fingerprint(code) == before


def test_remove_bot_refusals_change_nothing(owner: Any, players: list[Any]) -> None:
    code = _room(owner)
    tables.must(code, players[0], "take_seat", team="B")  # seat 1, a person
    helpers.seat_bots(code, owner, "easy", (2,))
    before = tables.fingerprint(code)
    for user, index, expected in ((players[0], 2, "NOT_ROOM_OWNER"),
                                  (owner, 1, "NO_BOT_IN_SEAT"), (owner, 3, "NO_BOT_IN_SEAT")):
        out = tables.submit(code, user, "remove_bot", index=index)
        assert (out.ok, out.code) == (False, expected)
    assert tables.fingerprint(code) == before


def test_bots_are_seated_and_removed_only_between_matches(owner: Any) -> None:
    code = _room(owner)
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    before = tables.fingerprint(code)
    assert tables.submit(code, owner, "seat_bot", index=3, level="easy").code == \
        "MATCH_IN_PROGRESS"
    assert tables.submit(code, owner, "remove_bot", index=1).code == "MATCH_IN_PROGRESS"
    assert tables.fingerprint(code) == before


def test_the_lobby_commands_parse_with_coded_errors() -> None:
    cmd = parse('{"type": "seat_bot", "index": 2, "level": "easy", "action_id": "a",'
                ' "expected_version": 3}')
    assert (cmd.type, cmd.fields, cmd.is_lobby) == ("seat_bot", {"index": 2, "level": "easy"},
                                                    True)
    assert parse('{"type": "remove_bot", "index": 0, "action_id": "b", "expected_version": 1}'
                 ).fields == {"index": 0}
    for frame, code in (('{"type": "seat_bot", "index": 4, "level": "easy", "action_id": "c",'
                         ' "expected_version": 1}', "INVALID_FIELD"),
                        ('{"type": "remove_bot", "action_id": "d", "expected_version": 1}',
                         "MISSING_FIELD")):
        with pytest.raises(ProtocolError) as err:
            parse(frame)
        assert err.value.code == code


def test_a_person_takes_a_bots_seat_back(owner: Any, players: list[Any]) -> None:
    code = _room(owner)
    helpers.seat_bots(code, owner, "easy", (1, 2, 3))
    bot2 = Seat.objects.get(room__code=code, index=2).user_id
    # Named seat: the bot there leaves, the person sits.
    out = tables.must(code, players[0], "take_seat", team="A", index=2)
    assert out.ok
    seat = Seat.objects.get(room__code=code, index=2)
    assert seat.user_id == players[0].pk
    assert not Seat.objects.filter(room__code=code, user_id=bot2).exists()
    assert RoundAction.objects.filter(room__code=code, kind="take_seat").last().payload == {
        "team": "A", "index": 2, "replaced_bot": bot2}
    # No seat named, the team full of bots: the person takes the first bot's seat.
    tables.must(code, players[1], "take_seat", team="B")
    assert Seat.objects.get(room__code=code, index=1).user_id == players[1].pk
    assert Seat.objects.get(room__code=code, index=3).user.is_bot


# --- Play now ---------------------------------------------------------------------------------

def test_play_now_opens_a_practice_table_with_the_first_deal_started(owner: Any) -> None:
    room = services.create_practice_table(owner, "strong")
    seats = {s.index: s.user for s in Seat.objects.filter(room=room).select_related("user")}
    assert seats[0] == owner
    assert all(seats[i].is_bot and seats[i].bot_level == "strong" for i in (1, 2, 3))
    assert room.visibility == "private"
    assert tables.phase(room.code) == DEALING
    st = tables.state(room.code)
    assert st is not None and st.dealer == 0  # the player deals first
    match = helpers.current_match(room.code)
    assert match.rated is False
    # The lobby commands and the start went through the writer and its log.
    assert list(RoundAction.objects.filter(room=room).order_by("version")
                .values_list("kind", flat=True)) == ["seat_bot"] * 3 + ["start_round"]


def test_play_now_refuses_an_unknown_level(owner: Any) -> None:
    with pytest.raises(services.ServiceError) as err:
        services.create_practice_table(owner, "hard")
    assert err.value.code == "BOT_LEVEL_UNKNOWN"


# --- a whole match, ratings ---------------------------------------------------------------------

def test_three_bots_and_a_person_finish_a_match_that_changes_no_rating(owner: Any) -> None:
    code = _room(owner, {"match_deals": 4})
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner})
    match = helpers.current_match(code)
    assert match.status == "finished" and match.deals_played == 4 and not match.rated
    assert not RatingHistory.objects.filter(match=match).exists()
    assert not PlayerRating.objects.filter(user=owner).exists()
    # Every bot action is in the log under its own account and seat.
    bots_logged = RoundAction.objects.filter(round__match=match, actor__is_bot=True)
    assert bots_logged.filter(kind="play_card").count() == 3 * 19 * 4
    assert set(bots_logged.values_list("actor_seat", flat=True)) == {1, 2, 3}


def test_a_match_of_people_alone_is_still_rated(by_seat: dict[int, Any]) -> None:
    room = tables.seat_table(by_seat[0], [by_seat[1], by_seat[2], by_seat[3]],
                             {"match_deals": 4})
    tables.must(room.code, by_seat[0], "start_round")
    helpers.play_out(room.code, by_seat)
    match = helpers.current_match(room.code)
    assert match.rated and RatingHistory.objects.filter(match=match).count() == 4


# --- stand-in ---------------------------------------------------------------------------------

def _at_play(by_seat: dict[int, Any], grace: int = 60) -> tuple[str, int]:
    room = tables.seat_table(by_seat[0], [by_seat[1], by_seat[2], by_seat[3]],
                             {"stand_in_seconds": grace})
    st = tables.advance(room.code, by_seat, PLAY)
    assert st is not None and st.deal is not None and st.deal.turn is not None
    return room.code, st.deal.turn


def _people_play_until(code: str, by_seat: dict[int, Any], seat: int) -> None:
    """The seats other than `seat` play their first legal card until it is `seat`'s turn."""
    for _ in range(80):
        st = tables.state(code)
        assert st is not None and st.deal is not None and st.phase == PLAY
        turn = st.deal.turn
        assert turn is not None
        if turn == seat:
            return
        tables.must(code, by_seat[turn], "play_card",
                    card=legal_actions(st, turn)["legal_cards"][0])
    raise AssertionError("never the seat's turn")


def _stand_in_plays_a_card(code: str, seat: int) -> Any:
    """Wake the stand-in until its card is down: it may call BUOB first (RULES.md §8)."""
    for _ in range(3):
        assert helpers.wake(code) is True
        row = RoundAction.objects.filter(room__code=code).order_by("-version").first()
        assert row is not None and row.actor_seat == seat
        if row.kind == "play_card":
            return row
    raise AssertionError("the stand-in never played its card")


def test_a_stand_in_plays_only_after_the_grace_period_and_hands_back(
        by_seat: dict[int, Any]) -> None:
    code, seat = _at_play(by_seat, grace=60)
    mario = by_seat[seat]
    # Away 59 s of 60: nobody plays for Mario, and the seat is not marked.
    helpers.away(mario, code, 59)
    before = tables.fingerprint(code)
    assert helpers.bot_to_act(code) is None
    assert helpers.wake(code) is False
    assert tables.fingerprint(code) == before
    shown = {s["index"]: s for s in services.table_snapshot(code).seats_json()}
    assert shown[seat]["away_since"] is not None and shown[seat]["stand_in"] is False
    # Past the grace period: a bot plays one of Mario's legal cards, under its own account.
    helpers.away(mario, code, 61)
    shown = {s["index"]: s for s in services.table_snapshot(code).seats_json()}
    assert shown[seat]["stand_in"] is True
    st = tables.state(code)
    assert st is not None
    legal = legal_actions(st, seat)["legal_cards"]
    row = _stand_in_plays_a_card(code, seat)
    assert row.payload["card"] in legal
    expected = row.payload["card"]
    assert row.actor.is_bot and row.actor != mario
    # Mario is back while the others play on to his next turn: the seat is his at once.
    services.connect(code, mario, f"back-{mario.pk}")
    _people_play_until(code, by_seat, seat)
    assert helpers.bot_to_act(code) is None
    before = tables.fingerprint(code)
    assert helpers.wake(code) is False
    assert tables.fingerprint(code) == before
    # His view is the table as it is now: the card the bot played is gone from his hand.
    view = services.table_snapshot(code).view_for(seat)
    assert expected not in view["hand"] and view["actions"]["play"]
    shown = {s["index"]: s for s in services.table_snapshot(code).seats_json()}
    assert shown[seat]["stand_in"] is False and shown[seat]["connected"]
    # A stand-in's command that arrives after he is back is refused and changes nothing.
    st = tables.state(code)
    assert st is not None
    out = services.submit(code, bot_account("strong", seat),
                          tables.cmd("play_card", tables.version(code),
                                     card=legal_actions(st, seat)["legal_cards"][0]),
                          for_seat=seat)
    assert (out.ok, out.code) == (False, "NOT_STANDING_IN")
    assert tables.fingerprint(code) == before
    # One trick stood in for: the match still counts.
    assert helpers.current_match(code).rated


def test_a_room_with_stand_ins_off_waits_for_its_player(by_seat: dict[int, Any]) -> None:
    code, seat = _at_play(by_seat, grace=0)
    helpers.away(by_seat[seat], code, 3600)
    assert helpers.bot_to_act(code) is None and helpers.wake(code) is False


def test_standing_in_for_more_than_one_trick_makes_the_match_unrated(
        by_seat: dict[int, Any]) -> None:
    code, seat = _at_play(by_seat, grace=30)
    helpers.away(by_seat[seat], code, 31)
    for n in (1, 2):
        _people_play_until(code, by_seat, seat)
        assert helpers.bot_to_act(code) is not None
        _stand_in_plays_a_card(code, seat)
        assert helpers.current_match(code).rated is (n == 1)


def test_the_stand_in_grace_period_is_a_validated_room_option(owner: Any) -> None:
    code = _room(owner)
    before = tables.fingerprint(code)
    for bad in (-1, 601, "60", True):
        out = tables.submit(code, owner, "set_options", options={"stand_in_seconds": bad})
        assert (out.ok, out.code) == (False, "INVALID_OPTIONS"), bad
    assert tables.fingerprint(code) == before
    tables.must(code, owner, "set_options", options={"stand_in_seconds": 5})
    assert services.table_snapshot(code).room["options"]["stand_in_seconds"] == 5


# --- a bot that fails ---------------------------------------------------------------------------

def _bot_on_turn(owner: Any) -> str:
    """A table where the bot of seat 1 leads the first trick."""
    code = _room(owner)
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner}, until=PLAY)
    return code


def _lowest_for(code: str, seat: int) -> str:
    st = tables.state(code)
    assert st is not None
    return bots.fallback({"seat": seat, "actions": legal_actions(st, seat)})["card"]


def _last_card(code: str) -> str:
    """The card of the table's last card action: played, or offered with a BUOB call that was
    refused in public for where the jack lay (RULES §8: the table records the refused action,
    the card stays in the hand and the bot decides again)."""
    row = RoundAction.objects.filter(room__code=code).order_by("-version").first()
    if row.kind == "buob_refused":
        assert row.payload["action"]["type"] == "play_card"
        return row.payload["action"]["card"]
    assert row.kind == "play_card"
    return row.payload["card"]


def _spy_stand_in(monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict[str, Any], Any]]:
    """Record what the easy bot chose for a failed decision: (its action, its inputs)."""
    chosen: list[tuple[dict[str, Any], Any]] = []
    real = bots.stand_in

    def spy(view: dict[str, Any], events: Any, *, seed: int) -> dict[str, Any]:
        action = real(view, events, seed=seed)
        chosen.append((action, (view, list(events), seed)))
        return action

    monkeypatch.setattr(bots, "stand_in", spy)
    return chosen


def _is_easy_choice(chosen: tuple[dict[str, Any], Any]) -> bool:
    action, (view, events, seed) = chosen
    return action == easy.decide(view, events, seed)


def test_a_bot_that_raises_is_replaced_by_the_easy_bots_choice_and_logged(
        owner: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    code = _bot_on_turn(owner)
    turn = helpers.bot_to_act(code)
    assert turn is not None and turn.seat == 1
    hand = services.table_snapshot(code).view_for(1)["hand"]

    def broken(view: dict[str, Any], events: Any, **_: Any) -> dict[str, Any]:
        raise KeyError(view["hand"][0])  # a message that names a hidden card

    monkeypatch.setattr(bots, "decide", broken)
    chosen = _spy_stand_in(monkeypatch)
    before = bot_budget.governor.figures()["fallbacks"]
    with caplog.at_level(logging.ERROR, logger="games.services.bots.turns"):
        assert helpers.wake(code)
    assert len(chosen) == 1 and _is_easy_choice(chosen[0])
    assert _last_card(code) == chosen[0][0]["card"]
    assert bot_budget.governor.figures()["fallbacks"] == before + 1
    text = caplog.text
    assert "KeyError" in text and "easy bot's choice" in text
    assert not any(card in text.split() or f"'{card}'" in text for card in hand), text


def test_a_strong_bot_out_of_time_plays_the_easy_bots_choice_not_the_lowest_card(
        owner: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        settings: Any) -> None:
    code = _bot_on_turn(owner)
    settings.TROCCAS_BOT_BUDGET_MS = 5

    def slow(view: dict[str, Any], events: Any, **_: Any) -> dict[str, Any]:
        time.sleep(0.3)
        return {"type": "play_card", "seat": view["seat"], "card": view["legal_cards"][-1]}

    monkeypatch.setattr(bots, "decide", slow)
    chosen = _spy_stand_in(monkeypatch)
    before = bot_budget.governor.figures()["fallbacks"]
    with caplog.at_level(logging.WARNING, logger="games.services.bots.turns"):
        assert helpers.wake(code)
    assert len(chosen) == 1 and _is_easy_choice(chosen[0])
    assert _last_card(code) == chosen[0][0]["card"] and "budget" in caplog.text
    assert bot_budget.governor.figures()["fallbacks"] == before + 1

    def illegal(view: dict[str, Any], events: Any, **_: Any) -> dict[str, Any]:
        held = [c for c in view["hand"] if c not in view["legal_cards"]]
        return {"type": "play_card", "seat": view["seat"], "card": (held or ["NARR"])[0]}

    settings.TROCCAS_BOT_BUDGET_MS = 200
    monkeypatch.setattr(bots, "decide", illegal)
    turn = helpers.bot_to_act(code)
    assert turn is not None
    caplog.clear()
    chosen.clear()
    with caplog.at_level(logging.ERROR, logger="games.services.bots.turns"):
        assert helpers.wake(code)
    assert len(chosen) == 1 and _is_easy_choice(chosen[0])
    assert _last_card(code) == chosen[0][0]["card"] and "does not offer" in caplog.text


def test_when_the_easy_bot_fails_too_the_lowest_value_card_is_played(
        owner: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _bot_on_turn(owner)

    def broken(view: dict[str, Any], events: Any, **_: Any) -> dict[str, Any]:
        raise RuntimeError("no decision")

    monkeypatch.setattr(bots, "decide", broken)
    monkeypatch.setattr(bots, "stand_in", broken)
    expected = _lowest_for(code, 1)
    assert helpers.wake(code)
    assert _last_card(code) == expected


def test_the_bot_sees_its_seat_alone_and_a_seed_from_the_deal(
        owner: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    code = _bot_on_turn(owner)
    seen: list[tuple[dict[str, Any], list[dict[str, Any]], int]] = []

    def spy(view: dict[str, Any], events: Any, *, level: str, seed: int,
            budget_ms: float) -> dict[str, Any]:
        seen.append((view, list(events), seed))
        return bots.fallback(view)

    monkeypatch.setattr(bots, "decide", spy)
    rnd = tables.current_round(code)
    number = rnd.actions_logged
    assert helpers.wake(code)
    view, events, seed = seen[0]
    # The engine's own projection for that seat, nothing more.
    st = tables.state(code)
    assert st is not None
    assert view["seat"] == 1 and view["hand"] and set(view) == set(
        services.table_snapshot(code).view_for(1)) - {"room", "seats", "match", "deadline",
                                                      "deadline_kind"}
    from games.services.bots.turns import seed_of

    assert seed == seed_of(helpers.current_match(code).pk, rnd.number, number)
    # The seat's events: its own deal passes hold its cards, nobody else's.
    own = set(view["hand"])
    others = set()
    for e in events:
        if e.get("type") == "cards_dealt" and e.get("seat") not in (None, 1):
            others.update(e.get("cards") or [])
    assert not others, "another seat's dealt cards reached the bot"
    assert events and own


def test_a_finished_match_leaves_bots_nothing_to_do(owner: Any) -> None:
    code = _room(owner, {"match_deals": 4})
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner})
    assert tables.phase(code) == MATCH_OVER
    assert helpers.bot_to_act(code) is None and helpers.wake(code) is False


# --- pages ------------------------------------------------------------------------------------

def test_play_now_is_one_csrf_protected_post_from_the_home_page(owner: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    c = Client(enforce_csrf_checks=True)
    c.force_login(owner)
    home = c.get(reverse("games:home"))
    assert b"data-play-now" in home.content and b'value="strong"' in home.content
    url = reverse("games:play_now")
    assert c.get(url).status_code == 405
    assert c.post(url, {"level": "easy"}).status_code == 403  # no CSRF token
    token = c.cookies["csrftoken"].value
    refused = c.post(url, {"level": "hard", "csrfmiddlewaretoken": token})
    assert refused.status_code == 302 and refused.url == reverse("games:home")
    assert not Seat.objects.filter(user__is_bot=True).exists()
    out = c.post(url, {"level": "easy", "csrfmiddlewaretoken": token})
    assert out.status_code == 302
    seat = Seat.objects.get(user=owner)
    assert out.url == seat.room.get_absolute_url()
    assert tables.phase(seat.room.code) == DEALING
    page = c.get(out.url)
    assert page.status_code == 200


def test_history_and_standings_label_bots_and_unrated_matches(owner: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    code = _room(owner, {"match_deals": 4})
    helpers.seat_bots(code, owner, "easy")
    tables.must(code, owner, "start_round")
    helpers.play_out(code, {0: owner})
    match = helpers.current_match(code)
    c = Client()
    c.force_login(owner)
    detail = c.get(reverse("games:match", args=[match.pk])).content.decode()
    assert "data-unrated" in detail and "not rated: a bot played" in detail
    assert "(bot, easy)" in detail
    listing = c.get(reverse("games:matches")).content.decode()
    assert "data-unrated" in listing and "(bot, easy)" in listing
    assert "data-unrated-note" in c.get(reverse("games:standings")).content.decode()
    replay = c.get(reverse("games:match_replay", args=[match.pk])).json()
    assert "(bot, easy)" in str(replay)


def test_a_player_leaving_mid_match_wakes_the_table_when_the_grace_period_ends(
        by_seat: dict[int, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import timedelta

    from games.models import Connection
    from games.services.bots import wakeups as bot_wakeups

    code, seat = _at_play(by_seat, grace=45)
    mario = by_seat[seat]
    services.connect(code, mario, "mario-tab")
    woken: list[tuple[int, int, Any]] = []
    monkeypatch.setattr(bot_wakeups, "schedule", lambda r, v, when=None: woken.append((r, v, when)))
    services.disconnect(code, "mario-tab")
    closed = Connection.objects.get(user=mario, closed_at__isnull=False).closed_at
    assert woken == [(tables.current_round(code).pk, tables.version(code),
                      closed + timedelta(seconds=45))]


def test_the_admin_lists_bots_and_unrated_matches(owner: Any, make_user: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    room = services.create_practice_table(owner, "easy")
    c = Client()
    c.force_login(make_user("root", is_staff=True, is_superuser=True))
    users = c.get(reverse("admin:accounts_user_changelist") + "?is_bot__exact=1")
    assert users.status_code == 200
    text = users.content.decode()
    assert "bot-easy-2" in text and owner.username not in text
    match = helpers.current_match(room.code)
    change = reverse("admin:games_match_change", args=[match.pk])
    url = reverse("admin:games_match_changelist")
    assert change in c.get(url + "?rated__exact=0").content.decode()
    assert change not in c.get(url + "?rated__exact=1").content.decode()
