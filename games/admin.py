"""The admin: every game table, searchable and filterable, with the full engine state (hands
included) for staff settling a dispute. The action log is read-only."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from modeltranslation.admin import TabbedTranslationAdmin

from accounts.signed_in import signed_in_user
from games import services
from games.models import (
    Announcement,
    Block,
    Club,
    ClubInvite,
    Connection,
    DealReview,
    DirectorAction,
    Entrant,
    FAQEntry,
    FriendRequest,
    Friendship,
    FunnelWeek,
    IllegalByDeal,
    LessonProgress,
    Match,
    MatchStatus,
    Membership,
    NarrDebt,
    Notification,
    PairStats,
    PlayerRating,
    PracticePosition,
    QueueEntry,
    RatingHistory,
    ResultAdjustment,
    Room,
    Round,
    RoundAction,
    Seat,
    SitePresence,
    Stage,
    Tournament,
    TournamentBye,
    TournamentRound,
    TournamentTable,
    Trick,
)

if TYPE_CHECKING:
    from typing import TypedDict

    from django_stubs_ext import StrOrPromise, WithAnnotations

    # django-stubs makes the admin classes generic in their model; Django's take no subscript
    # at run time, so the parameters are for the type checker alone. The read-only base serves
    # every game model, hence Any there.
    _ModelAdmin = admin.ModelAdmin[Any]
    _ConnectionAdmin = admin.ModelAdmin[Connection]
    _SeatInline = admin.TabularInline[Seat, Room]
    _MembershipInline = admin.TabularInline[Membership, Club]
    _StageInline = admin.TabularInline[Stage, Tournament]
    _RoundInline = admin.TabularInline[Round, Match]
    _TrickInline = admin.TabularInline[Trick, Round]
    _FAQEntryAdmin = TabbedTranslationAdmin[FAQEntry]
    _AnnouncementAdmin = TabbedTranslationAdmin[Announcement]

    class _SeatCount(TypedDict):
        # RoomAdmin.get_queryset's annotation.
        _seat_count: int
else:
    _ModelAdmin = _ConnectionAdmin = admin.ModelAdmin
    _SeatInline = _RoundInline = _TrickInline = _MembershipInline = admin.TabularInline
    _StageInline = admin.TabularInline
    _FAQEntryAdmin = _AnnouncementAdmin = TabbedTranslationAdmin


def pretty_json(value: Any) -> SafeString:
    return format_html(
        '<pre class="troccas-json">{}</pre>',
        json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True),
    )


class StaffViewMixin:
    """Any active staff member may look at every game table (to settle disputes); changing
    one still needs the model permission."""

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return bool(request.user.is_active and request.user.is_staff)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_staff)


class NoWrites:
    """Game rows are written by the services alone (ARCHITECTURE.md §9): nobody adds, changes
    or deletes one through a form. Staff act through the admin actions, which call the
    services, so the version moves, the action is logged and the players' tables learn of it."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyAdmin(NoWrites, StaffViewMixin, _ModelAdmin):
    """Rows nobody edits by hand: game rows, the append-only action log and what is derived
    from history."""

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        # The admin actions that call the services: for staff who hold the model's change
        # permission (the forms themselves stay read-only).
        opts = self.opts
        return bool(request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}"))


class OpenFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest,
                model_admin: admin.ModelAdmin[Room]) -> list[tuple[str, StrOrPromise]]:
        return [("open", _("Open")), ("closed", _("Closed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Room]) -> QuerySet[Room]:
        if self.value() == "open":
            return queryset.filter(closed__isnull=True)
        if self.value() == "closed":
            return queryset.filter(closed__isnull=False)
        return queryset


class SeatInline(NoWrites, _SeatInline):
    model = Seat
    extra = 0
    fields = ("user", "team", "index", "joined")
    raw_id_fields = ("user",)


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin):
    list_display = ("code", "name", "owner", "visibility", "allow_spectators", "seat_count",
                    "created", "closed")
    list_filter = (OpenFilter, "visibility", "allow_spectators", "created")
    search_fields = ("code", "name", "owner__username", "owner__display_name")
    readonly_fields = ("code", "version", "options_pretty")
    raw_id_fields = ("owner", "current_match")
    date_hierarchy = "created"
    inlines = [SeatInline]
    actions = ["close_rooms"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Room]:
        # The shared read-only base is typed for any model; this one lists rooms.
        rooms: QuerySet[Room] = super().get_queryset(request)
        return rooms.select_related("owner").annotate(
            _seat_count=Count("seats")
        )

    @admin.display(description=_("seats"), ordering="_seat_count")
    def seat_count(self, obj: WithAnnotations[Room, _SeatCount]) -> int:
        return obj._seat_count

    @admin.display(description=_("house rules (as stored)"))
    def options_pretty(self, obj: Room) -> SafeString:
        return pretty_json(obj.options)

    @admin.action(description=_("Close selected rooms"), permissions=["moderate"])
    def close_rooms(self, request: HttpRequest, queryset: QuerySet[Room]) -> None:
        # Through the services, one room at a time, as its owner would: the version moves, the
        # action is logged and the players' tables learn of it.
        # The admin lets only signed-in staff reach an action.
        staff = signed_in_user(request)
        count = sum(services.staff_close_room(room, staff)
                    for room in queryset.filter(closed__isnull=True))
        self.message_user(
            request,
            ngettext("%(count)d room closed.", "%(count)d rooms closed.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("room", "user", "team", "index", "joined")
    list_filter = ("team", "index")
    search_fields = ("room__code", "room__name", "user__username", "user__display_name")
    raw_id_fields = ("room", "user")
    list_select_related = ("room", "user")


class RoundInline(NoWrites, _RoundInline):
    model = Round
    extra = 0
    fields = ("number", "dealer", "phase", "version", "is_bock", "points_a", "points_b",
              "started", "finished")
    readonly_fields = fields
    show_change_link = True
    can_delete = False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "room", "status", "total_a", "total_b", "winner",
                    "deals_played", "rated", "started", "finished")
    list_filter = ("status", "winner", "rated", "started")
    search_fields = ("room__code", "room__name", "player_0__username", "player_1__username",
                     "player_2__username", "player_3__username")
    raw_id_fields = ("room", "player_0", "player_1", "player_2", "player_3")
    readonly_fields = ("options_pretty",)
    date_hierarchy = "started"
    list_select_related = ("room",)
    inlines = [RoundInline]
    actions = ["end_matches"]

    @admin.display(description=_("house rules (as stored)"))
    def options_pretty(self, obj: Match) -> SafeString:
        return pretty_json(obj.options)

    @admin.action(description=_("End selected running matches (abandoned)"),
                  permissions=["moderate"])
    def end_matches(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        staff = signed_in_user(request)
        count = sum(services.staff_end_match(match.room, staff)
                    for match in queryset.filter(status=MatchStatus.RUNNING)
                    .select_related("room"))
        self.message_user(
            request,
            ngettext("%(count)d match ended.", "%(count)d matches ended.", count)
            % {"count": count},
            messages.SUCCESS,
        )


class TrickInline(NoWrites, _TrickInline):
    model = Trick
    extra = 0
    fields = ("number", "leader", "cards", "winner", "buob_call", "completed")
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "match", "number", "phase", "dealer", "version", "is_bock",
                    "deadline", "deadline_kind")
    list_filter = ("phase", "is_bock", "deadline_kind", "started")
    search_fields = ("match__room__code", "match__room__name")
    raw_id_fields = ("match",)
    readonly_fields = ("hands", "engine_state_pretty", "deck_pretty")
    list_select_related = ("match__room",)
    inlines = [TrickInline]

    @admin.display(description=_("hands"))
    def hands(self, obj: Round) -> SafeString | StrOrPromise:
        # Staff only: this is every player's hidden cards, shown to settle disputes.
        # The hands live under the deal in a stored state (games/engine/codec.py); a deal
        # that is over holds none.
        state = obj.engine_state if isinstance(obj.engine_state, dict) else {}
        deal = state.get("deal")
        hands = deal.get("hands") if isinstance(deal, dict) else None
        if not isinstance(hands, list | tuple) or not any(hands):
            return _("(not in this state)")
        return format_html(
            "<table><tbody>{}</tbody></table>",
            format_html_join(
                "",
                "<tr><th>{}</th><td>{}</td></tr>",
                # Seats numbered 1 to 4, as every page and the table number them.
                ((_("seat %(index)d") % {"index": i + 1}, " ".join(map(str, hand or [])))
                 for i, hand in enumerate(hands)),
            ),
        )

    @admin.display(description=_("engine state"))
    def engine_state_pretty(self, obj: Round) -> SafeString:
        return pretty_json(obj.engine_state)

    @admin.display(description=_("deck order"))
    def deck_pretty(self, obj: Round) -> SafeString:
        return pretty_json(obj.deck)


@admin.register(Trick)
class TrickAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "round", "leader", "winner", "has_buob_call", "completed")
    list_filter = ("winner", "leader")
    search_fields = ("round__match__room__code",)
    raw_id_fields = ("round",)
    list_select_related = ("round__match__room",)

    @admin.display(description=_("BUOB call"), boolean=True)
    def has_buob_call(self, obj: Trick) -> bool:
        return obj.buob_call is not None


@admin.register(NarrDebt)
class NarrDebtAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "round", "debtor", "creditor", "status", "paid_card",
                    "created", "settled")
    list_filter = ("status", "debtor")
    search_fields = ("round__match__room__code", "paid_card")
    raw_id_fields = ("round", "trick")
    list_select_related = ("round__match__room",)


@admin.register(RoundAction)
class RoundActionAdmin(ReadOnlyAdmin):
    """The log is evidence: staff may read it, nobody may add, change or delete a line."""

    list_display = ("created", "room", "version", "round", "sequence", "kind", "actor",
                    "actor_seat", "action_id")
    list_filter = ("kind", "actor_seat", "created")
    search_fields = ("action_id", "room__code", "room__name", "actor__username", "kind")
    readonly_fields = ("room", "version", "round", "sequence", "actor", "actor_seat", "kind",
                       "payload_pretty", "action_id", "created")
    exclude = ("payload",)
    list_select_related = ("room", "round__match", "actor")
    date_hierarchy = "created"

    @admin.display(description=_("payload"))
    def payload_pretty(self, obj: RoundAction) -> SafeString:
        return pretty_json(obj.payload)



@admin.register(Connection)
class ConnectionAdmin(StaffViewMixin, _ConnectionAdmin):
    """Open websockets: who is at which table right now. Written only by the consumers."""

    list_display = ("room", "user", "channel_name", "last_seen", "closed_at")
    list_filter = ("last_seen",)
    search_fields = ("room__code", "room__name", "user__username", "channel_name")
    readonly_fields = ("room", "user", "channel_name", "last_seen", "closed_at")
    list_select_related = ("room", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(FAQEntry)
class FAQEntryAdmin(_FAQEntryAdmin):
    list_display = ("question", "order", "published")
    list_editable = ("order", "published")
    list_filter = ("published",)
    search_fields = ("question", "answer")


@admin.register(Announcement)
class AnnouncementAdmin(_AnnouncementAdmin):
    list_display = ("title", "published", "created")
    list_filter = ("published", "created")
    search_fields = ("title", "body")
    date_hierarchy = "created"


# --- standings (issue #7): derived from finished matches, read-only here -------------------
# Rebuilt from history with `manage.py recompute_standings`; nobody edits a rating by hand.



@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "rating", "mu", "sigma", "matches", "wins", "draws", "losses",
                    "deals_won", "avg_points", "buob_calls", "buob_won")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)


@admin.register(PairStats)
class PairStatsAdmin(ReadOnlyAdmin):
    list_display = ("player_low", "player_high", "rating", "matches", "wins", "draws", "losses",
                    "deals_won", "avg_points", "buob_calls", "buob_won")
    search_fields = ("player_low__username", "player_high__username")
    list_select_related = ("player_low", "player_high")


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ("user", "at", "match", "rating", "mu", "sigma", "matches")
    list_filter = ("at",)
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user", "match__room")
    date_hierarchy = "at"


# --- friends and invitations (issue #17): written by games/talk/, shown read-only ------------

@admin.register(FriendRequest)
class FriendRequestAdmin(ReadOnlyAdmin):
    list_display = ("sender", "recipient", "created")
    search_fields = ("sender__username", "recipient__username")
    list_select_related = ("sender", "recipient")


@admin.register(Friendship)
class FriendshipAdmin(ReadOnlyAdmin):
    list_display = ("user", "friend", "created")
    search_fields = ("user__username", "friend__username")
    list_select_related = ("user", "friend")


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    """Who blocked whom: for staff looking into a complaint about a player."""

    list_display = ("blocker", "blocked", "created")
    search_fields = ("blocker__username", "blocked__username")
    list_select_related = ("blocker", "blocked")


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "actor", "room", "created", "read_at")
    list_filter = ("kind", "created")
    search_fields = ("user__username", "actor__username")
    list_select_related = ("user", "actor", "room")


@admin.register(SitePresence)
class SitePresenceAdmin(ReadOnlyAdmin):
    list_display = ("user", "channel_name", "last_seen")
    search_fields = ("user__username", "channel_name")
    list_select_related = ("user",)


@admin.register(QueueEntry)
class QueueEntryAdmin(ReadOnlyAdmin):
    """Find a game's queue (issue #24 item 15): who waits, with which rules, and how each wait
    ended. Read only: waits are joined, left and formed by games/services/matchmaking.py."""

    list_display = ("user", "status", "joined", "bots_after", "away_since", "ended", "room")
    list_filter = ("status", "joined")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user", "room")


# --- table talk (issue #17): its own admin module, registered with the site here ----------
from games.talk import admin as _talk_admin  # noqa: E402, F401


class MembershipInline(NoWrites, _MembershipInline):
    model = Membership
    fields = ("user", "role", "joined")
    readonly_fields = fields
    extra = 0


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    """Clubs are read here: their rows (one owner each, a name unique in any case, names
    checked as plain text) change only through games/clubs/membership.py."""

    list_display = ("name", "region", "language", "admission", "created", "member_count")
    list_filter = ("language", "admission")
    search_fields = ("name", "region")
    inlines = [MembershipInline]

    @admin.display(description=_("members"))
    def member_count(self, obj: Club) -> int:
        return obj.memberships.count()


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "role", "joined")
    list_filter = ("role",)
    search_fields = ("club__name", "user__username", "user__display_name")
    raw_id_fields = ("club", "user")
    list_select_related = ("club", "user")


@admin.register(ClubInvite)
class ClubInviteAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "kind", "by", "created")
    list_filter = ("kind",)
    list_select_related = ("club", "user", "by")


# --- tournaments (issue #26 items 2-7): read here, written by games/clubs/ alone -----------

class StageInline(NoWrites, _StageInline):
    model = Stage
    fields = ("number", "format", "rounds", "advance", "duplicate", "venue")
    readonly_fields = fields
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    """Tournaments are read here: created, entered and run through games/clubs/ (the
    director's actions are in its audit log, DirectorAction)."""

    list_display = ("name", "club", "director", "entrant_kind", "status", "starts_at",
                    "capacity")
    list_filter = ("status", "entrant_kind", "language")
    search_fields = ("name", "club__name", "director__username")
    raw_id_fields = ("club", "director")
    list_select_related = ("club", "director")
    inlines = [StageInline]


@admin.register(Stage)
class StageAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "number", "format", "rounds", "advance", "duplicate", "venue")
    list_filter = ("format", "duplicate")
    list_select_related = ("tournament",)


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "player", "partner", "status", "registered", "checked_in",
                    "partner_checked_in", "out_from_round")
    list_filter = ("status",)
    search_fields = ("tournament__name", "player__username", "partner__username")
    raw_id_fields = ("tournament", "player", "partner")
    list_select_related = ("tournament", "player", "partner")


@admin.register(TournamentRound)
class TournamentRoundAdmin(ReadOnlyAdmin):
    # The duplicate decks stay out of the list; staff settling a dispute open the row.
    list_display = ("tournament", "number", "stage", "status", "starts_at", "closed_at")
    list_filter = ("status",)
    list_select_related = ("tournament", "stage")


@admin.register(TournamentTable)
class TournamentTableAdmin(ReadOnlyAdmin):
    list_display = ("round", "number", "room", "outcome", "card_points_a", "card_points_b",
                    "finished")
    list_filter = ("outcome",)
    raw_id_fields = ("round", "room")
    list_select_related = ("round", "round__tournament", "room")


@admin.register(DirectorAction)
class DirectorActionAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "kind", "actor", "reason", "created")
    list_filter = ("kind",)
    search_fields = ("tournament__name", "reason")
    list_select_related = ("tournament", "actor")


@admin.register(TournamentBye)
class TournamentByeAdmin(ReadOnlyAdmin):
    list_display = ("round", "entrant")
    list_select_related = ("round", "round__tournament", "entrant")


@admin.register(ResultAdjustment)
class ResultAdjustmentAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "entrant", "match_points", "card_points", "reason", "created")
    search_fields = ("tournament__name", "reason")
    list_select_related = ("tournament", "entrant")


# --- teaching (issue #28): the course's progress, reviews, and the newcomers' funnel ---------

@admin.register(LessonProgress)
class LessonProgressAdmin(ReadOnlyAdmin):
    list_display = ("user", "lesson", "stars", "finished")
    list_filter = ("lesson", "stars")
    search_fields = ("user__username", "user__display_name")
    list_select_related = ("user",)


@admin.register(DealReview)
class DealReviewAdmin(ReadOnlyAdmin):
    # The verdicts stay the player's: staff see that a review was asked and how it went.
    list_display = ("user", "round", "status", "done", "total", "created", "updated")
    list_filter = ("status",)
    fields = ("user", "round", "seat", "status", "done", "total", "created", "updated")
    list_select_related = ("user", "round__match__room")


@admin.register(PracticePosition)
class PracticePositionAdmin(ReadOnlyAdmin):
    """Where a "try again from here" table started: read by the writer once, kept for its
    replay. The deck and the actions are a finished deal's, shown to nobody else."""

    list_display = ("room", "source", "dealer")
    fields = ("room", "source", "dealer")
    list_select_related = ("room",)


@admin.register(FunnelWeek)
class FunnelWeekAdmin(ReadOnlyAdmin):
    """How far the accounts of each sign-up week got: counts only, nobody named."""

    list_display = ("week", "signed_up", "lesson", "first_deal", "first_match")


@admin.register(IllegalByDeal)
class IllegalByDealAdmin(ReadOnlyAdmin):
    """Illegal attempts per deal over the players' first ten deals: are newcomers learning?"""

    list_display = ("deal", "deals", "illegal", "per_deal_shown")

    @admin.display(description=_("attempts per deal"))
    def per_deal_shown(self, obj: IllegalByDeal) -> float:
        return obj.per_deal
