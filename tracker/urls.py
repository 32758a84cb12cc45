from django.urls import include, path

from tracker import lookup, views

urlpatterns = [
    path("", views.home, name="home"),
    path("ping/", views.ping, name="ping"),
    path("boards/", views.boards, name="boards"),
    path("rules/", lookup.rules, name="rules"),
    path("rules/r/<slug:rule_id>/", lookup.rule, name="rule"),
    path("rules/c/<slug:card_id>/", lookup.card, name="card"),
    path("g/<int:pk>/ask/", lookup.ask, name="ask"),
    path("import/", views.import_game, name="import_game"),
    path("g/<int:pk>/export/", views.export_game, name="export_game"),
    path("g/<int:pk>/", views.game, name="game"),
    path("g/<int:pk>/poll/", views.poll, name="poll"),
    path("g/<int:pk>/move/", views.move, name="move"),
    path("g/<int:pk>/note/", views.note, name="note"),
    path("g/<int:pk>/seats/", views.seats, name="seats"),
    path("join/<str:token>/", views.join, name="join"),
    path("watch/<str:token>/", views.watch, name="watch"),
    path("host/<str:token>/", views.host_link, name="host_link"),
    path("generalissimus/", include("tracker.generalissimus.urls")),
    path("fog-of-war/", include("tracker.fog_of_war.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
]
