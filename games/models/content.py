"""The site's translated content: FAQ entries and home-page announcements
(django-modeltranslation adds a column per language, games/translation.py)."""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class FAQEntry(models.Model):
    """A question and answer on the FAQ page; translated in the admin (modeltranslation)."""

    question = models.CharField(_("question"), max_length=200)
    answer = models.TextField(_("answer"))
    order = models.PositiveIntegerField(_("order"), default=0, db_index=True)
    published = models.BooleanField(_("published"), default=True, db_index=True)

    # Declared: modeltranslation swaps in a manager class built at run time, which the type
    # checker cannot name (it is a Manager of this model all the same).
    objects: ClassVar[models.Manager[FAQEntry]]

    class Meta:
        verbose_name = _("FAQ entry")
        verbose_name_plural = _("FAQ entries")
        ordering = ["order", "pk"]

    def __str__(self) -> str:
        return self.question


class Announcement(models.Model):
    """News on the home page; translated in the admin (modeltranslation)."""

    title = models.CharField(_("title"), max_length=120)
    body = models.TextField(_("text"))
    published = models.BooleanField(_("published"), default=True, db_index=True)
    created = models.DateTimeField(_("created"), default=timezone.now, db_index=True)

    objects: ClassVar[models.Manager[Announcement]]  # as FAQEntry's

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.title
