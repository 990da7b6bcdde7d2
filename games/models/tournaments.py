"""Tournaments (issue #26 items 2-7): a tournament, its stages and rounds, its entrants, the
tables of a round and their results, the byes, and the director's audit log.

Written only through games/clubs/ (tournaments.py: creation, registration, check-in;
rounds.py: the round runner; desk.py: the director's actions). A round's state moves forward
only by a compare-and-set on `TournamentRound.status` (rounds.py), so two workers racing for
the same transition make it once.

Duplicate decks: a round of a duplicate stage holds `decks` (one 78-card order per deal of its
Partie); every table of the round plays them in order, and the writer reads them through
`planned_deck` instead of shuffling. They are secret until every table of the round has
finished that deal (games/clubs/duplicate.py decides what may be shown)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models.table import Round

NAME_MAX = 60


class EntrantKind(models.TextChoices):
    INDIVIDUAL = "individual", _("Individuals with rotating partners")
    PAIRS = "pairs", _("Fixed pairs")


class TournamentStatus(models.TextChoices):
    REGISTRATION = "registration", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class TableTalk(models.TextChoices):
    PHRASES = "phrases", _("Quick phrases only")
    SILENT = "silent", _("Silent")


class Spectators(models.TextChoices):
    OFF = "off", _("No spectators")
    AFTER_ROUND = "after_round", _("Replays after the round")


class Tiebreak(models.TextChoices):
    MATCH_POINTS_FIRST = "match_points", _("Match points, then card points")
    CARD_POINTS_FIRST = "card_points", _("Card points, then match points")


class Unfinished(models.TextChoices):
    """What the round's clock does to a table still playing (item 5): never silent."""
    AS_STANDS = "as_stands", _("Score the Partie as it stands")
    DIRECTOR = "director", _("The director adjudicates")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=NAME_MAX)
    club = models.ForeignKey("games.Club", verbose_name=_("club"), on_delete=models.CASCADE,
                             null=True, blank=True, related_name="tournaments")
    director = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("tournament director"),
                                 on_delete=models.PROTECT, related_name="directed_tournaments")
    language = models.CharField(_("language"), max_length=8, choices=settings.LANGUAGES)
    entrant_kind = models.CharField(_("entrants"), max_length=10, choices=EntrantKind.choices,
                                    default=EntrantKind.INDIVIDUAL)
    # The house rules of every Partie (RULES.md §14), locked for the whole tournament;
    # `match_deals` is the Partie's length.
    options = models.JSONField(_("house rules"), default=dict)
    talk = models.CharField(_("table talk"), max_length=8, choices=TableTalk.choices,
                            default=TableTalk.PHRASES)
    spectators = models.CharField(_("spectators"), max_length=12, choices=Spectators.choices,
                                  default=Spectators.OFF)
    tiebreak = models.CharField(_("ranking"), max_length=12, choices=Tiebreak.choices,
                                default=Tiebreak.MATCH_POINTS_FIRST)
    unfinished = models.CharField(_("a table still playing at the clock"), max_length=10,
                                  choices=Unfinished.choices, default=Unfinished.AS_STANDS)
    # A bye (or a sit-out) scores as a won Partie with this many card points (the rules page).
    bye_match_points = models.PositiveSmallIntegerField(_("match points of a bye"), default=2)
    bye_card_points = models.PositiveIntegerField(_("card points of a bye"), default=0)
    capacity = models.PositiveIntegerField(_("places"), default=64,
                                           help_text=_("Entrants beyond it wait in line."))
    registration_opens = models.DateTimeField(_("registration opens"), default=timezone.now)
    registration_closes = models.DateTimeField(_("registration closes"))
    checkin_minutes = models.PositiveSmallIntegerField(
        _("check-in opens (minutes before the start)"), default=30)
    starts_at = models.DateTimeField(_("start"), db_index=True)
    round_minutes = models.PositiveSmallIntegerField(_("round clock (minutes)"), default=60)
    # Minutes between a round's clock and the next round's start.
    break_minutes = models.PositiveSmallIntegerField(_("break between rounds (minutes)"),
                                                     default=5)
    status = models.CharField(_("status"), max_length=12, choices=TournamentStatus.choices,
                              default=TournamentStatus.REGISTRATION, db_index=True)
    created = models.DateTimeField(_("created"), default=timezone.now)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(entrant_kind__in=["individual", "pairs"]),
                                   name="tournament_entrant_kind_known"),
            models.CheckConstraint(
                condition=Q(status__in=["registration", "running", "finished", "cancelled"]),
                name="tournament_status_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:tournament", kwargs={"pk": self.pk})

    @property
    def is_pairs(self) -> bool:
        return self.entrant_kind == EntrantKind.PAIRS


class StageFormat(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")


class StageVenue(models.TextChoices):
    """Where a stage's Parties are played: in rooms of the site, or over the real tables of a
    hall, the director typing in each table's deal scores (no room is opened for them)."""
    ONLINE = "online", _("Online, in rooms of the site")
    REAL_TABLES = "real_tables", _("At the real tables")


class Stage(models.Model):
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(_("number"))
    format = models.CharField(_("format"), max_length=12, choices=StageFormat.choices,
                              default=StageFormat.SWISS)
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    # A later stage seeds the top `advance` of the stage before (None: everyone who is in).
    advance = models.PositiveSmallIntegerField(_("entrants carried over"), null=True,
                                               blank=True)
    duplicate = models.BooleanField(_("duplicate deals"), default=False)
    venue = models.CharField(_("where it is played"), max_length=12, choices=StageVenue.choices,
                             default=StageVenue.ONLINE)

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="tournament_stage_unique_number"),
            # Nobody can hold a hall's tables to the same seeded decks.
            models.CheckConstraint(
                condition=Q(venue="online") | Q(venue="real_tables", duplicate=False),
                name="tournament_stage_duplicate_online"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"

    @property
    def at_real_tables(self) -> bool:
        return self.venue == StageVenue.REAL_TABLES


class EntrantStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    WAITING = "waiting", _("On the waiting list")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Entrant(models.Model):
    """One entrant: a player (individual) or a fixed pair (`player` and `partner`)."""

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("player"),
                               on_delete=models.CASCADE, related_name="tournament_entries")
    partner = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("partner"),
                                on_delete=models.CASCADE, null=True, blank=True,
                                related_name="tournament_partner_entries")
    status = models.CharField(_("status"), max_length=10, choices=EntrantStatus.choices,
                              default=EntrantStatus.REGISTERED)
    registered = models.DateTimeField(_("registered"), default=timezone.now)
    checked_in = models.DateTimeField(_("checked in"), null=True, blank=True)
    partner_checked_in = models.DateTimeField(_("partner checked in"), null=True, blank=True)
    withdrawn = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    # The round (number within the tournament, counting all stages) from which the entrant is
    # no longer paired: a withdrawal during the tournament, or a drop for not checking in.
    out_from_round = models.PositiveSmallIntegerField(_("out from round"), null=True,
                                                      blank=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        ordering = ["tournament", "registered", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"],
                                    name="tournament_entrant_unique_player"),
            models.CheckConstraint(
                condition=Q(status__in=["registered", "waiting", "withdrawn"]),
                name="tournament_entrant_status_known"),
        ]

    def __str__(self) -> str:
        if self.partner_id:
            return f"{self.player} & {self.partner}"
        return str(self.player)


class RoundStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    PAIRED = "paired", _("Paired")
    RUNNING = "running", _("Playing")
    CLOSED = "closed", _("Closed")


class TournamentRound(models.Model):
    stage = models.ForeignKey(Stage, verbose_name=_("stage"), on_delete=models.CASCADE,
                              related_name="rounds_set")
    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="rounds")
    # Counting over all stages: 1, 2, ... (what players and the Rangliste call the round).
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=10, choices=RoundStatus.choices,
                              default=RoundStatus.SCHEDULED, db_index=True)
    starts_at = models.DateTimeField(_("start"), db_index=True)
    clock_ends_at = models.DateTimeField(_("clock ends"), null=True, blank=True)
    paired_at = models.DateTimeField(_("paired"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    # Duplicate stage: one 78-card order per deal of the Partie (secret, see module doc).
    decks = models.JSONField(_("duplicate decks"), default=list, blank=True)

    class Meta:
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"],
                                    name="tournament_round_unique_number"),
            models.CheckConstraint(
                condition=Q(status__in=["scheduled", "paired", "running", "closed"]),
                name="tournament_round_status_known"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"


class TableOutcome(models.TextChoices):
    PENDING = "pending", _("Not finished")
    PLAYED = "played", _("Played")
    AS_STANDS = "as_stands", _("Scored as it stood at the clock")
    ADJUDICATED = "adjudicated", _("Adjudicated by the director")
    ENTERED = "entered", _("Entered from a real table")


class TournamentTable(models.Model):
    """A table of a round: four seats (0 and 2 team A, 1 and 3 team B), the entrant and the
    player of each seat, its room (none for a result played over a real table), its result.
    With fixed pairs, seats 0/2 hold one entrant and 1/3 the other."""

    round = models.ForeignKey(TournamentRound, verbose_name=_("round"),
                              on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    room = models.OneToOneField("games.Room", verbose_name=_("room"), on_delete=models.SET_NULL,
                                null=True, blank=True, related_name="tournament_table")
    # [entrant id] * 4 and [user id] * 4, by seat index.
    seat_entrants = models.JSONField(_("entrants by seat"), default=list)
    seat_players = models.JSONField(_("players by seat"), default=list)
    outcome = models.CharField(_("outcome"), max_length=12, choices=TableOutcome.choices,
                               default=TableOutcome.PENDING)
    card_points_a = models.IntegerField(_("card points Team A"), null=True, blank=True)
    card_points_b = models.IntegerField(_("card points Team B"), null=True, blank=True)
    # Per deal [points A, points B] (the Partie's deal scores, also those typed in by hand).
    deal_scores = models.JSONField(_("deal scores"), default=list, blank=True)
    # Seats a bot played for at least part of the Partie (a stand-in or a substitute bot):
    # flagged in the results, the match unrated, the entrant excluded from prizes.
    bot_seats = models.JSONField(_("seats played by a bot"), default=list, blank=True)
    finished = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"],
                                    name="tournament_table_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"

    @property
    def is_finished(self) -> bool:
        return self.outcome != TableOutcome.PENDING


class TournamentBye(models.Model):
    """A bye (pairs Swiss, odd count) or a sit-out (individual, count not a multiple of 4)."""

    round = models.ForeignKey(TournamentRound, verbose_name=_("round"),
                              on_delete=models.CASCADE, related_name="byes")
    entrant = models.ForeignKey(Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE,
                                related_name="byes")

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="tournament_bye_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.entrant}"


class ResultAdjustment(models.Model):
    """A director's correction of an entrant's total, with its reason (item 6)."""

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="adjustments")
    entrant = models.ForeignKey(Entrant, verbose_name=_("entrant"), on_delete=models.CASCADE,
                                related_name="adjustments")
    match_points = models.IntegerField(_("match points"), default=0)
    card_points = models.IntegerField(_("card points"), default=0)
    reason = models.CharField(_("reason"), max_length=200)
    created = models.DateTimeField(_("time"), default=timezone.now)

    class Meta:
        verbose_name = _("result adjustment")
        verbose_name_plural = _("result adjustments")
        ordering = ["created"]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.match_points:+} / {self.card_points:+}"


class DirectorAction(models.Model):
    """The audit log: every director action, shown on the tournament page."""

    tournament = models.ForeignKey(Tournament, verbose_name=_("tournament"),
                                   on_delete=models.CASCADE, related_name="director_actions")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("director"),
                              on_delete=models.SET_NULL, null=True, related_name="+")
    kind = models.CharField(_("action"), max_length=24)
    payload = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created = models.DateTimeField(_("time"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("director's action")
        verbose_name_plural = _("director's actions")
        ordering = ["created", "pk"]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.kind}"


def planned_deck(room_id: int, deal_number: int) -> list[str] | None:
    """The duplicate deck of deal `deal_number` (1-based) of a tournament table's room, or None
    (not a duplicate table: the writer shuffles)."""
    decks = (TournamentTable.objects.filter(room_id=room_id)
             .values_list("round__decks", flat=True).first())
    if not decks or deal_number > len(decks):
        return None
    return list(decks[deal_number - 1])


# --- questions the layers below clubs ask (services, history): queries, no writes -------------

def is_tournament_room(room_id: int) -> bool:
    """Whether the room is a tournament table: its seats and house rules are the tournament's
    (games/services/lobby.py refuses the commands that would change them)."""
    return TournamentTable.objects.filter(room_id=room_id).exists()


def tournament_of_room(room_id: int) -> tuple[str, str] | None:
    """(the round's status, the tournament's `spectators`) of a tournament table's room, or
    None for any other room."""
    row = (TournamentTable.objects.filter(room_id=room_id)
           .values_list("round__status", "round__tournament__spectators").first())
    return None if row is None else (row[0], row[1])


def tournament_room_watchable(room_id: int) -> bool | None:
    """None: not a tournament room. Else whether someone without a seat there may look on:
    never while its round is not closed (a duplicate round's decks are at other tables too),
    afterwards as the tournament's `spectators` says."""
    found = tournament_of_room(room_id)
    if found is None:
        return None
    status, spectators = found
    return status == RoundStatus.CLOSED and spectators == Spectators.AFTER_ROUND


def deal_is_public(round_id: int, deal_number: int) -> bool:
    """Whether deal `deal_number` (1-based) of a tournament round may be shown: the round is
    closed, or every table of it has finished that deal (its deal row scored) or is finished
    itself (a table scored at the clock, adjudicated or entered never plays it)."""
    rnd = TournamentRound.objects.filter(pk=round_id).values_list("status", flat=True).first()
    if rnd is None:
        return False
    if rnd == RoundStatus.CLOSED:
        return True
    pending = TournamentTable.objects.filter(round_id=round_id, outcome=TableOutcome.PENDING)
    if pending.filter(room__isnull=True).exists():
        return False
    rooms = list(pending.values_list("room_id", flat=True))
    done = (Round.objects.filter(match__room_id__in=rooms, number=deal_number,
                                 finished__isnull=False)
            .values("match__room_id").distinct().count())
    return done == len(rooms)


def match_cards_secret(room_id: int) -> bool:
    """Whether a match of this room must show nobody its cards or deal results yet: the room
    is a tournament table whose round is not closed (issue #26 items 4 and 7: each table's
    replay after its round closed)."""
    found = tournament_of_room(room_id)
    return found is not None and found[0] != RoundStatus.CLOSED
