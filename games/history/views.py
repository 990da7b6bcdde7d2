"""Match history, a match's page (deal summary, score chart, replay), its transcript download,
and the standings (issue #7). Signed-in players only.

Access is decided in games/history/access.py for every page, JSON and download here: a public
room's matches are open to every signed-in player, a private room's to its members and staff
(anyone else gets a 404). A finished match shows every card, as RULES.md §13 allows once the
deals are over; a running (or abandoned) match only its public facts, and its replay and
transcript are refused.

Each list page runs a fixed number of queries whatever its length (tests/history/test_views.py).
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET

from games.engine import team_of
from games.history import access
from games.history import replay as history
from games.history.figures import player_figures
from games.history.rating import PROVISIONAL_MATCHES
from games.models import (
    Block,
    DebtStatus,
    Match,
    MatchStatus,
    Membership,
    NarrDebt,
    PairStats,
    Phase,
    PlayerRating,
    Room,
    Round,
    RoundStatus,
    Trick,
    Visibility,
    Winner,
)
from games.text.cards import card_names

PAGE_SIZE = 50


def _mine(user: Any) -> QuerySet[Match]:
    return Match.objects.for_user(user)


class HistoryFilter(forms.Form):
    RESULTS = [
        ("", gettext_lazy("Any result")),
        ("win", gettext_lazy("Won")),
        ("draw", gettext_lazy("Drawn")),
        ("loss", gettext_lazy("Lost")),
        ("running", gettext_lazy("Running")),
    ]
    result = forms.ChoiceField(label=gettext_lazy("Result"), choices=RESULTS, required=False)
    partner = forms.TypedChoiceField(label=gettext_lazy("Partner"), coerce=int, required=False,
                                     empty_value=None)
    room = forms.TypedChoiceField(label=gettext_lazy("Room"), coerce=int, required=False,
                                  empty_value=None)
    date_from = forms.DateField(label=gettext_lazy("From"), required=False,
                                widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=gettext_lazy("To"), required=False,
                              widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, data: Any, user: Any) -> None:
        super().__init__(data)
        User = get_user_model()
        mine = _mine(user)
        # One query each, however many matches: the partners and rooms of this player.
        partners = User.objects.filter(
            Q(pk__in=mine.filter(player_0=user).values("player_2"))
            | Q(pk__in=mine.filter(player_2=user).values("player_0"))
            | Q(pk__in=mine.filter(player_1=user).values("player_3"))
            | Q(pk__in=mine.filter(player_3=user).values("player_1"))
        ).order_by("display_name", "username")
        partner, room = self.fields["partner"], self.fields["room"]
        assert isinstance(partner, forms.TypedChoiceField)  # declared above
        assert isinstance(room, forms.TypedChoiceField)
        partner.choices = [("", _("Any partner"))] + [(p.pk, p.public_name) for p in partners]
        rooms = Room.objects.filter(pk__in=mine.values("room")).order_by("name", "code")
        room.choices = [("", _("Any room"))] + [(r.pk, str(r)) for r in rooms]

    def apply(self, qs: QuerySet[Match], user: Any) -> QuerySet[Match]:
        if not self.is_valid():
            return qs
        d = self.cleaned_data
        team_a = Q(player_0=user) | Q(player_2=user)
        team_b = Q(player_1=user) | Q(player_3=user)
        if d["result"] == "win":
            qs = qs.filter((team_a & Q(winner=Winner.A)) | (team_b & Q(winner=Winner.B)),
                           status=MatchStatus.FINISHED)
        elif d["result"] == "loss":
            qs = qs.filter((team_a & Q(winner=Winner.B)) | (team_b & Q(winner=Winner.A)),
                           status=MatchStatus.FINISHED)
        elif d["result"] == "draw":
            qs = qs.filter(winner=Winner.DRAW, status=MatchStatus.FINISHED)
        elif d["result"] == "running":
            qs = qs.filter(status=MatchStatus.RUNNING)
        p = d.get("partner")
        if p:
            qs = qs.filter(Q(player_0=user, player_2=p) | Q(player_2=user, player_0=p)
                           | Q(player_1=user, player_3=p) | Q(player_3=user, player_1=p))
        if d.get("room"):
            qs = qs.filter(room_id=d["room"])
        # Ranges on the indexed column itself (no date() around it), in the site's time zone.
        tz = timezone.get_current_timezone()
        if d.get("date_from"):
            qs = qs.filter(started__gte=datetime.combine(d["date_from"], time.min, tz))
        if d.get("date_to"):
            qs = qs.filter(started__lt=datetime.combine(d["date_to"] + timedelta(days=1),
                                                        time.min, tz))
        return qs


def _row(match: Match, user: Any) -> dict[str, Any]:
    players = match.players
    seat = next(i for i, p in enumerate(players) if p.pk == user.pk)
    team = seat % 2
    totals = (match.total_a, match.total_b)
    if match.status == MatchStatus.FINISHED:
        if match.winner == Winner.DRAW:
            result, label = "draw", _("Drawn")
        elif match.winner == team_of(team):
            result, label = "win", _("Won")
        else:
            result, label = "loss", _("Lost")
    elif match.status == MatchStatus.RUNNING:
        result, label = "running", _("Running")
    else:
        result, label = "abandoned", _("Abandoned")
    try:
        # A tournament's Partie: its room is a table of a round (issue #26 item 7).
        tournament = match.room.tournament_table.round.tournament
    except ObjectDoesNotExist:
        tournament = None
    return {
        "match": match,
        "tournament": tournament,
        "partner": players[(seat + 2) % 4],
        "opponents": [players[(seat + 1) % 4], players[(seat + 3) % 4]],
        "result": result,
        "result_label": label,
        "ours": totals[team],
        "theirs": totals[1 - team],
        "team": team_of(team),
    }


@login_required
@require_GET
def match_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    form = HistoryFilter(request.GET or None, user)
    qs = form.apply(_mine(user), user).select_related(
        "room", "player_0", "player_1", "player_2", "player_3",
        "room__tournament_table__round__tournament").order_by("-started", "-pk")
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "games/history/match_list.html", {
        "form": form,
        "page": page,
        "rows": [_row(m, user) for m in page.object_list],
        "query": query.urlencode(),
    })


# How many of a player's recent public matches their page lists.
PLAYER_PAGE_MATCHES = 10


@require_GET
def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's public page (issue #24 item 15): the name, the rating and its chart, finished
    N of M, and the recent finished matches of public rooms and of tournament rounds that have
    closed, each with its result from this player's side. Nothing a stranger may not see: no
    presence, no login name, no private room. A player who blocked the viewer has no page for
    them (404, as if none existed), and bots and deleted accounts have none."""
    player = get_object_or_404(get_user_model(), pk=pk, is_active=True, is_bot=False)
    viewer = request.user
    if viewer.is_authenticated and Block.objects.filter(blocker=player, blocked=viewer).exists():
        raise Http404
    seat_of = (Q(player_0=player) | Q(player_1=player) | Q(player_2=player)
               | Q(player_3=player))
    recent = (Match.objects.filter(seat_of, Q(room__visibility=Visibility.PUBLIC)
                                   | _closed_tournament_rounds(viewer),
                                   status=MatchStatus.FINISHED)
              .select_related("room", "player_0", "player_1", "player_2", "player_3",
                              "room__tournament_table__round__tournament")
              .order_by("-started", "-pk")[:PLAYER_PAGE_MATCHES])
    rows = [_row(m, player) for m in recent]
    for row in rows:
        # A tournament's Partie is listed with its result; its page only opens for whom the
        # tournament lets look on (spectators off: its four players).
        row["viewable"] = access.may_view(row["match"], viewer)
    return render(request, "games/history/player.html", {"player": player, "rows": rows})


def _closed_tournament_rounds(viewer: Any) -> Q:
    """The Partien of tournament rounds that have closed (issue #26 item 7: profiles show
    them), of an open tournament, or of a club's to its members: what its standings show."""
    closed = Q(room__tournament_table__round__status=RoundStatus.CLOSED)
    club = "room__tournament_table__round__tournament__club"
    audience = Q(**{f"{club}__isnull": True})
    if getattr(viewer, "is_authenticated", False):
        audience |= Q(Exists(Membership.objects.filter(club_id=OuterRef(f"{club}_id"),
                                                       user_id=viewer.pk)))
    return closed & audience


def _match_or_404(request: HttpRequest, pk: int) -> Match:
    """The match, if this user may see it (games/history/access.py); else 404, as if it did
    not exist."""
    match = get_object_or_404(
        Match.objects.select_related("room", "player_0", "player_1", "player_2", "player_3"),
        pk=pk)
    if not access.may_view(match, request.user):
        raise Http404
    return match


@login_required
@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match_or_404(request, pk)
    rounds = list(Round.objects.filter(match=match).order_by("number")
                  .only("pk", "match_id", "number", "dealer", "is_bock", "points_a", "points_b")
                  .prefetch_related(
                      Prefetch("tricks", queryset=Trick.objects.only(
                          "pk", "round_id", "number", "winner", "buob_call", "cards")),
                      Prefetch("narr_debts", queryset=NarrDebt.objects.select_related("trick"))))
    public = access.cards_shown(match)
    players = match.players
    seats = [{"index": i, "team": team_of(i), "player": p} for i, p in enumerate(players)]
    you = next((i for i, p in enumerate(players) if p.pk == request.user.pk), None)
    return render(request, "games/history/match_detail.html", {
        "match": match,
        "seats": seats,
        "you": you,
        "public": public,
        "deals": history.deal_summaries(match, rounds),
        "figures": player_figures([p.public_name for p in players],
                                  [t for r in rounds for t in r.tricks.all()]),
        "chart": history.score_chart(rounds),
        "status_label": match.get_status_display(),
        "replay_labels": _replay_labels() if public else None,
        # The replay draws the table's cards: the same sprite and card names (static/js/cards.js).
        "replay_cards": {"sprite": static("cards/cards.svg"), "names": card_names()}
        if public else None,
    })


def _replay_labels() -> dict[str, Any]:
    """The viewer's words, in the page's language (static/js/replay.js has none of its own)."""
    return {
        "phase": {k: str(v) for k, v in Phase.choices},
        "talk": _("Table talk"),
        "action": {
            "start_round": _("The first deal starts"),
            "regame": _("A new deal starts"),
            "deal_next_pass": _("deals a pass"),
            "end_reveal": _("The reveal window closes"),
            "discard_scart": _("discards the Scart"),
            "play_card": _("plays"),
            "call_buob": _("calls BUOB"),
            "turn_timeout": _("The timer ran out"),
            "end_match": _("The match ends"),
        },
        "deal": _("Deal"), "dealer": _("Dealer"), "trick": _("Trick"), "scart": _("Scart"),
        "reveal": _("Reveal cards"), "tricks_won": _("Tricks won"), "totals": _("Match total"),
        "points": _("Points"),
        "cards_one": ngettext("%(n)s card", "%(n)s cards", 1),
        "cards": ngettext("%(n)s card", "%(n)s cards", 2), "team": _("Team"), "bock": _("Bock ×2"),
        "narr_debt": _("Narr debt"), "won_by": _("won by"), "buob": _("BUOB"),
        "step": _("Step"), "error": _("The replay could not be loaded."),
        # The copy button of "share a moment" (issue #24 item 15).
        "copied": _("Link copied: it opens this deal and trick."),
        "copy_by_hand": _("Copy this link by hand:"),
        # The BUOB call and its exchange in the table's own words (games/text/table.py).
        "buob_called": _("%(caller)s called BUOB on %(suit)s: %(target)s (%(mode)s)."),
        "buob_exchange": _("BUOB exchange: %(card)s went back to %(name)s, %(jack)s came in."),
        "buob_jack_in": _("BUOB: %(name)s played the called jack, %(jack)s."),
        "mode": {"forced": _("forced jack play"), "deferred": _("deferred exchange"),
                 "self": _("self-BUOB")},
        "suit": {"C": _("cups"), "R": _("coins"), "S": _("swords"), "B": _("batons")},
        "face_down": _("face-down card"),
        "debt_status": {k: str(v) for k, v in DebtStatus.choices},
    }


def _not_finished() -> JsonResponse:
    return JsonResponse({"error": "MATCH_NOT_FINISHED",
                         "message": _("This match is still running: its cards stay hidden "
                                      "until it is over.")}, status=403)


@login_required
@require_GET
def match_replay(request: HttpRequest, pk: int) -> JsonResponse:
    match = _match_or_404(request, pk)
    if not access.cards_shown(match):
        return _not_finished()
    return JsonResponse(history.replay_data(match, request.user.pk))


@login_required
@require_GET
def match_transcript(request: HttpRequest, pk: int) -> JsonResponse:
    """The finished match as `troccas-transcript/1`, as a download."""
    match = _match_or_404(request, pk)
    if not access.cards_shown(match):
        return _not_finished()
    response = JsonResponse(history.transcript(match), json_dumps_params={"indent": 1})
    # Named by the match's id: the room's invite code is a private room's key.
    name = f"troccas-match-{match.pk}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# --- standings -------------------------------------------------------------------------------

SORTS = {
    "rating": ("-rating", gettext_lazy("Rating")),
    "matches": ("-matches", gettext_lazy("Matches")),
    "wins": ("-wins", gettext_lazy("Wins")),
    "deals_won": ("-deals_won", gettext_lazy("Deals won")),
    "avg_points": ("-avg_points", gettext_lazy("Average points per deal")),
    "buob_calls": ("-buob_calls", gettext_lazy("BUOB calls")),
}


def _columns() -> list[tuple[str, Any, bool]]:
    """The table's columns in order: (key, heading, sortable)."""
    fixed = {"draws": _("Draws"), "losses": _("Losses"), "buob_won": _("BUOB calls won")}
    order = ["rating", "matches", "wins", "draws", "losses", "deals_won", "avg_points",
             "buob_calls", "buob_won"]
    return [(k, SORTS[k][1], True) if k in SORTS else (k, fixed[k], False) for k in order]


@login_required
@require_GET
def standings(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("view", "players")
    if kind not in ("players", "pairs"):
        raise Http404
    sort = request.GET.get("sort", "rating")
    if sort not in SORTS:
        sort = "rating"
    qs: QuerySet[PlayerRating] | QuerySet[PairStats]
    if kind == "players":
        qs = PlayerRating.objects.select_related("user").filter(matches__gt=0)
    else:
        qs = PairStats.objects.select_related("player_low", "player_high").filter(
            matches__gt=0)
    # Only lines with enough rated matches are ranked (issue #24 item 3); the others are listed
    # apart, with how far they are, so a missing name is explained rather than a mystery.
    page = Paginator(qs.filter(matches__gte=PROVISIONAL_MATCHES).order_by(SORTS[sort][0], "pk"),
                     PAGE_SIZE).get_page(request.GET.get("page"))
    not_ranked = list(qs.filter(matches__lt=PROVISIONAL_MATCHES).order_by("-matches", "pk")
                      [:PAGE_SIZE])
    return render(request, "games/history/standings.html", {
        "kind": kind,
        "sort": sort,
        "columns": _columns(),
        "page": page,
        "not_ranked": not_ranked,
        "needed": PROVISIONAL_MATCHES,
        "offset": page.start_index() - 1 if page.paginator.count else 0,
    })
