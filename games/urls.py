from django.urls import path

from games.history import views as views_history
from games.views import pages as views
from games.views import rules as rules_views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("faq/", views.faq, name="faq"),
    path("rules/", rules_views.rules, name="rules"),
    path("rules/bock/", rules_views.bock, name="rules_bock"),
    path("rooms/join/", views.join, name="join"),
    path("rooms/new/", views.create_room, name="create_room"),
    path("rooms/<str:code>/", views.room, name="room"),
    path("matches/", views_history.match_list, name="matches"),
    path("matches/<int:pk>/", views_history.match_detail, name="match"),
    path("matches/<int:pk>/replay.json", views_history.match_replay, name="match_replay"),
    path("matches/<int:pk>/transcript.json", views_history.match_transcript,
         name="match_transcript"),
    path("standings/", views_history.standings, name="standings"),
]
