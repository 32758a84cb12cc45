"""URLs of the fog_of_war companion (namespace "fog_of_war")."""
from django.http import HttpResponse
from django.urls import path

app_name = "fog_of_war"
urlpatterns = [
    # placeholders until the companion's views exist
    path("new/", lambda request: HttpResponse(status=501), name="new"),
    path("g/<int:pk>/", lambda request, pk: HttpResponse(status=501), name="game"),
]
