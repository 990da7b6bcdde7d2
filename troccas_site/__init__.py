"""The Django project of Troccas Online. Importing it loads the Celery app, so shared_task
decorators in the apps bind to it (the documented Celery-with-Django layout)."""

from .celery import app as celery_app

__all__ = ["celery_app"]
