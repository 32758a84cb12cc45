from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from tracker.core import errors, site, stream
from tracker.core import views as core
from tracker.generalissimus import ask as generalissimus_ask
from tracker.qmg import lookup
from tracker.qmg import screen as qmg_screen
from tracker.qmg import views as qmg

urlpatterns = [
    path("", qmg.home, name="home"),
    path("ping/", core.ping, name="ping"),
    path("favicon.ico", site.favicon, name="favicon"),
    path("manifest.webmanifest", site.manifest, name="manifest"),
    path("boards/", qmg.boards, name="boards"),
    path("rules/", lookup.rules, name="rules"),
    path("rules/r/<slug:rule_id>/", lookup.rule, name="rule"),
    path("rules/c/<slug:card_id>/", lookup.card, name="card"),
    path("g/<int:pk>/ask/", lookup.ask, name="ask"),
    path("g/<int:pk>/gen-ask/", generalissimus_ask.ask_by_pk, name="generalissimus_ask"),
    path("import/", core.import_game, name="import_game"),
    path("g/<int:pk>/export/", core.export_game, name="export_game"),
    # one page, one command endpoint and one undo/redo shape for every game
    path("g/<int:pk>/", core.game, name="game"),
    path("g/<int:pk>/poll/", core.poll, name="poll"),
    path("g/<int:pk>/stream/", stream.stream, name="stream"),
    path("g/<int:pk>/command/", core.command, name="command"),
    path("g/<int:pk>/undo/", core.undo, name="undo"),
    path("g/<int:pk>/redo/", core.redo, name="redo"),
    path("g/<int:pk>/note/", qmg.note, name="note"),
    path("g/<int:pk>/unseen/", qmg.unseen, name="qmg_unseen"),
    path("g/<int:pk>/seats/", core.seats, name="seats"),
    # QMG's table screen (a tablet or a TV in the middle of the table), and the spectator link's way to it
    path("g/<int:pk>/table/", qmg_screen.screen, name="qmg_screen"),
    path("watch/<str:token>/table/", qmg_screen.watch, name="qmg_screen_watch"),
    path("join/<str:token>/", core.join, name="join"),
    path("watch/<str:token>/", core.watch, name="watch"),
    path("host/<str:token>/", core.host_link, name="host_link"),
    path("generalissimus/", include("tracker.generalissimus.urls")),
    path("fog-of-war/", include("tracker.fog_of_war.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    # the texts of static/js in the page's language (the djangojs catalogue of locale/): gettext() in the scripts
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
]

handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = errors.page_not_found
handler500 = errors.server_error
