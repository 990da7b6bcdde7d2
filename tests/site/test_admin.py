"""Every admin page loads; staff see everything (hands included); the log is read-only."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.models import FAQEntry, Match, MatchStatus, Room, RoundAction

from .factories import full_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(owner, players):
    return full_table(owner, players)


@pytest.fixture
def superuser(make_user):
    return make_user("root", is_staff=True, is_superuser=True)


@pytest.fixture
def admin_client(client: Client, superuser) -> Client:
    client.force_login(superuser)
    return client


def admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


REGISTERED = sorted(admin.site._registry, key=lambda m: m._meta.label)


def test_admin_covers_every_model_of_both_apps():
    from django.apps import apps

    ours = {m for app in ("accounts", "games") for m in apps.get_app_config(app).get_models()}
    assert ours <= set(admin.site._registry), ours - set(admin.site._registry)


def test_admin_index_loads(admin_client: Client):
    assert admin_client.get(reverse("admin:index")).status_code == 200


@pytest.mark.parametrize("model", REGISTERED, ids=lambda m: m._meta.label)
def test_every_changelist_loads_with_data(admin_client: Client, table, model):
    response = admin_client.get(admin_url(model, "changelist"))
    assert response.status_code == 200
    # Search and a filter run real queries, not just the empty page.
    assert admin_client.get(admin_url(model, "changelist"), {"q": "x"}).status_code == 200


@pytest.mark.parametrize("model", REGISTERED, ids=lambda m: m._meta.label)
def test_every_add_page_loads_or_is_refused(admin_client: Client, model):
    response = admin_client.get(admin_url(model, "add"))
    model_admin = admin.site._registry[model]
    request = type("R", (), {"user": User.objects.get(username__startswith="root")})()
    expected = 200 if model_admin.has_add_permission(request) else 403
    assert response.status_code == expected


def test_every_change_page_loads(admin_client: Client, table, superuser):
    objects = [table.room, table.seats[0], table.match, table.round, table.trick, table.debt,
               table.action, superuser]
    for obj in objects:
        response = admin_client.get(admin_url(type(obj), "change", obj.pk))
        assert response.status_code == 200, type(obj)


def test_round_page_shows_every_hand_to_staff(client: Client, table, make_user):
    # Plain staff, no model permissions: may look, to settle a dispute.
    client.force_login(make_user("judge", is_staff=True))
    html = client.get(admin_url(type(table.round), "change", table.round.pk)).content.decode()
    # Every hand as the stored engine state holds it (18 cards each after trick 1).
    hands = table.round.engine_state["deal"]["hands"]
    assert [len(hand) for hand in hands] == [18, 18, 18, 18]
    for seat, hand in enumerate(hands):
        assert f"<th>seat {seat + 1}</th><td>{' '.join(hand)}</td>" in html, seat
    assert client.get(admin_url(Room, "changelist")).status_code == 200
    # Looking is all they may do.
    assert client.get(admin_url(Room, "add")).status_code == 403


def test_non_staff_cannot_open_the_admin(client: Client, table, make_user):
    client.force_login(make_user("nosy"))
    response = client.get(admin_url(type(table.round), "change", table.round.pk))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_action_log_cannot_be_changed_in_the_admin(admin_client: Client, table):
    change = admin_url(RoundAction, "change", table.action.pk)
    html = admin_client.get(change).content.decode()
    assert 'name="_save"' not in html
    assert admin_client.post(change, {"kind": "FORGED"}).status_code == 403
    assert admin_client.get(admin_url(RoundAction, "delete", table.action.pk)).status_code == 403
    table.action.refresh_from_db()
    assert table.action.kind == "play_card" and table.action.payload == {"card": "T21"}


def test_close_rooms_action_closes_and_abandons_the_running_match(admin_client: Client, table):
    response = admin_client.post(
        admin_url(Room, "changelist"),
        {"action": "close_rooms", "_selected_action": [table.room.pk]},
        follow=True,
    )
    assert response.status_code == 200
    table.room.refresh_from_db()
    table.match.refresh_from_db()
    assert table.room.closed is not None
    assert table.match.status == MatchStatus.ABANDONED and table.match.finished is not None


def test_end_matches_action(admin_client: Client, table):
    admin_client.post(
        admin_url(Match, "changelist"),
        {"action": "end_matches", "_selected_action": [table.match.pk]},
    )
    table.match.refresh_from_db()
    assert table.match.status == MatchStatus.ABANDONED
    assert table.match.finished is not None
    assert table.room.closed is None


def test_anonymise_users_action(admin_client: Client, table, players):
    target = players[0]
    admin_client.post(
        admin_url(User, "changelist"),
        {"action": "anonymise_users", "_selected_action": [target.pk]},
    )
    target.refresh_from_db()
    assert target.username == f"deleted-{target.pk}" and not target.is_active
    # The match still points at the (now anonymous) player.
    assert Match.objects.for_user(target).get() == table.match


def test_faq_admin_has_a_tab_per_language(admin_client: Client):
    html = admin_client.get(admin_url(FAQEntry, "add")).content.decode()
    for language in ("en", "rm", "de", "fr"):
        assert f'name="question_{language}"' in html
        assert f'name="answer_{language}"' in html
    assert "tabbed_translation_fields.js" in html


def test_faq_entry_saved_through_the_admin(admin_client: Client):
    response = admin_client.post(admin_url(FAQEntry, "add"), {
        "question_en": "Is it free?", "answer_en": "Yes.",
        "question_rm": "Custa quai?", "answer_rm": "Na.",
        "question_de": "", "answer_de": "", "question_fr": "", "answer_fr": "",
        "order": 1, "published": "on",
    })
    assert response.status_code == 302
    entry = FAQEntry.objects.get()
    assert entry.question_rm == "Custa quai?"


def test_the_deal_admin_lets_staff_edit_engine_state(admin_client: Client, table):
    """Issue #13: a running deal's state, deck, version, phase and deadline were editable in
    the admin. Every game row is read-only there now; staff act through the actions."""
    rnd = table.round
    before = (rnd.engine_state, rnd.deck, rnd.version, rnd.phase, rnd.deadline)
    page = admin_client.get(admin_url(type(rnd), "change", rnd.pk))
    assert page.status_code == 200
    assert 'name="engine_state"' not in page.content.decode()
    assert 'name="version"' not in page.content.decode()
    response = admin_client.post(admin_url(type(rnd), "change", rnd.pk),
                                 {"engine_state": "{}", "version": 99, "phase": "PLAY",
                                  "deck": "[]", "deadline_0": "", "deadline_1": ""})
    assert response.status_code == 403
    rnd.refresh_from_db()
    assert (rnd.engine_state, rnd.deck, rnd.version, rnd.phase, rnd.deadline) == before
