"""A review of one's own play in a deal (issue #28 item 3): the page, its progress for the
page's script, and "try again from here". The player of the seat alone: anyone else gets a
404, as if there were nothing (games/teaching/reviews.py holds the rules)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.signed_in import signed_in_user
from games import services
from games.engine.errors import ErrorCode
from games.models import DealReview, Match, ReviewStatus
from games.services.errors import ServiceError
from games.teaching import reviews
from games.text.cards import card_name
from games.text.errors import message_for


def _match(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("room", "player_0", "player_1", "player_2", "player_3"),
        pk=pk)


def _progress(review: DealReview | None) -> dict[str, Any]:
    if review is None:
        return {"status": None, "done": 0, "total": 0}
    return {"status": review.status, "done": review.done, "total": review.total}


def _names(cards: Any) -> str:
    if isinstance(cards, list):
        return " + ".join(card_name(c) for c in cards)
    return card_name(str(cards))


@login_required
@require_http_methods(["GET", "POST"])
def deal_review(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """GET: the review (or the button to ask for one); POST: ask for it."""
    user = signed_in_user(request)
    match = _match(pk)
    try:
        review = (reviews.ask(user, match, number) if request.method == "POST"
                  else reviews.find(user, match, number))
    except ServiceError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            raise Http404 from exc
        messages.error(request, message_for(exc.code))
        return redirect("games:match", pk=pk)
    if request.method == "POST":
        return redirect("games:deal_review", pk=pk, number=number)
    rows = []
    if review is not None and review.status == ReviewStatus.DONE:
        for r in review.result:
            rows.append({**r, "played_name": _names(r["played"]),
                         "best_name": _names(r["best"])})
    practice = reviews.is_practice(match)
    response = render(request, "games/history/deal_review.html", {
        "match": match, "number": number, "review": review, "rows": rows,
        "costly": [r for r in rows if r["costly"]],
        "summary": reviews.summary(review) if review is not None else None,
        "practice": practice, "progress": _progress(review),
        "state_url": reverse("games:deal_review_state", args=[pk, number]),
    })
    add_never_cache_headers(response)
    return response


@login_required
@require_GET
def deal_review_state(request: HttpRequest, pk: int, number: int) -> JsonResponse:
    """The review's progress, for the page's bar."""
    try:
        review = reviews.find(signed_in_user(request), _match(pk), number)
    except ServiceError as exc:
        response = JsonResponse({"code": str(exc.code), "message": message_for(exc.code)},
                                status=exc.status)
    else:
        response = JsonResponse(_progress(review))
    add_never_cache_headers(response)
    return response


@login_required
@require_POST
def try_again(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A new practice table at the position of one of the player's decisions: the same hands,
    the same cards played up to it (practice tables' deals only)."""
    user = signed_in_user(request)
    match = _match(pk)
    try:
        review = reviews.find(user, match, number)
        if review is None or review.status != ReviewStatus.DONE or not reviews.is_practice(match):
            raise ServiceError(ErrorCode.NOT_FOUND)
        version = int(request.POST.get("version", ""))
        level = next((p.bot_level for p in match.players if p is not None and p.is_bot), "")
        room = services.create_practice_table(
            user, level or "easy", {**match.options, "turn_seconds": 0},
            position=reviews.position(review, version))
    except ValueError:
        messages.error(request, message_for(ErrorCode.INVALID_FIELD))
        return redirect("games:deal_review", pk=pk, number=number)
    except ServiceError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            raise Http404 from exc
        messages.error(request, message_for(exc.code))
        return redirect("games:deal_review", pk=pk, number=number)
    return redirect(room)
