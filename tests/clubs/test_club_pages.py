"""The club pages (issue #26 item 1): the list with its search, the new club form, a club's
page in all four languages, the buttons that change a membership (each a POST that needs the
CSRF token), presence for members only and never across a block, and the admin's view."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import services
from games.clubs import club_tables, membership
from games.models import Club, ClubInvite, Membership, Role
from games.talk import blocks

pytestmark = pytest.mark.django_db
LANGUAGES = ("en", "rm", "de", "fr")
# The club's sentences, one per language: the page is translated, not just its labels.
NEW_TABLE = {"en": "New club table", "rm": "Nova maisa dal club", "de": "Neuer Clubtisch",
             "fr": "Nouvelle table du club"}
LEAVE = {"en": "Leave the club", "rm": "Bandunar il club", "de": "Club verlassen",
         "fr": "Quitter le club"}


def signed_in(user: Any, *, strict: bool = False) -> Client:
    web = Client(enforce_csrf_checks=strict)
    web.force_login(user)
    return web


def url(name: str, language: str = "en", **kwargs: Any) -> str:
    with translation.override(language):
        return reverse(name, kwargs=kwargs or None)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_render_in_every_language(players: list[Any], language: str) -> None:
    anna, benedetg, _ = players
    club = membership.create_club(anna, "Ligia Grischa", language="rm", region="Surselva",
                                  description="See https://example.org <b>now</b>")
    membership.join(benedetg, club.pk)
    web = signed_in(anna)
    listing = web.get(url("games:clubs", language)).content.decode()
    assert f'lang="{language}"' in listing and "Ligia Grischa" in listing
    assert url("games:clubs", language).startswith(f"/{language}/clubs/")
    assert web.get(url("games:create_club", language)).status_code == 200
    page = web.get(url("games:club", language, pk=club.pk)).content.decode()
    assert NEW_TABLE[language] in page
    assert benedetg.public_name in page
    # Plain text: the markup is shown escaped and the address is no link.
    assert "&lt;b&gt;now&lt;/b&gt;" in page and 'href="https://example.org' not in page
    member = signed_in(benedetg).get(url("games:club", language, pk=club.pk)).content.decode()
    assert LEAVE[language] in member


def test_creating_a_club_from_the_form(players: list[Any]) -> None:
    anna = players[0]
    web = signed_in(anna)
    page = web.post(url("games:create_club"), {
        "name": "Troccas Mustér", "description": "Mintgin gievgia", "region": "Surselva",
        "language": "rm", "admission": "request"}, follow=True)
    club = Club.objects.get(name="Troccas Mustér")
    assert page.redirect_chain[-1][0] == club.get_absolute_url()
    assert membership.member_role(club, anna) == Role.OWNER and club.admission == "request"
    again = web.post(url("games:create_club"), {"name": "troccas MUSTÉR", "language": "rm",
                                                "admission": "open"}).content.decode()
    assert "already exists" in again and Club.objects.count() == 1
    bad = web.post(url("games:create_club"), {"name": "Bad\u202ename", "language": "rm",
                                              "admission": "open"})
    assert bad.status_code == 200 and Club.objects.count() == 1
    # The list finds it by name or region, any case.
    found = Client().get(url("games:clubs"), {"q": "surSELVA"}).content.decode()
    assert "Troccas Mustér" in found
    assert "Troccas Mustér" not in Client().get(url("games:clubs"), {"q": "Engiadina"}
                                                ).content.decode()


def test_every_post_needs_the_csrf_token(players: list[Any]) -> None:
    anna, benedetg, curdin = players
    club = membership.create_club(anna, "Ligia", language="de")
    membership.join(curdin, club.pk)
    strict = signed_in(benedetg, strict=True)
    owner = signed_in(anna, strict=True)
    assert strict.post(url("games:club_join", pk=club.pk)).status_code == 403
    assert strict.post(url("games:create_club"), {"name": "X", "language": "de",
                                                  "admission": "open"}).status_code == 403
    for name in ("club_remove", "club_hand_over", "club_role", "club_new_table"):
        assert owner.post(url(f"games:{name}", pk=club.pk),
                          {"user": curdin.pk, "role": "director"}).status_code == 403
    assert membership.member_role(club, benedetg) is None
    assert membership.member_role(club, curdin) == Role.MEMBER
    assert Club.objects.count() == 1 and not club_tables.open_tables(club).exists()


def test_the_buttons_join_ask_accept_manage_and_leave(players: list[Any]) -> None:
    anna, benedetg, curdin = players
    club = membership.create_club(anna, "Ligia", language="en", admission="request")
    web = signed_in(benedetg)
    page = web.get(url("games:club", pk=club.pk)).content.decode()
    assert "data-club-ask" in page and "data-club-join" not in page
    assert "data-club-new-table" not in page  # tables are the members'
    page = web.post(url("games:club_join", pk=club.pk), follow=True).content.decode()
    assert "accepts members by request" in page  # the refusal's sentence
    page = web.post(url("games:club_ask", pk=club.pk), follow=True).content.decode()
    assert "has been sent to the club" in page
    owner = signed_in(anna)
    desk = owner.get(url("games:club", pk=club.pk)).content.decode()
    assert f'data-club-request="{benedetg.pk}"' in desk
    owner.post(url("games:club_accept", pk=club.pk), {"user": benedetg.pk})
    assert membership.member_role(club, benedetg) == Role.MEMBER
    owner.post(url("games:club_role", pk=club.pk), {"user": benedetg.pk, "role": "director"})
    assert membership.member_role(club, benedetg) == Role.DIRECTOR
    # A director cannot remove the owner: the refusal is shown and nothing changes.
    page = web.post(url("games:club_remove", pk=club.pk), {"user": anna.pk},
                    follow=True).content.decode()
    assert "cannot be removed" in page and membership.member_role(club, anna) == Role.OWNER
    page = web.post(url("games:club_new_table", pk=club.pk), follow=True)
    room = club_tables.open_tables(club).get()
    assert page.redirect_chain[-1][0] == room.get_absolute_url()
    assert f'data-club-table="{room.code}"' in owner.get(
        url("games:club", pk=club.pk)).content.decode()
    page = owner.post(url("games:club_leave", pk=club.pk), follow=True).content.decode()
    assert "hand it over" in page
    owner.post(url("games:club_hand_over", pk=club.pk), {"user": benedetg.pk})
    assert membership.member_role(club, benedetg) == Role.OWNER
    owner.post(url("games:club_leave", pk=club.pk))
    assert not Membership.objects.filter(club=club, user=anna).exists()
    # An outsider reads the club's page but no table and no presence.
    page = signed_in(curdin).get(url("games:club", pk=club.pk)).content.decode()
    assert "data-club-table" not in page and "presence-dot" not in page


def test_presence_for_members_only_and_never_across_a_block(players: list[Any],
                                                            outsider: Any) -> None:
    anna, benedetg, curdin = players
    club = membership.create_club(anna, "Ligia", language="fr")
    for person in (benedetg, curdin):
        membership.join(person, club.pk)
    room = services.create_room(curdin)
    services.connect(room.code, curdin, "tab-curdin")

    def online_on(client: Client) -> bool:
        page = client.get(url("games:club", pk=club.pk)).content.decode()
        start = page.index(f'data-member="{curdin.pk}"')
        return "data-online" in page[start:page.index("</li>", start)]

    assert online_on(signed_in(anna)) is True
    assert online_on(signed_in(outsider)) is False  # not a member
    assert online_on(Client()) is False
    blocks.block(curdin, benedetg.pk)
    assert online_on(signed_in(benedetg)) is False  # a block hides it either way
    blocks.unblock(curdin, benedetg.pk)
    blocks.block(benedetg, curdin.pk)
    assert online_on(signed_in(benedetg)) is False


def test_the_invitation_is_a_notification_with_the_clubs_link(players: list[Any]) -> None:
    from games.talk import friends
    anna, benedetg, _ = players
    club = membership.create_club(anna, "Ligia", language="en", admission="request")
    friends.send_request(anna, benedetg.pk)
    friends.accept(benedetg, anna.pk)
    page = signed_in(anna).post(url("games:club_invite", pk=club.pk), {"user": benedetg.pk},
                                follow=True).content.decode()
    assert "Your invitation has been sent." in page
    guest = signed_in(benedetg)
    listed = guest.get(url("games:notifications")).content.decode()
    assert "invites you to join the club Ligia" in listed
    assert f'href="{club.get_absolute_url()}"' in listed
    guest.post(url("games:club_accept_invitation", pk=club.pk))
    assert membership.member_role(club, benedetg) == Role.MEMBER
    assert not ClubInvite.objects.exists()


def test_clubs_are_in_the_admin_read_only(players: list[Any], make_user: Any) -> None:
    anna = players[0]
    club = membership.create_club(anna, "Ligia", language="en")
    staff = make_user("staff", is_staff=True, is_superuser=True)
    web = signed_in(staff)
    assert "Ligia" in web.get(reverse("admin:games_club_changelist")).content.decode()
    assert web.get(reverse("admin:games_club_change", args=[club.pk])).status_code == 200
    assert web.get(reverse("admin:games_membership_changelist")).status_code == 200
    assert web.get(reverse("admin:games_club_add")).status_code == 403
