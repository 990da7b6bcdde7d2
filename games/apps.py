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
        from games.live import talk as live_talk
        from games.models import after_commit

        after_commit.register(after_commit.Effects(
            publish=broadcast.publish, publish_presence=broadcast.publish_presence,
            schedule_wakeup=timer_loop.embedded.schedule, bot_turn=bot_pool.embedded.schedule,
            publish_talk=live_talk.publish_talk, publish_talk_hidden=live_talk.publish_talk_hidden,
            publish_mutes=live_talk.publish_mutes, publish_notices=live_talk.publish_notices,
            publish_block=live_talk.publish_block,
            publish_queue=broadcast.send_site_frame,
            publish_site_frames=broadcast.send_site_frames,
            publish_tournament=broadcast.send_tournament_frame,
            run_review=bot_pool.embedded.review))

        # A sign-in that ends (log-out, new password, deleted account) closes its sockets.
        from django.contrib.auth.signals import user_logged_out

        from accounts.sessions import credentials_changed

        user_logged_out.connect(broadcast.on_logged_out, dispatch_uid="troccas-sockets-logout")
        # Issue #28 item 1: the lessons a visitor finished become their account's.
        from django.contrib.auth.signals import user_logged_in

        from games.teaching import course

        user_logged_in.connect(course.carry_over, dispatch_uid="troccas-lessons-carry-over")
        credentials_changed.connect(broadcast.on_credentials_changed,
                                    dispatch_uid="troccas-sockets-credentials")
