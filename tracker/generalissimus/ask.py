"""«Вопрос о позиции» of a «Генералиссимус» game: may this unit carry out this card towards this sector
now, and if not, which rule says no (``gameplay.generalissimus.ask``). ``/g/<pk>/ask/`` dispatches here by
the game's kind; only what every player sees on the table is used."""
from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _

from gameplay.common import text as reason_text
from gameplay.generalissimus.ask import QUESTIONS, can
from gameplay.generalissimus.geometry import all_sectors
from gameplay.generalissimus.state import FORMATIONS
from gameplay.generalissimus.stepper import STEPPER, engine_of
from gameplay.generalissimus.words import unit_name

from tracker.core import access, statecache
from tracker.core.models import Game
from tracker.core.registry import adapter_of
from tracker.language import lang as _lang

from . import forms as F


def ask(request, game: Game):
    """The question form and, when asked, the engine's answer in the viewer's language."""
    actor = access.actor_for(request, game)
    if actor is None:
        return render(request, "no_access.html", {"game": game}, status=403)
    lang = _lang()
    state = statecache.load(game, adapter_of(game))
    st = engine_of(STEPPER.view_for(state, ()))  # the public table: units, terrain, house rules
    units = [(u.id, unit_name(u, lang)) for u in st.units if u.on_board or u.location == "reserve"]
    chosen = {k: request.GET.get(k) if isinstance(request.GET.get(k), str) else "" for k in ("unit", "card", "sector", "formation")}
    answer, status = None, 200
    if chosen["unit"] or chosen["card"] or chosen["sector"]:
        verdict = can(st, chosen["unit"], chosen["card"], chosen["sector"] or None, chosen["formation"] or None)
        if verdict is None:
            answer, status = {"ok": False, "text": _("Choose a unit on the table, a card and, for a move, a volley "
                                                     "or a charge, a sector a1–f6.")}, 400
        else:
            u = st.unit(chosen["unit"])
            answer = {"ok": verdict.code == "yes", "text": reason_text(verdict, lang),
                      "title": _("May %(unit)s: %(card)s?") % {"unit": unit_name(u, lang), "card": F.card_label(chosen["card"])}}
    return render(request, "generalissimus/ask.html", {
        "game": game, "units": units, "cards": [(c, F.card_label(c)) for c in QUESTIONS],
        "sectors": [s for s in all_sectors()], "formations": [(f, F.formation_label(f)) for f in FORMATIONS],
        "chosen": chosen, "answer": answer}, status=status)

