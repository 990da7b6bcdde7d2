"""Half-sent HTTP requests (issue #25 item 14): a connection whose request does not arrive
whole within TROCCAS_REQUEST_TIMEOUT is closed (troccas_site/http_protocol.py), whichever of
uvicorn's HTTP implementations serves it; complete requests and keep-alive still work.

These tests measure time because the issue asks for a deadline: the margins are generous."""

from __future__ import annotations

import os
import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.support.servers import uvicorn_server

DEADLINE = 2.0
MARGIN = 8.0  # a loaded machine of two shared cores
PROTOCOLS = {
    "httptools": "troccas_site.http_protocol:RequestDeadlineProtocol",
    "h11": "troccas_site.http_protocol:DeadlineH11Protocol",
}


@pytest.fixture(params=sorted(PROTOCOLS), scope="module")
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[str, int]]:
    tmp = tmp_path_factory.mktemp(f"deadline-{request.param}")
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="troccas_site.settings",
               TROCCAS_SQLITE_PATH=str(tmp / "site.sqlite3"),
               DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
               TROCCAS_REQUEST_TIMEOUT=str(DEADLINE))
    with uvicorn_server(env, Path(tmp) / "uvicorn.log",
                        args=("--http", PROTOCOLS[request.param])) as base:
        parts = urlsplit(base)
        assert parts.hostname and parts.port
        yield parts.hostname, parts.port


def closed_after(sock: socket.socket, limit: float, trickle: bytes = b"") -> float:
    """Seconds until the server closes `sock` (reads return b""), sending `trickle` one byte
    every 0.3 s meanwhile; fails after `limit`."""
    start = time.monotonic()
    sock.settimeout(0.3)
    sent = 0
    while time.monotonic() - start < limit:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            pass
        except ConnectionResetError:
            return time.monotonic() - start
        if trickle:
            try:
                sock.sendall(trickle[sent % len(trickle):][:1])
            except (BrokenPipeError, ConnectionResetError):
                return time.monotonic() - start
            sent += 1
    pytest.fail(f"the connection was still open after {limit} s")


@pytest.mark.timeout(120)
def test_half_a_request_line_is_closed_after_the_deadline(server: tuple[str, int]) -> None:
    with socket.create_connection(server, timeout=5) as sock:
        sock.sendall(b"GET /heal")
        elapsed = closed_after(sock, DEADLINE + MARGIN)
    assert elapsed >= DEADLINE * 0.5  # the deadline, not an instant refusal


@pytest.mark.timeout(120)
def test_headers_trickled_byte_by_byte_are_closed_after_the_deadline(
        server: tuple[str, int]) -> None:
    with socket.create_connection(server, timeout=5) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed_after(sock, DEADLINE + MARGIN, trickle=b"X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaa")


@pytest.mark.timeout(120)
def test_a_silent_connection_is_closed_after_the_deadline(server: tuple[str, int]) -> None:
    with socket.create_connection(server, timeout=5) as sock:
        closed_after(sock, DEADLINE + MARGIN)


def _length(answer: bytes) -> int:
    """The length of the whole response whose headers `answer` holds."""
    head, _sep, _body = answer.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _colon, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + 4 + int(value.strip())
    return len(head) + 4


@pytest.mark.timeout(120)
def test_whole_requests_are_answered_on_a_kept_alive_connection(server: tuple[str, int]
                                                                ) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(server, timeout=10) as sock:
        for _ in range(2):
            sock.sendall(request)
            answer = b""
            # The whole response, its body included (the headers and body may come in one
            # read or two): what is left over would read as the next answer's start.
            while b"\r\n\r\n" not in answer or len(answer) < _length(answer):
                chunk = sock.recv(4096)
                assert chunk, "closed before answering"
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200")
            # Waiting longer than the deadline between requests is fine only up to the
            # keep-alive's own 5 s; a pause below the deadline keeps the connection.
            time.sleep(DEADLINE / 4)
