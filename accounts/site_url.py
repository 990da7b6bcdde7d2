"""The site's own address, for links in mail (issue #25 item 2): never anything a client chose.

`settings.TROCCAS_SITE_URL` when set; otherwise the request's scheme and host, which Django's
`get_host()` checks against ALLOWED_HOSTS (a host not listed there is refused before any mail is
written). Every mail the site sends builds its links from here.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def site_url(request: HttpRequest) -> str:
    """`https://host` (no trailing slash) of this site."""
    configured: str = settings.TROCCAS_SITE_URL
    if configured:
        return configured
    return f"{request.scheme}://{request.get_host()}"
