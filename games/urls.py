from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.home, name="home"),
    path("faq/", views.faq, name="faq"),
    path("rooms/join/", views.join, name="join"),
    path("rooms/<str:code>/", views.room, name="room"),
]
