"""QMG's part of the rules lookup (``tracker.lookup``): its rule and card pages, and its questions about the
position of the game at hand."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET

from gameplay.common import rulebook as common_rulebook
from gameplay.qmg import Action, check_action, compute_supply, load_board, rulebook
from gameplay.qmg.cards import load_catalogue
from gameplay.qmg.rulings import rulings_for
from gameplay.qmg.table import turn_context

from tracker.core import access
from tracker.core.models import Game
from tracker.language import lang as _lang

from . import selectors

CATALOGUE = load_catalogue()
TYPE_NAMES = {
    "build_army": gettext_lazy("Build Army"), "build_navy": gettext_lazy("Build Navy"),
    "land_battle": gettext_lazy("Land Battle"), "sea_battle": gettext_lazy("Sea Battle"),
    "status": gettext_lazy("Status"), "response": gettext_lazy("Response"), "event": gettext_lazy("Event"),
    "economic_warfare": gettext_lazy("Economic Warfare"),
}



LAST_GAME = "last_game"


def back_game(request) -> Game | None:
    """The game this browser last had open (and still has a link to): rule pages link back to it."""
    pk = request.session.get(LAST_GAME)
    if not isinstance(pk, int) or pk not in access.known_games(request):
        return None
    return Game.objects.filter(pk=pk).only("id", "name", "kind").first()


@require_GET
def rule(request, rule_id):
    entry = rulebook.get(rule_id)
    if entry is None:
        raise Http404(rule_id)
    lang = _lang()
    related = [_item(x, lang) for x in rulebook.related(rule_id)]
    rulings = [{"title": r.title(lang), "summary": r.summary(lang)} for r in common_rulebook.rulings_for("qmg", rule_id)]
    return render(request, "lookup/rule.html", {"entry": entry, "title": entry.title(lang), "back_game": back_game(request),
                                                "text": entry.text(lang), "related": related, "rulings": rulings})


@require_GET
def card(request, card_id):
    c = CATALOGUE.get(card_id)
    if c is None:
        raise Http404(card_id)
    lang = _lang()
    board = load_board()
    return render(request, "lookup/card.html", {
        "card": c, "name": c.name_en if lang == "en" else c.name_ru,
        "summary": c.summary_en if lang == "en" else c.summary_ru,
        "country": board.countries[c.country].en if lang == "en" else board.countries[c.country].ru,
        "type": TYPE_NAMES.get(c.type, c.type),
        "related": [_item(x, lang) for x in rulebook.related(card_id)], "back_game": back_game(request),
        **_rulings(card_id, lang),
    })


MAX_RULINGS_SHOWN = 30  # a card's rulings listed on its page (the rest counted)


def _rulings(card_id: str, lang: str) -> dict:
    """The corpus files that rule on the card (``gameplay/qmg/rulings/``), in the page's language: title,
    summary, the rules cited, the expected answer of the card's own commands (allowed / refused) and the file."""
    found = rulings_for(card_id)
    shown = [{"file": r["file"], "title": r["title"][lang], "summary": r["summary"][lang],
              "cites": [{"source": c["source"], "text": c[lang]} for c in r["cites"]],
              "answers": r["answers"]} for r in found[:MAX_RULINGS_SHOWN]]
    return {"rulings": shown, "rulings_more": len(found) - len(shown)}


def _item(x, lang) -> dict:
    if isinstance(x, rulebook.RuleEntry):
        return {"kind": "rule", "id": x.id, "title": x.title(lang)}
    return {"kind": "card", "id": x.id, "title": x.name_en if lang == "en" else x.name_ru}


def ask_game(request, game):
    """Questions about this game's position: why is a piece (un)supplied, may X attack Y (``/g/<pk>/ask/`` of a
    QMG game, ``tracker.lookup.ask``, once the viewer's access is checked)."""
    lang = _lang()
    board = selectors.board_of(game)
    table = selectors.table_of(game)
    supply = compute_supply(board, table.position, turn_context(table))
    name = (lambda s: board.spaces[s].en) if lang == "en" else (lambda s: board.spaces[s].ru)
    cname = (lambda c: board.countries[c].en) if lang == "en" else (lambda c: board.countries[c].ru)
    pieces = [{"key": f"{p.country}:{p.kind}:{p.space}", "label": f"{cname(p.country)} — {_(p.kind)} — {name(p.space)}"}
              for p in table.position.pieces]
    answer = None
    piece_key = request.GET.get("piece")
    if piece_key:
        found = [p for p in table.position.pieces if f"{p.country}:{p.kind}:{p.space}" == piece_key]
        if found:
            s = supply.pieces[found[0]]
            answer = {"title": _("Supply"), "ok": s.supplied, "text": s.reason.text(lang),
                      "chain": [name(x) for x in s.chain]}
        else:
            answer = {"title": _("Supply"), "ok": False, "text": _("That piece is not on the board any more.")}
    country, target = request.GET.get("country"), request.GET.get("space")
    if country in board.countries and target in board.spaces:
        kind = "land_battle" if board.spaces[target].is_land else "sea_battle"
        verdict = check_action(board, table.position, Action(kind, country, target), supply)
        straits = [{"name": board.straits[sid].en if lang == "en" else board.straits[sid].ru,
                    "seas": " – ".join(name(x) for x in board.straits[sid].seas),
                    "open_for": _("Axis") if team == "axis" else _("Allies")}
                   for sid, team in supply.straits.items()]
        answer = {"title": _("May %(country)s attack %(space)s?") % {"country": cname(country), "space": name(target)},
                  "ok": verdict.legal, "text": verdict.reason.text(lang), "straits": straits}
    spaces = sorted(((s.id, name(s.id)) for s in board.spaces.values()), key=lambda x: x[1])
    return render(request, "lookup/ask.html", {
        "game": game, "pieces": pieces, "answer": answer, "spaces": spaces,
        "countries": [(c, cname(c)) for c in board.turn_order],
        "chosen": {"piece": piece_key, "country": country, "space": target},
    })
