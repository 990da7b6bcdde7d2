# Troccas Online: one image for web (uvicorn), worker and beat (Celery).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# gettext: msgfmt for compilemessages.
RUN apt-get update \
    && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY accounts ./accounts
COPY games ./games
COPY troccas_site ./troccas_site
RUN pip install .

COPY . .
# Build-time only: no database or Redis is needed to compile catalogs and collect static files.
RUN DJANGO_SECRET_KEY=build-only-not-secret-build-only-not-secret-build-only \
    python manage.py compilemessages --ignore=.venv -v 0 \
    && DJANGO_SECRET_KEY=build-only-not-secret-build-only-not-secret-build-only \
    python manage.py collectstatic --noinput -v 0

RUN useradd --create-home --uid 1000 troccas && chown -R troccas /app
USER troccas

EXPOSE 8000
# The request deadline and limits of issue #25 item 14 (the Makefile's SERVER_LIMITS).
CMD ["uvicorn", "troccas_site.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--workers", "1", \
     "--http", "troccas_site.http_protocol:RequestDeadlineProtocol", "--timeout-keep-alive", "5", \
     "--h11-max-incomplete-event-size", "16384", "--limit-concurrency", "2000"]
