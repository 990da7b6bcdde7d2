"""The games app's HTTP doors: pages (pages.py), the JSON API (api.py), the rules (rules.py).

History and standings pages live with their code in games/history/views.py."""
