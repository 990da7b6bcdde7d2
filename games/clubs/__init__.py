"""Clubs and tournaments (issue #26): membership, pairing, the round runner, results."""
