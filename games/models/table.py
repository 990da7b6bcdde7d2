"""What a table is made of in the database: rooms, seats, matches, deals ("rounds"), tricks,
Narr debts, the append-only action log and the open sockets.

Only games/services/ writes game rows (ARCHITECTURE.md convention 9); the constraints below
are the database's own guarantee of the invariants the services keep, so a bug or a race ends
in an IntegrityError instead of a corrupt table.
"""

from __future__ import annotations

import secrets
import uuid
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.db.models.expressions import Combinable

    from accounts.models import User

# No 0/o/1/l/i: an invite code is read aloud and typed by hand. 10 characters of 31 symbols
# are about 49 bits, far beyond guessing through a rate-limited join.
INVITE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
INVITE_LENGTH = 10


def new_invite_code() -> str:
    return "".join(secrets.choice(INVITE_ALPHABET) for _ in range(INVITE_LENGTH))


class Team(models.TextChoices):
    A = "A", _("Team A")
    B = "B", _("Team B")


SEAT_RANGE = Q(index__gte=0, index__lte=3)


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public")
    PRIVATE = "private", _("Private (invite code only)")


class RoomQuerySet(models.QuerySet["Room"]):
    def open(self) -> RoomQuerySet:
        return self.filter(closed__isnull=True)

    def listed(self) -> RoomQuerySet:
        """Rooms shown on the home page: public, still open, and no club's table."""
        return self.open().filter(visibility=Visibility.PUBLIC, club__isnull=True)


class Room(models.Model):
    code = models.CharField(
        _("invite code"), max_length=16, unique=True, default=new_invite_code, editable=False
    )
    name = models.CharField(_("name"), max_length=60, blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("room owner"),
        on_delete=models.PROTECT,
        related_name="owned_rooms",
    )
    visibility = models.CharField(
        _("visibility"),
        max_length=8,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        db_index=True,
    )
    allow_spectators = models.BooleanField(_("allow spectators"), default=True)
    # Validated and completed by the services (the engine's Options); the models do not
    # import the engine (pyproject.toml's import contracts).
    options = models.JSONField(_("house rules"), default=dict)
    created = models.DateTimeField(_("created"), default=timezone.now, db_index=True)
    closed = models.DateTimeField(_("closed"), null=True, blank=True, db_index=True)
    # The table version: bumped by every accepted action (lobby or game). Clients send it
    # back as expected_version; every message they receive carries it (ARCHITECTURE.md §5).
    version = models.PositiveIntegerField(_("version"), default=0)
    # The match the table shows: running, or finished and still on the match-over screen
    # until the owner starts a new one (NEW_MATCH). Empty while the room is a lobby.
    current_match = models.ForeignKey(
        "Match",
        verbose_name=_("current match"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # A club table (issue #26 item 1): only the club's members may see it listed, open its
    # socket or sit down (games/services/presence.py may_watch, lobby.py check_take_seat).
    club = models.ForeignKey(
        "Club",
        verbose_name=_("club"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rooms",
    )

    objects = RoomQuerySet.as_manager()

    class Meta:
        verbose_name = _("room")
        verbose_name_plural = _("rooms")
        ordering = ["-created"]

    def __str__(self) -> str:
        # Never the invite code: it is the key to a private room, and this string appears on
        # pages (match titles, history) that non-members may read.
        return self.name or f"#{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:room", kwargs={"code": self.code})

    @property
    def is_open(self) -> bool:
        return self.closed is None



class Seat(models.Model):
    """A player in a room. index is the engine seat 0–3, set when a match starts (RULES §3
    A-B-A-B normalisation) and null while the room is a lobby."""

    room = models.ForeignKey(
        Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="seats"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="seats",
    )
    team = models.CharField(_("team"), max_length=1, choices=Team.choices)
    index = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    joined = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["room", "index", "joined"]
        constraints = [
            models.UniqueConstraint(fields=["room", "user"], name="seat_unique_user_per_room"),
            models.UniqueConstraint(
                fields=["room", "index"],
                condition=Q(index__isnull=False),
                name="seat_unique_index_per_room",
            ),
            models.CheckConstraint(
                condition=Q(index__isnull=True) | SEAT_RANGE, name="seat_index_0_to_3"
            ),
            models.CheckConstraint(condition=Q(team__in=["A", "B"]), name="seat_team_a_or_b"),
        ]

    def __str__(self) -> str:
        return f"{self.room} · {self.user} ({self.team})"


class MatchStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")


class Winner(models.TextChoices):
    NONE = "", _("None yet")
    A = "A", _("Team A")
    B = "B", _("Team B")
    DRAW = "draw", _("Draw")


class MatchQuerySet(models.QuerySet["Match"]):
    def for_user(self, user: Any) -> MatchQuerySet:
        return self.filter(
            Q(player_0=user) | Q(player_1=user) | Q(player_2=user) | Q(player_3=user)
        )

    def running(self) -> MatchQuerySet:
        return self.filter(status=MatchStatus.RUNNING)


def _player(index: int) -> models.ForeignKey[User | Combinable, User]:
    # Who sat at engine seat <index> for the whole match (seats are fixed for a match, RULES
    # §3). Kept on the match rather than read from Seat so the room can be re-seated later
    # without rewriting history.
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=format_lazy(_("player in seat {index}"), index=index),
        on_delete=models.PROTECT,
        related_name="+",
    )


class Match(models.Model):
    room = models.ForeignKey(
        Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="matches"
    )
    number = models.PositiveIntegerField(_("number"))
    status = models.CharField(
        _("status"),
        max_length=10,
        choices=MatchStatus.choices,
        default=MatchStatus.RUNNING,
        db_index=True,
    )
    player_0 = _player(0)
    player_1 = _player(1)
    player_2 = _player(2)
    player_3 = _player(3)
    options = models.JSONField(
        _("house rules"),
        default=dict,
        help_text=_("The room's options when the match started; they hold for the whole match."),
    )
    total_a = models.IntegerField(_("total Team A"), default=0)
    total_b = models.IntegerField(_("total Team B"), default=0)
    deals_played = models.PositiveIntegerField(_("deals played"), default=0)
    bock_pending = models.PositiveSmallIntegerField(_("Bock deals pending"), default=0)
    winner = models.CharField(
        _("winner"), max_length=4, choices=Winner.choices, default=Winner.NONE, blank=True
    )
    started = models.DateTimeField(_("started"), default=timezone.now, db_index=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)
    # False once a bot played a seat (seated from the start, or standing in for a player for
    # more than one trick): such a match changes no rating (games/history/standings.py).
    rated = models.BooleanField(
        _("rated"), default=True,
        help_text=_("Whether the match counts for the ratings: not when a bot played in it."),
    )
    # The person who gave the match up (the RESIGN command): it ended then, won by the other
    # team, and counts as not finished by them (games/history/reliability.py).
    resigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("resigned by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )

    # A practice table (only bots besides one person) waits while its person is away: set
    # when their last socket at the room closed, cleared when they come back (issue #24 item
    # 2). Bots, stand-ins and timers leave a paused match alone.
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    # In a `silent` or `phrases` room the names the seats show are fixed when the match starts
    # (issue #25 item 9): a rename must not carry words to a table that may not talk.
    # {"0": "name", ...} by seat; empty: the live names.
    seat_names = models.JSONField(_("names at the start"), default=dict, blank=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-started"]
        # History filters (issue #7): result and date range.
        indexes = [
            models.Index(fields=["winner"], name="match_winner_idx"),
            models.Index(fields=["finished"], name="match_finished_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["room"],
                condition=Q(status="running"),
                name="match_one_running_per_room",
            ),
            models.UniqueConstraint(fields=["room", "number"], name="match_unique_number"),
            # A running match has no end time and no winner; an ended one has an end time.
            models.CheckConstraint(
                condition=(Q(status="running", finished__isnull=True, winner=""))
                | (Q(finished__isnull=False) & ~Q(status="running")),
                name="match_finished_iff_not_running",
            ),
            models.CheckConstraint(
                condition=Q(winner__in=["", "A", "B", "draw"]), name="match_winner_valid"
            ),
        ]

    def __str__(self) -> str:
        return _("%(room)s, match %(number)d") % {"room": self.room, "number": self.number}

    @property
    def players(self) -> list[Any]:
        return [self.player_0, self.player_1, self.player_2, self.player_3]


class Phase(models.TextChoices):
    # RULES.md §4.
    LOBBY = "LOBBY", _("Lobby")
    DEALING = "DEALING", _("Dealing")
    REVEAL = "REVEAL", _("Reveal window")
    SCART = "SCART", _("Scart")
    PLAY = "PLAY", _("Trick play")
    ROUND_OVER = "ROUND_OVER", _("Deal over")
    MATCH_OVER = "MATCH_OVER", _("Match over")


class DeadlineKind(models.TextChoices):
    NONE = "", _("None")
    REVEAL = "reveal", _("Reveal window")
    TURN = "turn", _("Turn timer")


class Round(models.Model):
    """One deal (the rules page's "round"): the engine state is the source of truth, the other
    columns are what queries, timers and the admin need without parsing it."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveIntegerField(_("number"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))
    deck = models.JSONField(_("deck order"), help_text=_("The 78 card ids as shuffled."))
    engine_state = models.JSONField(_("engine state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    # The number of log rows of this deal, kept with the row the writer updates anyway, so the
    # next action's sequence needs no MAX() query.
    actions_logged = models.PositiveIntegerField(_("actions logged"), default=0, editable=False)
    phase = models.CharField(
        _("phase"), max_length=12, choices=Phase.choices, default=Phase.DEALING, db_index=True
    )
    deadline = models.DateTimeField(_("timer deadline"), null=True, blank=True, db_index=True)
    deadline_kind = models.CharField(
        _("timer"), max_length=8, choices=DeadlineKind.choices, default="", blank=True
    )
    # When the deal's armed wake-up comes (games/services/wakeups.py). A command whose deadline
    # is this or later arms none: that wake-up comes early, and re-arms itself for the deadline
    # then standing. One wake-up per deal at a time, not one per card played.
    wakeup_at = models.DateTimeField(_("wake-up armed for"), null=True, blank=True,
                                     editable=False)
    is_bock = models.BooleanField(_("Bock deal"), default=False)
    points_a = models.PositiveSmallIntegerField(_("points Team A"), null=True, blank=True)
    points_b = models.PositiveSmallIntegerField(_("points Team B"), null=True, blank=True)
    started = models.DateTimeField(_("started"), default=timezone.now)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_unique_number"),
            models.CheckConstraint(condition=Q(dealer__gte=0, dealer__lte=3),
                                   name="round_dealer_0_to_3"),
            # A deadline always says which timer it is, and no timer is without a deadline.
            models.CheckConstraint(
                condition=Q(deadline__isnull=True, deadline_kind="")
                | Q(deadline__isnull=False, deadline_kind__in=["reveal", "turn"]),
                name="round_deadline_has_kind",
            ),
            # RULES §10: a scored deal's points always add up to 72.
            models.CheckConstraint(
                condition=Q(points_a__isnull=True, points_b__isnull=True)
                | Q(points_a__isnull=False, points_b__isnull=False,
                    points_a=72 - models.F("points_b")),
                name="round_points_add_up_to_72",
            ),
        ]

    def __str__(self) -> str:
        return _("%(match)s, deal %(number)d") % {"match": self.match, "number": self.number}


class Trick(models.Model):
    round = models.ForeignKey(
        Round, verbose_name=_("deal"), on_delete=models.CASCADE, related_name="tricks"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    leader = models.PositiveSmallIntegerField(_("leader"))
    cards = models.JSONField(
        _("cards in order"),
        default=list,
        help_text=_('Play order as [{"seat": 0, "card": "C7"}, ...].'),
    )
    winner = models.PositiveSmallIntegerField(_("trick winner"), null=True, blank=True)
    buob_call = models.JSONField(
        _("BUOB call"),
        null=True,
        blank=True,
        help_text=_("Caller, suit, target and mode of a BUOB call in this trick, if any."),
    )
    completed = models.DateTimeField(_("completed"), null=True, blank=True)

    class Meta:
        verbose_name = _("trick")
        verbose_name_plural = _("tricks")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="trick_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=19),
                                   name="trick_number_1_to_19"),
            models.CheckConstraint(condition=Q(leader__gte=0, leader__lte=3),
                                   name="trick_leader_0_to_3"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner__gte=0, winner__lte=3),
                name="trick_winner_0_to_3",
            ),
        ]

    def __str__(self) -> str:
        return _("trick %(number)d") % {"number": self.number}


class DebtStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    SETTLED = "settled", _("Settled")


class NarrDebt(models.Model):
    """RULES.md §9: the team that lost a trick with its Narr owes the winners one card."""

    round = models.ForeignKey(
        Round, verbose_name=_("deal"), on_delete=models.CASCADE, related_name="narr_debts"
    )
    debtor = models.CharField(_("debtor team"), max_length=1, choices=Team.choices)
    creditor = models.CharField(_("creditor team"), max_length=1, choices=Team.choices)
    trick = models.ForeignKey(
        Trick,
        verbose_name=_("trick"),
        on_delete=models.CASCADE,
        related_name="narr_debts",
        null=True,
        blank=True,
    )
    status = models.CharField(
        _("status"),
        max_length=8,
        choices=DebtStatus.choices,
        default=DebtStatus.PENDING,
        db_index=True,
    )
    paid_card = models.CharField(_("paid card"), max_length=4, blank=True)
    created = models.DateTimeField(_("created"), default=timezone.now)
    settled = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        verbose_name = _("Narr debt")
        verbose_name_plural = _("Narr debts")
        ordering = ["round", "created"]
        constraints = [
            # RULES §9: there is at most one debt per deal.
            models.UniqueConstraint(fields=["round"], name="narrdebt_one_per_round"),
            models.CheckConstraint(condition=~Q(debtor=models.F("creditor")),
                                   name="narrdebt_debtor_is_not_creditor"),
            models.CheckConstraint(
                condition=Q(status="pending", paid_card="")
                | Q(status="settled") & ~Q(paid_card=""),
                name="narrdebt_settled_has_card",
            ),
        ]

    def __str__(self) -> str:
        return _("Narr debt %(debtor)s → %(creditor)s") % {
            "debtor": self.debtor,
            "creditor": self.creditor,
        }


class RoundAction(models.Model):
    """Append-only log of every accepted action, in order: replaying it rebuilds the deal.

    action_id is the client's idempotency key (a double click or a replayed message is applied
    once); system actions (timers) get a fresh UUID."""

    room = models.ForeignKey(
        Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="actions"
    )
    # Lobby actions (seating, options) belong to no deal.
    round = models.ForeignKey(
        Round,
        verbose_name=_("deal"),
        on_delete=models.CASCADE,
        related_name="actions",
        null=True,
        blank=True,
    )
    version = models.PositiveIntegerField(
        _("table version"), help_text=_("The room's version after this action.")
    )
    sequence = models.PositiveIntegerField(
        _("sequence"), null=True, blank=True, help_text=_("Order inside the deal.")
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    actor_seat = models.PositiveSmallIntegerField(
        _("actor seat"), null=True, blank=True, help_text=_("Empty for system actions.")
    )
    kind = models.CharField(_("action"), max_length=24, db_index=True)
    payload = models.JSONField(_("payload"), default=dict)
    action_id = models.CharField(
        _("action id"), max_length=100, unique=True, default=uuid.uuid4, editable=False
    )
    created = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("round action")
        verbose_name_plural = _("round actions")
        ordering = ["room", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "sequence"], name="roundaction_unique_sequence"
            ),
            models.UniqueConstraint(fields=["room", "version"], name="roundaction_unique_version"),
            models.CheckConstraint(
                condition=Q(actor_seat__isnull=True) | Q(actor_seat__gte=0, actor_seat__lte=3),
                name="roundaction_seat_0_to_3",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.kind}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise TypeError("RoundAction is an append-only log; rows are never updated.")
        super().save(*args, **kwargs)


# PRESENCE_TIMEOUT and STALE_AFTER (games/models/presence.py) judge these socket rows.


class Connection(models.Model):
    """An open websocket: who is at the table right now (the lobby's "connected" dots).

    Rows are removed on disconnect, except a user's last socket at a room: that row is kept,
    `closed_at` set, so the table can say since when the player is away (the away clock; the
    hook of a stand-in bot). A process killed without cleaning up leaves rows whose last_seen
    stops moving: those count as away after PRESENCE_TIMEOUT and are closed by the purge."""

    room = models.ForeignKey(
        Room, verbose_name=_("room"), on_delete=models.CASCADE, related_name="connections"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), on_delete=models.CASCADE,
        related_name="+",
    )
    channel_name = models.CharField(_("channel"), max_length=200, unique=True)
    last_seen = models.DateTimeField(_("last seen"), default=timezone.now, db_index=True)
    # Set when the socket closed and it was the user's last at this room: since then away.
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)

    class Meta:
        verbose_name = _("connection")
        verbose_name_plural = _("connections")

    def __str__(self) -> str:
        return f"{self.user} @ {self.room}"
