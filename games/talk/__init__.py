"""Table talk, moderation, friends and invitations (ARCHITECTURE.md layout).

The social rows (games/models/social.py) are not game rows: the modules here write them
themselves. Friends and blocks: `friends.py`, `blocks.py`; invitations to a table:
`invitations.py`; the in-site notification list: `notifications.py`; who is on the site:
`online.py`.
"""
