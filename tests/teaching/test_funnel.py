"""The newcomers' funnel (issue #28 item 5; games/models/funnel.py): counts of how far new
accounts get — a lesson, a first deal, a first match — and illegal attempts over the first
ten deals, shown to staff in the admin, with nothing personal stored."""

from __future__ import annotations

import json
import secrets
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import services
from games.engine import PLAY, ROUND_OVER, legal_actions
from games.models import FunnelWeek, IllegalByDeal, funnel
from games.teaching import lessons
from games.teaching.lesson_files import lesson
from tests.support import bots as helpers
from tests.support import tables

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("no_worker_threads")]
STRONG = "kitchen-table-1979-Surselva"


def _sign_up(client: Client) -> User:
    name = f"nov{secrets.token_hex(3)}"
    response = client.post(reverse("accounts:signup"), {
        "username": name, "display_name": "Nov", "email": f"{name}@example.org",
        "preferred_language": "en", "password1": STRONG, "password2": STRONG})
    assert response.status_code == 302
    return User.objects.get(username=name)


def _week() -> FunnelWeek:
    return FunnelWeek.objects.get(week=funnel.week_of(timezone.now()))


def _finish_lesson(client: Client, slug: str) -> None:
    found = lesson(slug)
    assert found is not None
    client.get(reverse("games:lesson", args=[slug]))
    for scene in range(len(found.scenes)):
        for move in lessons.solve(found, scene):
            client.post(reverse("games:lesson_move", args=[slug]), json.dumps(move),
                        content_type="application/json")
        if scene + 1 < len(found.scenes):
            client.post(reverse("games:lesson_move", args=[slug]), json.dumps({"type": "next"}),
                        content_type="application/json")


def test_a_sign_up_and_a_first_lesson_are_counted_once(client: Client) -> None:
    cache.clear()
    _sign_up(client)
    assert (_week().signed_up, _week().lesson) == (1, 0)
    _finish_lesson(client, "cards-and-counting")
    _finish_lesson(client, "follow-suit")
    assert _week().lesson == 1
    # Nothing names the account.
    row = FunnelWeek.objects.values().get()
    assert set(row) == {"id", "week", "signed_up", "lesson", "first_deal", "first_match"}


def _illegal_card(code: str, seat: int) -> str | None:
    st = tables.state(code)
    assert st is not None and st.deal is not None
    legal = set(legal_actions(st, seat)["legal_cards"])
    hand = services.table_snapshot(code).view_for(seat)["hand"]
    return next((c for c in hand if c not in legal), None)


def test_a_first_deal_with_its_illegal_attempts(client: Client) -> None:
    cache.clear()
    user = _sign_up(client)
    room = services.create_practice_table(user, "easy")
    code = room.code
    tried = 0
    for _ in range(3000):
        st = tables.state(code)
        assert st is not None
        if st.phase == ROUND_OVER:
            break
        if helpers.bot_to_act(code) is not None:
            assert helpers.wake(code)
            continue
        if st.phase == PLAY and st.deal is not None and st.deal.turn == 0 and tried < 2:
            card = _illegal_card(code, 0)
            if card is not None:
                out = tables.submit(code, user, "play_card", card=card)
                assert not out.ok and out.code in funnel.ILLEGAL_CODES
                tried += 1
        helpers.person_step(code, {0: user})
    assert tables.phase(code) == ROUND_OVER and tried >= 1
    assert _week().first_deal == 1 and _week().first_match == 0
    row = IllegalByDeal.objects.get(deal=1)
    assert (row.deals, row.illegal) == (1, tried)
    # A bot's refusals and an old account's deals are not counted.
    assert not IllegalByDeal.objects.filter(deal=2).exists()


def test_an_old_account_is_not_counted(owner: Any) -> None:
    User.objects.filter(pk=owner.pk).update(date_joined=timezone.now() - timedelta(days=400))
    owner.refresh_from_db()
    room = services.create_practice_table(owner, "easy")
    helpers.play_out(room.code, {0: owner}, until=ROUND_OVER)
    assert not IllegalByDeal.objects.exists() and not FunnelWeek.objects.exists()


def test_staff_see_the_funnel_in_the_admin(client: Client, make_user: Any) -> None:
    FunnelWeek.objects.create(week=funnel.week_of(timezone.now()), signed_up=5, lesson=3,
                              first_deal=2, first_match=1)
    IllegalByDeal.objects.create(deal=1, deals=4, illegal=6)
    staff = make_user("staff", is_staff=True, is_superuser=True)
    client.force_login(staff)
    page = client.get(reverse("admin:games_funnelweek_changelist")).content.decode()
    assert ">5<" in page and ">3<" in page
    page = client.get(reverse("admin:games_illegalbydeal_changelist")).content.decode()
    assert "1.5" in page
    # Read-only: nobody edits a count by hand.
    assert client.get(reverse("admin:games_funnelweek_add")).status_code == 403
