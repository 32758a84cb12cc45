"""The one rules lookup of the three games: ``/rules/`` searches their rules (QMG's cards too) with a filter by
game, ``/rules/<game>/<section>/`` shows a section with the rulings that name it, ``/g/<pk>/ask/`` asks the
engine of the game at hand about its position (each game's own ask view). The rules and rulings are
``gameplay.common.rulebook``'s; QMG's rule and card pages are ``tracker.qmg.lookup``'s."""
from __future__ import annotations

import importlib
import importlib.util

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET

from gameplay.common import rulebook

from tracker.core import access
from tracker.core.models import Game
from tracker.language import lang as current_lang
from tracker.qmg import lookup as qmg_lookup

GAME_NAMES = {"qmg": gettext_lazy("Quartermaster General"), "generalissimus": gettext_lazy("Generalissimus"),
              "fog_of_war": gettext_lazy("The Fog of War")}
ALL = "all"
MAX_QUERY = 200  # characters of a question
MAX_HITS = 25
ASK_MODULE = "tracker.{kind}.ask"  # a game's questions about its position: the module's ``ask(request, game)``


@require_GET
def rules(request):
    """Search every game's rules, or one game's (``game``: a game with rules, or ``all``; without it the game the
    browser came from, else all)."""
    query = (request.GET.get("q") or "").strip()[:MAX_QUERY]
    lang = current_lang()
    listed = rulebook.games()
    back = qmg_lookup.back_game(request)
    chosen = request.GET.get("game")
    if chosen != ALL and chosen not in listed:
        chosen = back.kind if back is not None and back.kind in listed else ALL
    in_games = listed if chosen == ALL else [chosen]
    hits = [{"game": h.game, "game_name": GAME_NAMES[h.game], "kind": h.kind, "id": h.id, "title": h.title(lang),
             "snippet": h.snippet} for h in rulebook.search(query, in_games, limit=2 * MAX_HITS)] if query else []
    context = {
        "query": query, "hits": _distinct(hits)[:MAX_HITS], "back_game": back, "ask_game": _askable(back), "chosen": chosen,
        "all": ALL,
        "filters": [(g, GAME_NAMES[g]) for g in listed], "several": len(listed) > 1,
        "index": [] if query else [{"game": g, "name": GAME_NAMES[g],
                                    "sections": [{"id": s.id, "title": s.title(lang), "seed": s.seed,
                                                  "dispute": _dispute(g, s.id)} for s in rulebook.sections(g)]}
                                   for g in in_games],
    }
    template = "lookup/_results.html" if request.htmx else "lookup/rules.html"
    return render(request, template, context)


def _dispute(game: str, section_id: str) -> bool:
    if game != "qmg":
        return False
    entry = qmg_lookup.rulebook.get(section_id)
    return bool(entry and entry.dispute)


def _distinct(hits: list[dict]) -> list[dict]:
    """One line per game and title: the same card in several decks («Атака на море» is in five) is shown once, with
    how many decks hold it."""
    rows, seen = [], {}
    for h in hits:
        key = (h["game"], h["kind"], h["title"].casefold())
        if key in seen:
            seen[key]["decks"] += 1
            continue
        seen[key] = {**h, "decks": 1}
        rows.append(seen[key])
    return rows


@require_GET
def section(request, game, section_id):
    """One section of a game's rules in the page's language, with the rulings that name it (title and summary).
    QMG's sections are its rule pages."""
    if game == "qmg":
        return redirect("rule", rule_id=section_id)
    found = rulebook.section(game, section_id)
    if found is None:
        raise Http404(_("No such section of the rules."))
    lang = current_lang()
    back = qmg_lookup.back_game(request)
    return render(request, "lookup/section.html", {
        "game": game, "game_name": GAME_NAMES[game], "section": found, "title": found.title(lang),
        "text": found.text(lang), "back_game": back, "ask_game": _askable(back) if back and back.kind == game else None,
        "rulings": [{"title": r.title(lang), "summary": r.summary(lang)} for r in rulebook.rulings_for(game, section_id)],
    })


def ask_view(kind: str):
    """The game's own ask view (``tracker/<game>/ask.py``: ``ask(request, game)``), or None where the game has none
    yet; QMG's is ``tracker.qmg.lookup.ask_game``."""
    if kind == Game.QMG:
        return qmg_lookup.ask_game
    name = ASK_MODULE.format(kind=kind)
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name).ask


def _askable(game: Game | None) -> Game | None:
    """The game, if its engine answers questions about its position."""
    return game if game is not None and ask_view(game.kind) is not None else None


@require_GET
def ask(request, pk):
    """``/g/<pk>/ask/``: "can I …?" about the position of this game, answered by its own engine."""
    game = get_object_or_404(Game, pk=pk)
    view = ask_view(game.kind)
    if view is None:
        return render(request, "lookup/no_ask.html", {"game": game}, status=404)
    if access.actor_for(request, game) is None:
        return render(request, "no_access.html", {"game": game}, status=403)
    return view(request, game)
