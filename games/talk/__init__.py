"""Table talk (issue #17): what is said at a table, who may read it, and its moderation.

- `speech.say` — a seated player's talk (to everyone at the table) or a spectator's chat (to
  the spectators only), checked against the room's `table_talk` option, the length and rate
  limits, the blocked words and any suspension; stored, then announced after commit.
- `readers.hidden_speakers`, `readers.links_allowed` — the per-reader filters.
- `moderation` — mute, report, and the staff's hide and suspend.
- `frames` — the talk frames a socket sends, in its reader's language.
- `hooks` — how the live layer is told (registered by games/apps.py; games.talk never imports
  games.live, pyproject.toml's import contracts hold it).

Friends and invitations (issue #17): friends and blocks in `friends.py`, `blocks.py`;
invitations to a table in `invitations.py`; the in-site notification list in
`notifications.py`; who is on the site in `online.py`.

Talk rows and the social rows (games/models/talk.py, social.py) are not game rows: this
package writes them itself, never the table's.
"""
