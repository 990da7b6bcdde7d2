"""Error pages in the site's style and language."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    # No context processors: after a crash the database (user, messages) may be what broke.
    template = loader.get_template("500.html")
    return HttpResponseServerError(template.render({"request_path": request.path}))
