from django.urls import path, register_converter

from games.history import views as views_history
from games.views import clubs as club_views
from games.views import friends as friend_views
from games.views import learn as learn_views
from games.views import pages as views
from games.views import preferences as preference_views
from games.views import queue as queue_views
from games.views import reviews as review_views
from games.views import rules as rules_views
from games.views import tournament_desk as desk_views
from games.views import tournament_results as result_views
from games.views import tournaments as tournament_views
from games.views.converters import RowIdConverter

app_name = "games"
register_converter(RowIdConverter, "id")

urlpatterns = [
    path("", views.home, name="home"),
    path("faq/", views.faq, name="faq"),
    path("rules/", rules_views.rules, name="rules"),
    path("rules/bock/", rules_views.bock, name="rules_bock"),
    path("learn/", learn_views.course_page, name="learn"),
    path("learn/<slug:slug>/", learn_views.lesson_page, name="lesson"),
    path("learn/<slug:slug>/move/", learn_views.lesson_move, name="lesson_move"),
    path("learn/<slug:slug>/restart/", learn_views.lesson_restart, name="lesson_restart"),
    path("learn/<slug:slug>/hint/", learn_views.lesson_hint, name="lesson_hint"),
    path("preferences/sounds/", preference_views.table_sounds, name="table_sounds"),
    path("preferences/single-card/", preference_views.play_single_card, name="play_single_card"),
    path("rooms/join/", views.join, name="join"),
    path("rooms/new/", views.create_room, name="create_room"),
    path("play/", views.play_now, name="play_now"),
    path("find/", queue_views.find_game, name="find_game"),
    path("rooms/<str:code>/", views.room, name="room"),
    path("rooms/<str:code>/invite/", friend_views.invite, name="invite_friend"),
    path("rooms/<str:code>/invitable/", friend_views.invitable, name="invitable_friends"),
    path("friends/", friend_views.friends_page, name="friends"),
    path("friends/find/", friend_views.find_players, name="find_players"),
    path("friends/request/", friend_views.send_request, name="friend_request"),
    path("friends/accept/", friend_views.accept_request, name="friend_accept"),
    path("friends/decline/", friend_views.decline_request, name="friend_decline"),
    path("friends/cancel/", friend_views.cancel_request, name="friend_cancel"),
    path("friends/remove/", friend_views.unfriend, name="unfriend"),
    path("friends/block/", friend_views.block, name="block"),
    path("friends/unblock/", friend_views.unblock, name="unblock"),
    path("friends/unmute/", friend_views.unmute, name="unmute"),
    path("notifications/", friend_views.notification_list, name="notifications"),
    path("matches/", views_history.match_list, name="matches"),
    path("players/<id:pk>/", views_history.player_page, name="player"),
    path("matches/<id:pk>/", views_history.match_detail, name="match"),
    path("matches/<id:pk>/replay.json", views_history.match_replay, name="match_replay"),
    path("matches/<id:pk>/deals/<int:number>/review/", review_views.deal_review,
         name="deal_review"),
    path("matches/<id:pk>/deals/<int:number>/review/state/", review_views.deal_review_state,
         name="deal_review_state"),
    path("matches/<id:pk>/deals/<int:number>/review/try/", review_views.try_again,
         name="deal_review_try"),
    path("matches/<id:pk>/transcript.json", views_history.match_transcript,
         name="match_transcript"),
    path("standings/", views_history.standings, name="standings"),
    path("clubs/", club_views.club_list, name="clubs"),
    path("clubs/new/", club_views.create_club, name="create_club"),
    path("clubs/<id:pk>/", club_views.club_page, name="club"),
    path("clubs/<id:pk>/join/", club_views.join, name="club_join"),
    path("clubs/<id:pk>/ask/", club_views.ask, name="club_ask"),
    path("clubs/<id:pk>/invitation/accept/", club_views.accept_invitation,
         name="club_accept_invitation"),
    path("clubs/<id:pk>/invitation/decline/", club_views.refuse_invitation,
         name="club_refuse_invitation"),
    path("clubs/<id:pk>/leave/", club_views.leave, name="club_leave"),
    path("clubs/<id:pk>/requests/accept/", club_views.accept_request, name="club_accept"),
    path("clubs/<id:pk>/requests/refuse/", club_views.refuse_request, name="club_refuse"),
    path("clubs/<id:pk>/invite/", club_views.invite, name="club_invite"),
    path("clubs/<id:pk>/remove/", club_views.remove, name="club_remove"),
    path("clubs/<id:pk>/hand-over/", club_views.hand_over, name="club_hand_over"),
    path("clubs/<id:pk>/role/", club_views.set_role, name="club_role"),
    path("clubs/<id:pk>/tables/new/", club_views.new_table, name="club_new_table"),
    path("tournaments/<id:pk>/standings/", result_views.standings_page,
         name="tournament_standings"),
    path("tournaments/<id:pk>/rangliste.pdf", result_views.rangliste_pdf,
         name="tournament_rangliste_pdf"),
    path("tournaments/<id:pk>/rangliste.csv", result_views.rangliste_csv,
         name="tournament_rangliste_csv"),
    path("tournaments/<id:pk>/schedule.ics", result_views.schedule_ical, name="tournament_ical"),
    path("tournaments/<id:pk>/rounds/<int:number>/", result_views.round_page,
         name="tournament_round"),
    path("tournaments/<id:pk>/desk/", desk_views.desk_page, name="tournament_desk"),
    path("tournaments/", tournament_views.tournament_list, name="tournaments"),
    path("tournaments/new/", tournament_views.create_tournament, name="create_tournament"),
    path("tournaments/<id:pk>/", tournament_views.tournament_page, name="tournament"),
    path("tournaments/<id:pk>/register/", tournament_views.register,
         name="tournament_register"),
    path("tournaments/<id:pk>/withdraw/", tournament_views.withdraw,
         name="tournament_withdraw"),
    path("tournaments/<id:pk>/check-in/", tournament_views.check_in,
         name="tournament_check_in"),
]
