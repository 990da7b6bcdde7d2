"""The audit log's filters: a tournament's director actions, each said in words."""

from __future__ import annotations

from django import template
from django.db.models import QuerySet

from games.clubs.desk import describe
from games.models import DirectorAction, Tournament

register = template.Library()


@register.filter
def director_actions(tournament: Tournament) -> QuerySet[DirectorAction]:
    return tournament.director_actions.select_related("actor").order_by("created", "pk")


@register.filter
def describe_action(action: DirectorAction) -> str:
    return describe(action)
