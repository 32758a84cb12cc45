"""Function views: thin, they render templates and partials; rules live in gameplay/."""
from django.shortcuts import render


def home(request):
    return render(request, "home.html")
