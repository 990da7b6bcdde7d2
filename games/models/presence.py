"""How long a socket's row counts as live: the clock of the Connection and SitePresence rows.

Beside the rows it is about, below everything that reads them: the writer's statements
(games/services/sql.py), the table's presence (games/services/presence.py) and who is on the
site (games/talk/online.py) all count with it.
"""

from __future__ import annotations

from datetime import timedelta

# A connection whose process died stops refreshing last_seen; after this it counts as away.
PRESENCE_TIMEOUT = timedelta(seconds=75)
# A row whose socket has not pinged for this long belongs to a process that died without
# cleaning up (a live client pings every 30 s): the purges remove it.
STALE_AFTER = 4 * PRESENCE_TIMEOUT
