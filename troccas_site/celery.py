"""The Celery app "troccas": configured from Django settings (namespace CELERY_) and
discovering each app's tasks.py.

In the embedded mode the broker is ``memory://`` and no worker runs: the timers call the same
task functions in-process. Importing this module never opens a connection.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "troccas_site.settings")

app = Celery("troccas")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
