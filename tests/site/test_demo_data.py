"""`manage.py demo_data`: idempotent, and the printed credentials work."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from accounts.models import User
from games.management.commands.demo_data import (
    ADMIN,
    CLUB,
    ENTERED,
    PLAYERS,
    TOURNAMENT_NAME,
)
from games.models import Announcement, Club, Entrant, FAQEntry, Membership, Tournament

pytestmark = pytest.mark.django_db


def run() -> str:
    out = StringIO()
    call_command("demo_data", stdout=out)
    return out.getvalue()


def test_demo_data_is_idempotent_and_prints_working_credentials():
    first = run()
    second = run()
    assert User.objects.count() == 1 + len(PLAYERS)
    assert Announcement.objects.count() == 1
    assert FAQEntry.objects.count() == 2
    for username, password, *_ in [ADMIN, *PLAYERS]:
        assert f"{username}" in first and password in second
        assert authenticate(username=username, password=password) is not None
    admin = User.objects.get(username=ADMIN[0])
    assert admin.is_superuser and admin.is_staff
    assert not User.objects.get(username="anna").is_staff


def test_demo_content_exists_in_all_four_languages():
    run()
    announcement = Announcement.objects.get()
    faq = FAQEntry.objects.order_by("order").first()
    for language in ("en", "rm", "de", "fr"):
        assert getattr(announcement, f"title_{language}")
        assert getattr(announcement, f"body_{language}")
        assert getattr(faq, f"question_{language}")
        assert getattr(faq, f"answer_{language}")


def test_a_club_and_its_tournament_open_for_entries():
    """A newcomer on `make run` finds a club to look at and a tournament to enter; run twice,
    there is still one of each (issue #26)."""
    run()
    run()
    club = Club.objects.get(name=CLUB["name"])
    members = set(Membership.objects.filter(club=club).values_list("user__username", flat=True))
    assert members == {name for name, *_ in PLAYERS}
    tournament = Tournament.objects.get(club=club, name=TOURNAMENT_NAME)
    assert tournament.director.username == PLAYERS[0][0]
    entered = set(Entrant.objects.filter(tournament=tournament).values_list(
        "player__username", flat=True))
    assert entered == set(ENTERED)
    from games.clubs import tournaments
    assert tournaments.registration_open(tournament)
