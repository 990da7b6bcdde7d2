"""Clubs and tournaments (issue #26): clubs and their members (membership.py), tournaments
with their Swiss and round-robin stages, duplicate decks, the round runner (which creates its
tables through the services), the director's desk and the results.

`pairing` (a round's pairings, by maximum-weight matching) and `ranking` (the standings from
the results) are pure: they import nothing of Django, Channels or Celery (an import contract in
pyproject.toml), so they are tested and measured on their own.
"""
