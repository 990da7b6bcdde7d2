"""URLs: every page lives under a language prefix (/en/, /rm/, /de/, /fr/); the language switch
and the health check do not, so they work from any page and for any probe."""

from __future__ import annotations

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.views import set_language

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


urlpatterns = [
    path("i18n/setlang/", set_language, name="set_language"),
    path("healthz", healthz, name="healthz"),
]

urlpatterns += i18n_patterns(
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("admin/", admin.site.urls),
    prefix_default_language=True,
)

handler404 = "troccas_site.views.page_not_found"
handler500 = "troccas_site.views.server_error"
