"""Idempotently creates the demo accounts and site content, and prints the credentials.

Run by `make run`: a fresh machine gets a usable site with an admin, four players (two full
teams), an announcement and FAQ in all four languages, and a club (all four players members,
Anna its owner) with a tournament open for registration a week ahead, two players entered. Running
it again resets the demo passwords and leaves everything else as it is (a new demo tournament
only once the last one is no longer taking entries).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any, TypedDict

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.clubs import membership, tournaments
from games.models import (
    Announcement,
    Club,
    FAQEntry,
    Membership,
    Tournament,
    TournamentStatus,
)

ADMIN = ("admin", "troccas-admin", "Admin")
# (username, password, display name, preferred language)
PLAYERS = [
    ("anna", "anna-troccas", "Anna", "rm"),
    ("benedetg", "benedetg-troccas", "Benedetg", "rm"),
    ("curdin", "curdin-troccas", "Curdin", "de"),
    ("deta", "deta-troccas", "Deta", "fr"),
]

class _AnnouncementText(TypedDict):
    key: str
    title: dict[str, str]  # language → text, for each of LANGUAGES
    body: dict[str, str]


class _FAQText(TypedDict):
    order: int
    question: dict[str, str]
    answer: dict[str, str]


ANNOUNCEMENT: _AnnouncementText = {
    "key": "welcome",
    "title": {
        "en": "Welcome to Troccas Online",
        "rm": "Bainvegni tar Troccas Online",
        "de": "Willkommen bei Troccas Online",
        "fr": "Bienvenue sur Troccas Online",
    },
    "body": {
        "en": "Play Troccas live with three friends: open a room, share its invite code and "
        "take your seats.",
        "rm": "Giugai Troccas live cun trais amis: avri ina stanza, partai ses code d'invit e "
        "prendai plaz.",
        "de": "Spielt Troccas live mit drei Freunden: Raum eröffnen, Einladungscode teilen und "
        "Platz nehmen.",
        "fr": "Jouez au Troccas en direct avec trois amis : ouvrez une salle, partagez son code "
        "d'invitation et prenez place.",
    },
}

FAQ: list[_FAQText] = [
    {
        "order": 10,
        "question": {
            "en": "How many players does a game need?",
            "rm": "Quants giugaders dovra in gieu?",
            "de": "Wie viele Spieler braucht ein Spiel?",
            "fr": "Combien de joueurs faut-il pour une partie ?",
        },
        "answer": {
            "en": "Four: two teams of two. Partners sit opposite each other.",
            "rm": "Quatter: duas squadras da dus. Ils partenaris sesan in visavi a l'auter.",
            "de": "Vier: zwei Teams zu zwei. Partner sitzen einander gegenüber.",
            "fr": "Quatre : deux équipes de deux. Les partenaires sont assis face à face.",
        },
    },
    {
        "order": 20,
        "question": {
            "en": "Who deals first?",
            "rm": "Tgi dat l'emprim?",
            "de": "Wer gibt zuerst?",
            "fr": "Qui donne en premier ?",
        },
        "answer": {
            "en": "The room owner. After each deal the next player to the left deals.",
            "rm": "Il possessur da la stanza. Suenter mintga ronda dat il proxim giugader a "
            "sanestra.",
            "de": "Der Raum-Ersteller. Nach jeder Runde gibt der nächste Spieler links.",
            "fr": "Le propriétaire de la salle. Après chaque manche, le joueur suivant à gauche "
            "donne.",
        },
    },
]

LANGUAGES = ("en", "rm", "de", "fr")

# The demo club and its tournament: what a Troccas association keeps on the site (issue #26).
CLUB = {"name": "Troccas Surselva", "region": "Surselva", "language": "rm",
        "description": "Nus giugain Troccas mintga venderdi saira. Bainvegni!"}
TOURNAMENT_NAME = "Turnier da Nadal"
# The players entered in it (the others may still register from its page).
ENTERED = ("anna", "benedetg")


def _translated(field: str, values: dict[str, str]) -> dict[str, str]:
    return {f"{field}_{lang}": values[lang] for lang in LANGUAGES}


class Command(BaseCommand):
    help = "Create (or refresh) the demo admin, four demo players and demo site content."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        accounts = [self._user(*ADMIN, language="en", staff=True)]
        accounts += [self._user(u, p, d, language=lang) for u, p, d, lang in PLAYERS]

        Announcement.objects.update_or_create(
            title_en=ANNOUNCEMENT["title"]["en"],
            defaults={**_translated("title", ANNOUNCEMENT["title"]),
                      **_translated("body", ANNOUNCEMENT["body"]), "published": True},
        )
        for entry in FAQ:
            FAQEntry.objects.update_or_create(
                question_en=entry["question"]["en"],
                defaults={**_translated("question", entry["question"]),
                          **_translated("answer", entry["answer"]),
                          "order": entry["order"], "published": True},
            )

        self._club_and_tournament()

        self.stdout.write("Demo accounts (username / password):")
        for username, password, role in accounts:
            self.stdout.write(f"  {role:<7} {username:<10} {password}")

    def _club_and_tournament(self) -> None:
        """Through the services, as a player would make them: the club, its members, and an
        individual Swiss of three rounds of a four-deal Partie a week from now, at 14:00."""
        players = {u.username: u for u in User.objects.filter(
            username__in=[name for name, *_ in PLAYERS])}
        owner = players[PLAYERS[0][0]]
        club = Club.objects.filter(name=CLUB["name"]).first()
        if club is None:
            club = membership.create_club(owner, CLUB["name"], description=CLUB["description"],
                                          region=CLUB["region"], language=CLUB["language"])
        for user in players.values():
            if not Membership.objects.filter(club=club, user=user).exists():
                membership.join(user, club.pk)
        if Tournament.objects.filter(club=club, name=TOURNAMENT_NAME,
                                     status=TournamentStatus.REGISTRATION,
                                     registration_closes__gt=timezone.now()).exists():
            return
        day = timezone.localtime() + timedelta(days=7)
        starts = day.replace(hour=14, minute=0, second=0, microsecond=0)
        tournament = tournaments.create_tournament(
            owner, club=club, name=TOURNAMENT_NAME, language="rm",
            options={"match_deals": 4}, capacity=32,
            registration_closes=starts - timedelta(minutes=30), starts_at=starts,
            round_minutes=45, stages=[{"format": "swiss", "rounds": 3}])
        for name in ENTERED:
            tournaments.register(players[name], tournament)

    def _user(
        self, username: str, password: str, display: str, *, language: str, staff: bool = False
    ) -> tuple[str, str, str]:
        user, _created = User.objects.get_or_create(username=username)
        user.display_name = display
        user.preferred_language = user.preferred_language or language
        user.email = user.email or f"{username}@example.org"
        user.is_active = True
        user.is_staff = staff
        user.is_superuser = staff
        user.set_password(password)
        user.save()
        return username, password, "admin" if staff else "player"
