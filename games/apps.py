from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    label = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The services announce and wake tables through hooks, never by importing the live
        # layer (pyproject.toml's import contracts): plug the live layer in here, once.
        from games.live import bot_pool, broadcast, timer_loop
        from games.services import outbox, wakeups
        from games.services.bots import wakeups as bot_wakeups

        outbox.register(broadcast)
        from games.live import talk as live_talk
        from games.talk import hooks as talk_hooks

        talk_hooks.register(live_talk)
        wakeups.register_local(timer_loop.embedded.schedule)
        bot_wakeups.register_local(bot_pool.embedded.schedule)

        # A sign-in that ends (log-out, new password, deleted account) closes its sockets.
        from django.contrib.auth.signals import user_logged_out

        from accounts.sessions import credentials_changed

        user_logged_out.connect(broadcast.on_logged_out, dispatch_uid="troccas-sockets-logout")
        credentials_changed.connect(broadcast.on_credentials_changed,
                                    dispatch_uid="troccas-sockets-credentials")
