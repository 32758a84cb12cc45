"""URLs of the fog_of_war companion (namespace "fog_of_war"): a new game, and the map and wheel editor.
Its page and moves are served by the core's URLs (``game``, ``command``, ``undo``, ``redo``)."""
from django.urls import path

from . import maps, views

app_name = "fog_of_war"
urlpatterns = [
    path("new/", views.new_game, name="new"),
    path("maps/", maps.index, name="maps"),
    path("maps/<int:pk>/", maps.editor, name="map"),
    path("maps/<int:pk>/export/", maps.export, name="map_export"),
]
