"""URLs of the fog_of_war companion (namespace "fog_of_war"): a new game. Its page and moves are
served by the core's URLs (``game``, ``command``, ``undo``, ``redo``)."""
from django.urls import path

from . import views

app_name = "fog_of_war"
urlpatterns = [
    path("new/", views.new_game, name="new"),
]
