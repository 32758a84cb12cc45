"""URLs of the generalissimus companion (namespace "generalissimus"): a new battle. Its page and
moves are served by the core's URLs (``game``, ``command``, ``undo``, ``redo``)."""
from django.urls import path

from . import views

app_name = "generalissimus"
urlpatterns = [
    path("new/", views.new, name="new"),
]
