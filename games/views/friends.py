"""The friends pages (issue #17): find a player by name, friend requests in and out, the
friends list with who is online and at which public table, blocks, the notification list, and
inviting a friend from a room's page. Thin doors: each POST calls one function of games/talk/
and says what happened (or the refusal's translated sentence) on the page it returns to."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.signed_in import signed_in_user
from accounts.site_url import site_url
from games.engine.errors import TroccasError
from games.history.reliability import finished_record
from games.models import Block, FriendRequest, Room
from games.services.errors import ServiceError
from games.talk import blocks, friends, invitations, moderation, notifications, online
from games.text.errors import message_for

SEARCH_PAGE_SIZE = 20


def _back(request: HttpRequest) -> HttpResponse:
    """Back to the page the form was on (a local `next`), else the friends page."""
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = reverse("games:friends")
    return redirect(target)


def _target_id(request: HttpRequest) -> int | None:
    raw = request.POST.get("user", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 12 else None


@login_required
@require_GET
def friends_page(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    mine = friends.friends_of(user)
    ids = [f.pk for f in mine]
    here = online.online_ids(ids)
    tables = online.public_tables(ids)
    rows = [{"user": f, "online": f.pk in here, "table": tables.get(f.pk)} for f in mine]
    rows.sort(key=lambda r: not r["online"])
    return render(request, "games/friends.html", {
        "friends": rows,
        "requests_in": friends.requests_in(user),
        "requests_out": friends.requests_out(user),
        "blocked": blocks.blocked_by_me(user),
        "muted": moderation.muted_by(user),
        "online_count": online.online_count(),
    })


@login_required
@require_GET
def find_players(request: HttpRequest) -> HttpResponse:
    """Players by name: a part of the name they show, any case (friends.search_players). No
    e-mail address and no login username is shown; whether someone is online is shown only
    for friends (a block ends a friendship, so never across one; issue #25 item 6)."""
    user = signed_in_user(request)
    query = request.GET.get("q", "")[:40]
    page = Paginator(friends.search_players(query, user), SEARCH_PAGE_SIZE).get_page(
        request.GET.get("page"))
    ids = [p.pk for p in page]
    mine = friends.friend_ids(user.pk)
    sent = set(FriendRequest.objects.filter(sender=user, recipient_id__in=ids)
               .values_list("recipient_id", flat=True))
    received = set(FriendRequest.objects.filter(recipient=user, sender_id__in=ids)
                   .values_list("sender_id", flat=True))
    blocked = set(Block.objects.filter(blocker=user, blocked_id__in=ids)
                  .values_list("blocked_id", flat=True))
    here = online.online_ids([pk for pk in ids if pk in mine])
    rows = [{"user": p, "friend": p.pk in mine, "sent": p.pk in sent,
             "received": p.pk in received, "blocked": p.pk in blocked,
             "online": p.pk in here, "record": finished_record(p)} for p in page]
    return render(request, "games/find_players.html", {
        "q": query.strip(), "page": page, "rows": rows,
        "too_short": 0 < len(query.strip()) < friends.SEARCH_MIN_LENGTH,
        "query": urlencode({"q": query.strip()}) if query.strip() else "",
    })


def _act(request: HttpRequest, action: Callable[[User, int], object], done: str) -> HttpResponse:
    target = _target_id(request)
    try:
        if target is None:
            raise ServiceError("PLAYER_NOT_FOUND")
        action(signed_in_user(request), target)
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
    else:
        messages.success(request, done)
    return _back(request)


@login_required
@require_POST
def send_request(request: HttpRequest) -> HttpResponse:
    target = _target_id(request)
    try:
        if target is None:
            raise ServiceError("PLAYER_NOT_FOUND")
        now_friends = friends.send_request(signed_in_user(request), target)
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
    else:
        messages.success(request, _("You are friends now.") if now_friends
                         else _("Your friend request has been sent."))
    return _back(request)


@login_required
@require_POST
def accept_request(request: HttpRequest) -> HttpResponse:
    return _act(request, friends.accept, _("You are friends now."))


@login_required
@require_POST
def decline_request(request: HttpRequest) -> HttpResponse:
    return _act(request, friends.decline, _("The friend request has been declined."))


@login_required
@require_POST
def cancel_request(request: HttpRequest) -> HttpResponse:
    return _act(request, friends.cancel, _("Your friend request has been withdrawn."))


@login_required
@require_POST
def unfriend(request: HttpRequest) -> HttpResponse:
    return _act(request, friends.unfriend, _("You are no longer friends."))


@login_required
@require_POST
def block(request: HttpRequest) -> HttpResponse:
    return _act(request, blocks.block, _("The player has been blocked."))


@login_required
@require_POST
def unblock(request: HttpRequest) -> HttpResponse:
    return _act(request, blocks.unblock, _("The player is no longer blocked."))


@login_required
@require_POST
def unmute(request: HttpRequest) -> HttpResponse:
    """Read a muted player's table talk again (the table's panel does the same live)."""
    target = _target_id(request)
    try:
        if target is None:
            raise ServiceError("PLAYER_NOT_FOUND")
        moderation.set_mute(signed_in_user(request), target, False)
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
    else:
        messages.success(request, _("You read this player's table talk again."))
    return _back(request)


@login_required
@require_POST
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """The room page's "invite a friend": the friend gets a notification (and an e-mail if
    they asked for one) with the room's invite link."""
    room = get_object_or_404(Room, code=code.lower())
    target = _target_id(request)
    try:
        if target is None:
            raise ServiceError("PLAYER_NOT_FOUND")
        friend = invitations.invite(signed_in_user(request), room, target,
                                    site_url(request) + "/")
    except TroccasError as exc:
        messages.error(request, message_for(exc.code))
    else:
        messages.success(request, _("%(name)s has been invited to this table.")
                         % {"name": friend.public_name})
    return redirect(room)


@login_required
@require_GET
def invitable(request: HttpRequest, code: str) -> JsonResponse:
    """The room drawer's "Invite a friend" list as it is now (issue #24 item 9): the page asks
    again when its site socket says `friends` (a friend accepted, removed or blocked while the
    drawer is open). The same list as the page's own (invitations.invitable_friends), to the
    same people: a seated player of an open room; anyone else gets an empty list."""
    room = get_object_or_404(Room, code=code.lower())
    user = signed_in_user(request)
    rows: list[dict[str, object]] = []
    if room.is_open and room.seats.filter(user=user).exists():
        found = invitations.invitable_friends(user, room)
        here = online.online_ids(f.pk for f in found)
        rows = [{"id": f.pk, "name": f.public_name, "online": f.pk in here} for f in found]
    response = JsonResponse({"friends": rows})
    add_never_cache_headers(response)
    return response


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    """The notifications, the latest first; seeing the list marks them read."""
    user = signed_in_user(request)
    rows = [{"notice": n, "text": notifications.text_of(n), "unread": n.read_at is None,
             "link": notifications.link_of(n)}
            for n in notifications.recent(user)]
    notifications.mark_all_read(user)
    return render(request, "games/notifications.html", {"rows": rows})
