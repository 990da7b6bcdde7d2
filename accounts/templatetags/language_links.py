"""`{% language_alternates as alternates %}`: the current page in every language, for the
`<link rel="alternate" hreflang>` tags of templates/base.html (and for search engines to tell
the language versions of one page apart).

Each page under a language prefix has one URL per language (translate_url). x-default is the
same path without a prefix: the locale middleware redirects it to the visitor's language
(profile, cookie, then Accept-Language), which is what x-default means.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.conf import settings
from django.urls import translate_url
from django.utils.translation import get_language_from_path

register = template.Library()


@dataclass(frozen=True)
class Alternate:
    hreflang: str
    href: str


@register.simple_tag(takes_context=True)
def language_alternates(context: template.Context) -> list[Alternate]:
    request = context.get("request")
    if request is None or request.method not in ("GET", "HEAD"):
        return []
    current = request.get_full_path()
    prefix = get_language_from_path(request.path_info)
    if not prefix:
        return []  # a page outside the language prefixes has a single version
    urls = {code: translate_url(current, code) for code, _name in settings.LANGUAGES}
    if any(url == current for code, url in urls.items() if code != prefix):
        return []  # not a resolvable page (a 404, say): no language versions to point to
    alternates = [
        Alternate(code, request.build_absolute_uri(url)) for code, url in urls.items()
    ]
    unprefixed = current[len(prefix) + 1:]
    alternates.append(Alternate("x-default", request.build_absolute_uri(unprefixed)))
    return alternates
