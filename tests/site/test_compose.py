"""docker-compose.yml runs the distributed topology with health checks (Docker itself cannot
run here, so the file's shape is what is tested; README gives the same topology locally)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_the_distributed_topology_with_health_checks():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(services)
    for name in ("postgres", "redis", "web", "worker", "beat"):
        assert services[name].get("healthcheck", {}).get("test"), name
    assert "uvicorn" in services["web"]["command"]
    assert "troccas_site.asgi:application" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "troccas_site", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "troccas_site", "beat"]
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://")
        assert services[name]["depends_on"]["migrate"]["condition"] == (
            "service_completed_successfully"
        )


def test_dockerfile_builds_catalogs_and_static_files():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert dockerfile.startswith("# Troccas Online") and "FROM python:3.11-slim" in dockerfile
    for step in ("gettext", "pip install .", "compilemessages", "collectstatic"):
        assert step in dockerfile
