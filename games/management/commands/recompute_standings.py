"""Rebuild the standings (player and pair statistics, ratings, rating history) from the
finished matches, in the order they ended. Gives the same numbers as the live updates."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.history import standings


class Command(BaseCommand):
    help = "Rebuild standings and ratings from every finished match."

    def handle(self, *args: Any, **options: Any) -> None:
        players, pairs = standings.recompute()
        self.stdout.write(f"standings rebuilt: {players} players, {pairs} pairs")
