"""URLs of the generalissimus companion (namespace "generalissimus")."""
from django.http import HttpResponse
from django.urls import path

app_name = "generalissimus"
urlpatterns = [
    # placeholders until the companion's views exist
    path("new/", lambda request: HttpResponse(status=501), name="new"),
    path("g/<int:pk>/", lambda request, pk: HttpResponse(status=501), name="game"),
]
