"""Websocket routes, mounted by troccas_site.asgi under the origin check and session auth."""

from __future__ import annotations

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
