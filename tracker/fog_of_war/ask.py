"""*The Fog of War*: «Вопрос о позиции» — may I do this now, and if not, why (the rule named). A seat asks about
its own side; the engine answers from the table as that seat sees it (``view_for``): the other side's hand,
face-down cards and operation targets are hidden there, so they can never change the answer."""
from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from gameplay.fog_of_war.board import SIDES
from gameplay.fog_of_war.stepper import STEPPER, engine_of, province_name

from tracker.core import access, log
from tracker.language import lang as _lang

QUESTIONS = ("defend", "new_op", "reinforce_op", "cancel_op", "launch", "reinforce_quagmire", "intel", "end_turn")


def _names():
    return {"defend": _("Can I defend this province now?"), "new_op": _("Can I start an operation against it now?"),
            "reinforce_op": _("Can I reinforce this operation now?"), "cancel_op": _("Can I cancel this operation now?"),
            "launch": _("Can I launch this operation from there now?"),
            "reinforce_quagmire": _("Can I reinforce this quagmire now?"),
            "intel": _("Can I spy on the enemy cards in this province now?"), "end_turn": _("Can I end my turn now?")}


def _question(kind: str, get, seen: dict, side: str) -> dict:
    """The command the question stands for, built from the asking seat's own view: a hand card it holds, the
    stack sizes it can count (a launch is asked before its cards are revealed: any values of the right count)."""
    st = engine_of(seen)
    hand = [c.id for c in st.sides[side].hand]
    province, slot, origin = get.get("province", ""), get.get("slot", ""), get.get("origin", "")
    c = {"type": kind, "side": side}
    if kind in ("defend", "new_op", "reinforce_op", "reinforce_quagmire"):
        c["cards"] = hand[:1] or ["?"]
    if kind in ("defend", "reinforce_quagmire"):
        c["province"] = province
    if kind == "new_op":
        c["target"] = province
    if kind in ("reinforce_op", "cancel_op", "launch"):
        c["slot"] = slot
    if kind == "intel":
        c["target"] = {"kind": "defence", "province": province}
    if kind == "launch":
        op = st.sides[side].op(slot)
        target = st.provinces.get(op.target) if op is not None else None
        enemy = "allies" if side == "axis" else "axis"
        c.update(origin=origin, wheel_mark=get.get("wheel_mark") or "none", supply_reaches=True, origin_supplied=True,
                 reveal_attack=["L1"] * len(op.cards) if op else [],
                 reveal_defence=["L1"] * len(target.defence[enemy]) if target else [],
                 reveal_neutral=["L1"] * len(target.neutral_cards) if target else [])
    return c


@require_GET
def ask(request, game):
    """The question page of a Fog of War game (``game`` already found); the answer only from what the asking
    seat may see."""
    actor = access.actor_for(request, game)
    if actor is None:
        return render(request, "no_access.html", {"game": game}, status=403)
    lang = _lang()
    side = actor.seat.countries[0] if actor.seat is not None and actor.seat.countries else None
    context = {"game": game, "side": side, "questions": list(_names().items()), "answer": None,
               "chosen": {k: request.GET.get(k, "") for k in ("q", "province", "slot", "origin")}}
    if side not in SIDES:  # a spectator or the host: no side of its own to ask about
        return render(request, "fog_of_war/ask.html", context)
    seen = STEPPER.view_for(log.current_state(game), side)  # the only table the answer reads
    st = engine_of(seen)
    context["provinces"] = sorted(((k, province_name(st, k, lang)) for k in st.provinces), key=lambda x: x[1])
    context["ops"] = [(o.slot, f"{o.slot} · {province_name(st, o.target, lang)}") for o in st.sides[side].operations]
    kind = request.GET.get("q")
    if kind in QUESTIONS:
        command = _question(kind, request.GET, {**seen, "ledger": True}, side)
        out = STEPPER.apply({**seen, "ledger": True}, command)
        context["answer"] = {"title": _names()[kind], "ok": out.ok,
                             "text": out.reason.text(lang) if not out.ok else _("The rules allow it now.")}
    return render(request, "fog_of_war/ask.html", context)

