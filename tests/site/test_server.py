"""The embedded topology end to end: migrate, collectstatic, one uvicorn process serving
pages, static files (no proxy) and the health check; plus the ASGI router's websocket door."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from channels.testing import WebsocketCommunicator

from tests.support.servers import uvicorn_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def embedded_server(tmp_path) -> Iterator[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="troccas_site.settings",
        TROCCAS_SQLITE_PATH=str(tmp_path / "site.sqlite3"),
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    python = sys.executable
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"],
                    ["demo_data"]):
        done = subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
    with uvicorn_server(env, tmp_path / "uvicorn.log") as base:
        yield base


@pytest.mark.timeout(300)
def test_one_process_serves_pages_static_files_and_logins(embedded_server: str):
    with httpx.Client(base_url=embedded_server, timeout=10) as http:
        root = http.get("/", headers={"accept-language": "rm"})
        assert root.status_code == 302 and root.headers["location"] == "/rm/"
        home = http.get("/rm/")
        assert home.status_code == 200
        assert "Maisas avertas" in home.text and "Bainvegni tar Troccas Online" in home.text
        # Hashed, compressed static files, served by the ASGI process itself.
        css = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', home.text)
        assert css, "manifest storage names the stylesheet with its hash"
        sheet = http.get(css.group(1), headers={"accept-encoding": "gzip"})
        assert sheet.status_code == 200
        assert sheet.headers["content-type"].startswith("text/css")
        assert "max-age=315360000" in sheet.headers.get("cache-control", "")
        assert http.get("/static/admin/css/base.css").status_code == 200
        # The demo admin can log in through the real stack (CSRF, session, rate limiter).
        login = http.get("/en/admin/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text).group(1)
        done = http.post("/en/admin/login/?next=/en/admin/", data={
            "csrfmiddlewaretoken": token, "username": "admin", "password": "troccas-admin",
            "next": "/en/admin/",
        })
        assert done.status_code == 302 and done.headers["location"] == "/en/admin/"
        assert "Troccas Online administration" in http.get("/en/admin/").text
        assert http.get("/en/no-such-page/").status_code == 404


@pytest.mark.asyncio
@pytest.mark.timeout(30)
# The denying consumer still closes old database connections, as every Channels consumer does.
@pytest.mark.django_db(transaction=True)
async def test_websockets_from_a_foreign_origin_are_refused():
    from troccas_site.asgi import application

    communicator = WebsocketCommunicator(
        application, "/ws/anything/", headers=[(b"origin", b"https://evil.example"),
                                               (b"host", b"127.0.0.1:8000")],
    )
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


def test_the_asgi_router_has_http_websocket_and_lifespan():
    from channels.routing import ProtocolTypeRouter

    from troccas_site.asgi import application

    assert isinstance(application, ProtocolTypeRouter)
    # lifespan: the embedded mode's timers and bots start with the server (games/live/lifespan).
    assert set(application.application_mapping) == {"http", "websocket", "lifespan"}
