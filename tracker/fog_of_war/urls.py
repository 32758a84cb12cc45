"""URLs of the fog_of_war companion (namespace "fog_of_war")."""
from django.urls import path

from . import views

app_name = "fog_of_war"
urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("g/<int:pk>/", views.game_page, name="game"),
    path("g/<int:pk>/act/", views.act, name="act"),
    path("g/<int:pk>/history/<str:kind>/", views.history, name="history"),
]
