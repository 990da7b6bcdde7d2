"""URLs: every page lives under a language prefix (/en/, /rm/, /de/, /fr/); the language switch,
the health check and the JSON API do not, so they work from any page, probe or client."""

from __future__ import annotations

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.forms import AdminLoginForm
from accounts.views import set_language
from games.views import api, queue, tournament_api, tournament_desk, tournament_results

# The admin's log-in goes through the site's limiter and says so when it refuses.
admin.site.login_form = AdminLoginForm
admin.site.site_header = _("Troccas Online administration")
admin.site.site_title = _("Troccas Online")
admin.site.index_title = _("Tables, players and site content")


@never_cache
@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for the container health checks: the process answers and the database too."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})


urlpatterns: list[URLPattern | URLResolver] = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("healthz", healthz, name="healthz"),
    # The JSON API (docs/protocol.md): one URL for every language, like the websocket; the
    # language of its error messages comes from the profile, the cookie or Accept-Language.
    path("api/login", api.login_view, name="api_login"),
    path("api/logout", api.logout_view, name="api_logout"),
    path("api/rooms", api.rooms_view, name="api_rooms"),
    path("api/rooms/<str:code>", api.room_view, name="api_room"),
    path("api/queue", queue.queue_view, name="api_queue"),
    path("api/queue/leave", queue.queue_leave_view, name="api_queue_leave"),
    path("api/queue/bots", queue.queue_bots_view, name="api_queue_bots"),
    path("api/tournaments/<int:pk>/standings", tournament_results.api_standings,
         name="api_tournament_standings"),
    path("api/tournaments/<int:pk>/rounds/<int:number>", tournament_results.api_round,
         name="api_tournament_round"),
    path("api/tournaments/<int:pk>/desk", tournament_desk.api_desk, name="api_tournament_desk"),
    path("api/tournaments/<int:pk>/desk/<str:action>", tournament_desk.api_action,
         name="api_tournament_desk_action"),
    # A tournament's id as the database can hold it (1 to 18 digits, games/views/converters.py).
    path("api/tournaments", tournament_api.tournaments_view, name="api_tournaments"),
    re_path(r"^api/tournaments/(?P<pk>[0-9]{1,18})$", tournament_api.tournament_view,
            name="api_tournament"),
    re_path(r"^api/tournaments/(?P<pk>[0-9]{1,18})/register$", tournament_api.register_view,
            name="api_tournament_register"),
    re_path(r"^api/tournaments/(?P<pk>[0-9]{1,18})/withdraw$", tournament_api.withdraw_view,
            name="api_tournament_withdraw"),
    re_path(r"^api/tournaments/(?P<pk>[0-9]{1,18})/check-in$", tournament_api.check_in_view,
            name="api_tournament_check_in"),
    path("api/<path:rest>", api.not_found_view),
]

urlpatterns += i18n_patterns(
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=True,
)

handler404 = "troccas_site.views.page_not_found"
handler500 = "troccas_site.views.server_error"
