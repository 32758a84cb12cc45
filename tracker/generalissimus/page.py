"""«Генералиссимус»'s game page: what the partial shows (what is legal comes from the engine's
queries) and how its forms become commands. The shell, the answer and the write path are the core's."""
from __future__ import annotations

from itertools import permutations

from django.urls import reverse
from django.utils.translation import gettext as _, gettext_lazy

from gameplay.common import text as reason_text
from gameplay.generalissimus import describe_settings
from gameplay.generalissimus.geometry import zone_of
from gameplay.generalissimus.queries import (card_counts, choosers, rule_hints, step_needs_of, unit_options,
                                             zone_order_chooser)
from gameplay.generalissimus.state import CARD_TYPES, FORMATIONS, ZONES
from gameplay.generalissimus.stepper import SIDES, STEPPER, changes_text, engine_of
from gameplay.generalissimus.words import plain_text, unit_name

from tracker.core.commands import BadInput, Parsed
from tracker.core.log import FORBIDDEN_REASON, SECRET_REASON
from tracker.core.models import Game
from tracker.language import lang as _lang

from . import forms as F
from .svg import board_view

PHASES = {"orders": gettext_lazy("Orders (face down, by zone)"), "initiative": gettext_lazy("Initiative"),
          "actions": gettext_lazy("Actions (reveal step by step)"), "end_of_turn": gettext_lazy("End of turn"),
          "finished": gettext_lazy("Battle over")}

# spec §3: reminders shown at the right moment
REMINDERS = {
    "orders": [
        gettext_lazy("Cards go face down beside a zone. Several per zone are fine."),
        gettext_lazy("Routed units cannot take orders. Stopping a rout needs two Form up cards in that unit's zone."),
        gettext_lazy("Enemy fire takes priority over your charge."),
        gettext_lazy("Changing formation always needs a Form up card (except cavalry turning after a move)."),
    ],
    "initiative": [
        gettext_lazy("Each player rolls one die. A tie is rolled again."),
        gettext_lazy("The winner names the zone order and its cards are carried out first; each card still acts on the unit its owner named."),
    ],
    "actions": [
        gettext_lazy("One card per player per step; the exception is the rally (two Form up cards)."),
        gettext_lazy("A card that cannot be carried out is removed."),
        gettext_lazy("Fire resolves before a charge, whatever the initiative. Casualties from simultaneous fire come off together."),
        gettext_lazy("No unit volleys, fires artillery or charges twice in one turn."),
        gettext_lazy("Line +1 fire. Column +1 bayonet. Square +2 only against cavalry in melee. Flank +1 for fire and melee."),
        gettext_lazy("Artillery: range 2 straight / 1 diagonal, 3 from a hill; no fire from a river, over own units, or when disordered. One die per crew block."),
        gettext_lazy("Cavalry: up to 2 sectors, through own units (both disordered), never through enemies or forest."),
        gettext_lazy("Melee: both sides become disordered. The loser's flag goes down and it falls back; the winner steps in. A tie leaves both in place."),
        gettext_lazy("A target without Bayonets! gives way, disordered, without dice. Cavalry charging a routed unit destroys it."),
        gettext_lazy("After losses: 1 block means disordered. A square under 3 blocks is no longer a square."),
    ],
    "end_of_turn": [
        gettext_lazy("Blocked flight: chain panic into an own unit, destruction on an enemy, desertion off the board."),
        gettext_lazy("Then the victory check; attack limits reset; cards go back to the piles."),
        gettext_lazy("Reserves may enter with a Move card."),
    ],
}
def _reason(r) -> str:
    """An engine reason dict {'ru', 'en'} in the active language."""
    if not r:
        return ""
    return r.get("en", "") if _lang() == "en" else r.get("ru", "")


def _mine(actor) -> tuple[str, ...]:
    """The sides whose secrets this browser may see: only a seat's own sides (a host without a
    seat is the shared table screen and sees what spectators see)."""
    return tuple(s for s in (actor.seat.countries if actor.seat else ()) if s in SIDES)


def _acts_for(actor) -> tuple[str, ...]:
    return tuple(s for s in actor.allowed(SIDES) if s in SIDES)


def _unit_name(st, uid) -> str:
    """A unit as players name it: «конница Севера на a6»."""
    u = st.unit(uid) if isinstance(uid, str) and uid else None
    if u is None:
        return "—" if uid else ""
    return unit_name(u, _lang())


def _plain(st, text: str) -> str:
    """An engine sentence with this battle's units, cards and sides named as players name them."""
    return plain_text(text, st, _lang())


def _extra(rev: dict) -> str:
    words = {"left": _("turn left"), "right": _("turn right"), "charge": _("charge"), "advance": _("advance"),
             "meet": _("meet a charge")}
    out = []
    for k in ("use", "to", "path", "facing", "formation", "direction"):
        v = rev.get(k)
        if not v:
            continue
        if isinstance(v, list):
            out.append("→".join(map(str, v)))
        elif k == "facing":
            out.append(F.facing_label(v))
        elif k == "formation" and v in FORMATIONS:
            out.append(F.formation_label(v))
        else:
            out.append(str(words.get(v, v)))
    return " ".join(out)


def _card_view(st, side, rev: dict, mine=False) -> dict:
    cards = {c.id: c for c in st.cards}
    ids = rev.get("cards") or [rev.get("card")]
    kind = "rally" if len(ids) == 2 else (cards[ids[0]].type if ids[0] in cards else "")
    return {"side": side, "side_name": F.side_label(side), "kind": kind, "label": F.card_label(kind) if kind else "",
            "unit": _unit_name(st, rev.get("unit")), "target": _unit_name(st, rev.get("target")) if rev.get("target") else "",
            "extra": _extra(rev)}


def _options_view(st, uid: str) -> tuple[list[dict], dict]:
    """The engine's options for a unit as lines {card, ok, text}, and the sectors to highlight."""
    found = unit_options(st, uid)
    if found is None:
        return [], {"move": set(), "target": set()}
    lang = _lang()
    out = [{"card": F.card_label(o.card), "ok": o.ok, "text": _plain(st, reason_text(o.reason, lang))} for o in found.options]
    if found.zone is not None:
        u = st.unit(uid)
        out.insert(0, {"card": _("Zone"), "ok": True, "text": F.zone_label(found.zone, u.owner)})
    return out, {"move": set(found.move), "target": set(found.targets)}


def context(request, game: Game, actor, full_state: dict, keep=None) -> dict:
    mine, acts = _mine(actor), _acts_for(actor)
    viewer = mine[0] if mine else None
    state = STEPPER.view_for(full_state, mine)  # the other side's secrets are gone
    st = engine_of(state)
    writable = actor.can_write and st.phase != "finished"
    selected = request.GET.get("unit") if isinstance(request.GET.get("unit"), str) else None
    if selected and st.unit(selected) is None:
        selected = None
    options, hints = _options_view(st, selected) if selected else ([], {})
    counted = card_counts(state)
    counts = {side: counted[side]["placed"] for side in SIDES}
    pile_total = {side: counted[side]["in_pile"] for side in SIDES}
    zones = [{"zone": z, "label": F.zone_label(z, viewer), "counts": [(F.side_label(s), counts[s][z]) for s in SIDES],
              "current": z == st.current_zone} for z in ZONES]
    # private: only the viewer's own sides
    my = []
    for side in mine:
        pile = {t: 0 for t in CARD_TYPES}
        for c in st.cards:
            if c.owner == side and c.state == "in_pile":
                pile[c.type] += 1
        placed = [{"id": c.id, "label": F.card_label(c.type), "zone": F.zone_label(c.zone, side), "zone_key": c.zone}
                  for c in st.cards if c.owner == side and c.state == "placed"]
        pending = (state.get("pending") or {}).get(side)
        my.append({"side": side, "name": F.side_label(side), "pile": [(t, F.card_label(t), n) for t, n in pile.items()],
                   "placed": placed, "confirmed": side in st.confirmed,
                   "pending": _card_view(st, side, pending) if pending else None})
    reveal = state.get("reveal")
    # what the step (or the forced flight) still needs, from the engine on the full state: the needs
    # themselves are public (a reaction is asked on the public count of face-down cards)
    all_needs, complete = step_needs_of(full_state)
    needs = [n for n in all_needs if n["roll"] in ("fire", "melee")]
    asks = [n for n in all_needs if n["roll"] in ("retreat", "react") and n["entered"] is None]
    if not hints and asks and asks[0]["roll"] == "retreat" and asks[0]["side"] in mine:
        hints = {"retreat": set(asks[0]["options"]) - {"off"}}  # the owner's options, lit on its board
    to_reveal = choosers(state)
    players = state.get("players", {})
    version = game.version

    ctx = {
        "st": st, "mine": mine, "acts": acts, "viewer": viewer,
        "writable": writable, "phase_name": PHASES.get(st.phase, st.phase), "reminders": REMINDERS.get(st.phase, []),
        "players": [(F.side_label(s), players.get(s, ""), s) for s in SIDES],
        "board": board_view(st.to_dict(), viewer, selected, {k: v for k, v in hints.items()} if hints else None),
        "selected": st.unit(selected) if selected else None, "options": options,
        "selected_name": _unit_name(st, selected) if selected else "",
        "zones": zones, "pile_total": [(F.side_label(s), pile_total[s]) for s in SIDES if s not in mine],
        "my": my, "version": version,
        "zone_sequence": [F.zone_label(z, viewer) for z in st.zone_sequence],
        "current_zone": F.zone_label(st.current_zone, viewer) if st.current_zone else "",
        "initiative_rolls": list(zip(st.initiative_rolls.get("south", []), st.initiative_rolls.get("north", []))),
        "initiative_winner": F.side_label(st.initiative_winner) if st.initiative_winner else "",
        "i_choose_zones": zone_order_chooser(st) in acts and writable,
        "zone_orders": [(",".join(p), " → ".join(F.zone_label(z, viewer) for z in p)) for p in _perms()],
        "to_reveal": [{"side": s, "name": F.side_label(s), "chosen": bool((state.get("pending") or {}).get(s))}
                      for s in to_reveal],
        "choose": [_choose_entry(st, state, s, keep) for s in mine if s in to_reveal and not (state.get("pending") or {}).get(s)]
        if writable else [],
        "reveal": [_card_view(st, s, rev) for s, rev in reveal["cards"].items()] if reveal else [],
        "needs": [_need_view(st, n, acts, writable) for n in needs],
        "asks": [_ask_view(st, n, acts, writable, mine) for n in asks[:1]],
        "can_end_turn": writable and complete,
        "correction": _correction_view(st, state.get("correction"), acts, writable),
        "correct_as": next(iter(acts), None) if writable and not state.get("correction") else None,
        "all_units": [(u.id, _unit_name(st, u.id)) for u in st.units],
        "formations": [(f, F.formation_label(f)) for f in FORMATIONS],
        "last_step": _step_view(st, state.get("steps", [])[-1]) if state.get("steps") else None,
        "digital": st.settings.allow_digital_dice,
        "dice_values": range(1, 7),
        "units": _units_view(st),
        "settings_changed": _settings_changed(st),
        "rule_hints": [_plain(st, reason_text(r, _lang())) for r in rule_hints(st).get(st.phase, [])],
        "winner": (_("Draw") if st.winner == "draw" else F.side_label(st.winner)) if st.winner else "",
        "forms": keep or {},
        "self_url": reverse("game", args=[game.pk]) + (f"?unit={selected}" if selected else ""),
    }
    return ctx


def _perms():
    return list(permutations(ZONES))


CHOICE_FIELDS = ("unit", "target", "use", "to", "path", "facing", "formation", "direction")


def _choose_entry(st, state, side, keep=None) -> dict:
    zone = st.current_zone
    cards = [(c.id, F.card_label(c.type)) for c in st.cards if c.owner == side and c.state == "placed" and c.zone == zone]
    units = [(u.id, _unit_name(st, u.id) + (" — " + _("routed") if u.routed else ""))
             for u in st.units if u.owner == side and (u.location == "reserve" or
                                                       (u.on_board and zone_of(u.sector, st.settings.zone_columns) == zone))]
    others = [(u.id, _unit_name(st, u.id)) for u in st.units if u.owner == side and u.on_board and (u.id, _unit_name(st, u.id)) not in units]
    enemies = [(u.id, _unit_name(st, u.id)) for u in st.units if u.owner != side and u.on_board]
    kept = dict((keep or {}).get("choose") or {})
    kept["cards"] = list((keep or {}).get("choose_cards") or [])
    return {"side": side, "name": F.side_label(side), "cards": cards, "units": units + others, "enemies": enemies,
            "formations": [(f, F.formation_label(f)) for f in FORMATIONS], "kept": kept,
            "facings": [(f, F.facing_label(f)) for f in ("N", "E", "S", "W")]}


def _mod_label(key: str) -> str:
    return {"column": _("column"), "square_vs_cavalry": _("square against cavalry"), "flank": _("flank")}.get(key, key)


def _need_view(st, n: dict, acts, writable) -> dict:
    entered = n.get("entered")
    n = dict(n, unit=_unit_name(st, n.get("unit")), target=_unit_name(st, n.get("target")))
    if n["roll"] == "fire":
        bonus = n.get("bonus", 0)
        if n.get("mode") == "extra_die":
            text = _("%(unit)s fires at %(target)s: roll %(n)s dice, hit on 5–6.") % {"unit": n["unit"], "target": n["target"], "n": n["n"]}
        else:
            text = _("%(unit)s fires at %(target)s: roll %(n)s dice, hit on %(hit)s–6 (bonus +%(bonus)s).") % {
                "unit": n["unit"], "target": n["target"], "n": n["n"], "hit": n["hit"], "bonus": bonus}
    else:
        mods = ", ".join(f"{_mod_label(k)} +{v}" for k, v in (n.get("mods") or {}).items()) or "—"
        text = _("Melee, %(role)s %(unit)s: roll %(n)s dice, the sum plus modifiers (%(mods)s).") % {
            "role": _("attacker") if n.get("role") == "attacker" else _("defender"), "unit": n["unit"], "n": n["n"], "mods": mods}
    return {"side": n["side"], "side_name": F.side_label(n["side"]), "roll": n["roll"], "n": n["n"], "text": text,
            "entered": entered, "dice": range(1, n["n"] + 1),
            "mine": writable and n["side"] in acts and entered is None}


def _ask_view(st, n: dict, acts, writable, mine) -> dict:
    """An owner's decision the engine waits for: where a unit falls back (its options, the engine's
    proposal first and pre-selected), or whether a charged unit meets the charge (reaction)."""
    side = n["side"]
    out = {"side": side, "side_name": F.side_label(side), "roll": n["roll"], "unit": n["unit"],
           "unit_name": _unit_name(st, n["unit"]), "mine": writable and side in acts}
    if n["roll"] == "retreat":
        out["options"] = [(o, _("off the board") if o == "off" else o) for o in n["options"]]
        out["proposal"] = n["options"][0]
    else:
        out["mine"] = writable and side in mine  # a reaction plays a face-down card: its own seat only
        out["attacker"] = _unit_name(st, n.get("attacker"))
        zone = st.current_zone
        out["cards"] = ([(c.id, F.card_label(c.type)) for c in st.cards if c.owner == side and c.state == "placed"
                         and c.zone == zone and c.type == "bayonets"] if side in mine else [])
    return out


def _correction_view(st, prop, acts, writable) -> dict | None:
    if not prop:
        return None
    others = [s for s in SIDES if s != prop["by"]]
    return {"by": F.side_label(prop["by"]), "unit": _unit_name(st, prop["unit"]),
            "what": changes_text(prop["set"])[1 if _lang() == "en" else 0],
            "agree_as": next((s for s in others if writable and s in acts), None),
            "drop_as": next((s for s in SIDES if writable and s in acts), None)}


def _step_view(st, rec: dict) -> dict:
    cards = []
    for side, c in rec.get("cards", {}).items():
        d = c.get("details") or {}
        dice = []
        if "dice" in d:
            dice.append(" ".join(map(str, d["dice"])))
        for role in ("attacker", "defender"):
            if isinstance(d.get(role), dict):
                mods = " ".join(f"+{v} {_mod_label(k)}" for k, v in d[role].get("mods", {}).items())
                dice.append(f"{' '.join(map(str, d[role]['dice']))} {mods} = {d[role]['total']}")
        cards.append({"side_name": F.side_label(side), "label": F.card_label(c["kind"]), "unit": _unit_name(st, c.get("unit")),
                      "target": _unit_name(st, c.get("target")), "state": c.get("state"),
                      "reason": _plain(st, _reason(c.get("reason"))),
                      "dice": dice})
    sources = sorted({v.get("source", "physical") for v in rec.get("dice", {}).values()})
    return {"turn": rec.get("turn"), "zone": F.zone_label(rec["zone"], None), "cards": cards,
            "digital": "digital" in sources}


def _units_view(st) -> list[dict]:
    out = []
    for u in st.units:
        blocks = (f"{u.crew} + {_('gun')}" if u.gun else str(u.crew)) if u.kind == "artillery" else str(u.blocks)
        where = u.sector if u.on_board else {"reserve": _("reserve"), "destroyed": _("destroyed"),
                                            "deserted": _("deserted")}.get(u.location, u.location)
        out.append({"id": u.id, "name": unit_name(u, _lang()), "side": u.owner, "kind": F.kind_label(u.kind),
                    "where": where, "blocks": blocks,
                    "formation": F.formation_label(u.formation), "facing": F.facing_label(u.facing), "routed": u.routed,
                    "attacks": ", ".join(u.attacks_used)})
    return out


def _settings_changed(st) -> list[dict]:
    out = []
    for d in describe_settings():
        if d["key"] in ("terrain_map",):
            continue
        value = getattr(st.settings, d["key"])
        out.append({"key": d["key"], "label": F.SETTING_LABELS.get(d["key"], d["key"]),
                    "value": F.setting_value_text(d["key"], value), "changed": value != d["default"],
                    "note": d["en"] if _lang() == "en" else d["ru"]})
    return out


# Commands that handle a side's face-down order cards: only its own seat sends them (a reaction names
# a face-down Bayonets! card: the engine's answer to anyone else would tell whether it exists).
SECRET = {"place", "unplace", "choose", "react"}
SIDE_COMMANDS = {"place": F.PlaceForm, "unplace": F.UnplaceForm, "confirm": F.SideForm, "zones": F.ZonesForm,
                 "choose": F.ChooseForm, "dice": F.DiceForm, "retreat_choice": F.RetreatChoiceForm,
                 "react": F.ReactForm, "correct": F.CorrectForm, "agree_correction": F.SideForm,
                 "drop_correction": F.SideForm}
OTHER_COMMANDS = {"initiative": F.InitiativeForm, "end_turn": F.VersionForm}




def parse(request, game: Game, actor, current) -> Parsed:
    """A posted form as a command (the engine's ``prepare`` rolls digital dice into it)."""
    kind = request.POST.get("command")
    form_class = SIDE_COMMANDS.get(kind) or OTHER_COMMANDS.get(kind)
    if form_class is None:
        raise BadInput(_("Unknown command."))
    side = request.POST.get("side")
    if kind in SIDE_COMMANDS and side not in SIDES:
        raise BadInput(_("Choose a side (South or North)."))
    # who may act first, before anything that reads a side's face-down cards or hidden choice
    if kind in SIDE_COMMANDS and side not in _acts_for(actor):
        raise BadInput(FORBIDDEN_REASON.text(_lang()), status=403)
    if kind in SECRET and side not in _mine(actor):
        raise BadInput(SECRET_REASON.text(_lang()), status=403)
    kwargs = {}
    if form_class is F.ChooseForm and side in SIDES:
        state = current()
        entry = _choose_entry(engine_of(state), state, side)
        kwargs = {"cards": entry["cards"], "units": entry["units"]}
    keep = {}
    if kind == "choose":  # a refused choice shows again as it was entered
        keep = {"choose": {k: str(request.POST.get(k, ""))[:40] for k in CHOICE_FIELDS},
                "choose_cards": [str(c)[:40] for c in request.POST.getlist("cards")[:4]]}
    form = form_class(request.POST, **kwargs)
    if not form.is_valid():
        raise BadInput("; ".join(str(e) for errs in form.errors.values() for e in errs), keep=keep)
    if kind == "correct":
        changes = form.changes()
        if not changes:
            raise BadInput(_("Fill in at least one thing to correct."))
        return Parsed({"type": "correct", "side": form.cleaned_data["side"], "unit": form.cleaned_data["unit"],
                       "set": changes}, form.cleaned_data["version"])
    cmd, problem = _command(kind, form.cleaned_data)
    if problem:
        raise BadInput(problem, keep=keep)
    return Parsed(cmd, form.cleaned_data["version"], keep=keep)


def _command(kind, d) -> tuple[dict, str | None]:
    if kind == "place":
        return {"type": "place", "side": d["side"], "card_type": d["card_type"], "zone": d["zone"]}, None
    if kind == "unplace":
        return {"type": "unplace", "side": d["side"], "card": d["card"]}, None
    if kind == "confirm":
        return {"type": "confirm", "side": d["side"]}, None
    if kind == "zones":
        return {"type": "zones", "side": d["side"], "sequence": d["sequence"].split(",")}, None
    if kind == "end_turn":
        return {"type": "end_turn"}, None
    if kind == "retreat_choice":
        return {"type": "retreat_choice", "side": d["side"], "unit": d["unit"], "sector": d["sector"]}, None
    if kind == "react":
        return {"type": "react", "side": d["side"], "unit": d["unit"], "card": d["card"]}, None
    if kind in ("agree_correction", "drop_correction"):
        return {"type": kind, "side": d["side"]}, None
    if kind == "initiative":
        if d.get("digital"):
            return {"type": "initiative", "source": "digital"}, None  # STEPPER.prepare rolls the dice
        return {"type": "initiative", "south": d["south"], "north": d["north"], "source": "physical"}, None
    if kind == "choose":
        cmd = {"type": "choose", "side": d["side"], "unit": d["unit"]}
        cards = list(d["cards"])
        cmd.update({"cards": cards} if len(cards) > 1 else {"card": cards[0]})
        for key in ("target", "to", "facing", "formation", "direction", "use"):
            if d.get(key):
                cmd[key] = d[key]
        if d.get("path"):
            cmd["path"] = d["path"]
        return cmd, None
    if kind == "dice":
        cmd = {"type": "dice", "side": d["side"], "roll": d["roll"]}
        if d.get("digital"):
            cmd.update(source="digital")  # STEPPER.prepare rolls as many dice as the step needs
        else:
            cmd.update(faces=d["faces"], source="physical")
        return cmd, None
    return {}, _("Unknown command.")
