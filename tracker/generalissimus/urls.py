"""URLs of the generalissimus companion (namespace "generalissimus")."""
from django.urls import path

from . import rules  # noqa: F401  registers the JsonRules adapter at startup
from . import views

app_name = "generalissimus"
urlpatterns = [
    path("new/", views.new, name="new"),
    path("g/<int:pk>/", views.game, name="game"),
    path("g/<int:pk>/command/", views.command, name="command"),
]
