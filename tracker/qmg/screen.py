"""The table screen: ``GET /g/<pk>/table/``, the game for a tablet or a TV in the middle of the table.

The whole board at once (``board_svg.SCREEN``: denser, with larger names and pieces), the round, the country to
play and its step, the victory points, the last moves, the statuses in play and the face-down responses by
count, the straits. Only what every viewer may see: it is drawn from the spectator's view whoever opens it (a
seat's browser too), so no seat's text and nothing hidden ever reaches it. It refreshes as the phones do (the
game's stream, the 2-second poll as the fallback: ``static/js/app.js`` on ``#game``); what it shows is the same
for every viewer of a version and language and is kept in the cache (``{% cache %}`` in
``templates/qmg/screen.html``).

``GET /watch/<token>/table/``: the spectator link's way to it (a new tablet gets the spectator's rights, then the
screen).
"""
from __future__ import annotations

from dataclasses import replace

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from gameplay.qmg.rules import strait_status
from gameplay.qmg.table import PHASE_NAMES

from tracker.core import access, statecache
from tracker.core.models import Game
from tracker.core.registry import adapter_of
from tracker.core.selectors import history
from tracker.language import lang as current_lang

from . import selectors
from .board_svg import SCREEN, BoardMap
from .charts import vp_chart
from .forms import CATALOGUE, card_name

LAST_MOVES = 4  # the newest moves the screen lists


@require_GET
def screen(request, pk):
    game, _actor, denied = access.game_and_actor(request, pk)
    if denied:
        return denied
    if game.kind != Game.QMG:
        raise Http404("The table screen shows a Quartermaster General game.")
    # the template reads ``screen`` once (``{% with %}``), inside its cached fragment: computed on a miss only
    return render(request, "qmg/screen.html", {"game": game, "screen": lambda: _shown(game)})


@require_GET
def watch(request, token):
    """The spectator link, opened on the table's tablet: a spectator's rights, then the table screen."""
    game = get_object_or_404(Game, spectator_token=token, kind=Game.QMG)
    access.grant(request, game, "watch", token)
    return redirect("qmg_screen", pk=game.pk)


def _shown(game) -> dict:
    """Everything the screen shows, computed only when its cached fragment is missing (a template calls it): the
    engine's table of this version and the public log; no seat's notes, no hand, no face-down card's name."""
    table = statecache.load(game, adapter_of(game))
    board = selectors.board_of(game)
    lang = current_lang()
    i = 1 if lang == "en" else 0
    active = table.active(board)
    country = board.countries[active]
    ground = tuple(p for p in table.position.pieces if p.kind != "air")
    air = [(p.country, p.space) for p in table.position.pieces if p.kind == "air"]
    board_map = BoardMap(board, replace(table.position, pieces=ground), air=tuple(air), lang=lang, geometry=SCREEN)
    straits = {"axis": [], "allies": []}
    for sid, team in sorted(strait_status(board, table.position).items()):
        straits[team].append((board.straits[sid].ru, board.straits[sid].en)[i])
    teams = {"axis": _("Axis"), "allies": _("Allies")}
    cards = []
    for cid, k in table.cards:  # statuses face up by name, responses face down by count only
        if k.statuses or k.responses:
            cards.append({"name": (board.countries[cid].ru, board.countries[cid].en)[i], "team": board.countries[cid].team,
                          "statuses": [card_name(CATALOGUE.get(x), lang) if CATALOGUE.get(x) else _("status")
                                       for x in k.statuses],
                          "responses": k.responses})
    rows = [r for r in history(game) if r["event"].kind != "create"][:LAST_MOVES]
    return {
        "board_map": board_map,  # drawn by the tag {% qmg_board %}
        "round": table.round, "rounds": board.rounds,
        "active": active, "active_name": (country.ru, country.en)[i], "active_team": country.team,
        "phase_name": PHASE_NAMES[table.phase][i], "window_team": teams.get(table.window, ""),
        "vp_axis": table.vp_axis, "vp_allies": table.vp_allies,
        "vp_chart": vp_chart(selectors.vp_series(game), board.rounds, labels=(_("Axis"), _("Allies")),
                             title=_("Victory points by round")),  # drawn by the page's partial "vp-chart"
        "cards": cards,
        "last_moves": [{"round": r["event"].round, "text": r["text_en"] if lang == "en" else r["text_ru"],
                        "undone": r["undone"]} for r in rows],
        "straits_axis": straits["axis"], "straits_allies": straits["allies"],
        "finished": table.finished, "winner": table.winner,
    }
