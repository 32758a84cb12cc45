"""Views of the Generalissimus companion: new battle, the game page (per-viewer, secrets filtered)
and one POST endpoint for every command of the turn (works with and without htmx)."""
from __future__ import annotations

import random

from django.contrib import messages
from django.http import HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from gameplay.generalissimus import actions as act
from gameplay.generalissimus import describe_settings
from gameplay.generalissimus.geometry import front_sectors, zone_of
from gameplay.generalissimus.state import CARD_TYPES, FORMATIONS, ZONES, StateError
from gameplay.generalissimus.settings import SettingsError

from .. import access, jsongames, selectors, services
from ..models import Event, Game
from . import forms as F
from .rules import SIDES, dice_needs, engine_of, initial_state, sides_to_reveal
from .svg import render_board
from tracker.language import lang as _lang

_rng = random.SystemRandom()

PHASES = {"orders": gettext_lazy("Orders (face down, by zone)"), "initiative": gettext_lazy("Initiative"),
          "actions": gettext_lazy("Actions (reveal step by step)"), "end_of_turn": gettext_lazy("End of turn"),
          "finished": gettext_lazy("Battle over")}

# spec §3: reminders shown at the right moment
REMINDERS = {
    "orders": [
        gettext_lazy("Cards go face down beside a zone. Several per zone are fine."),
        gettext_lazy("Routed units cannot take orders. Stopping a rout needs two Form up cards in that unit's zone."),
        gettext_lazy("To meet an enemy charge with a counter-charge you need a Bayonets! card in that zone, revealed in the same step."),
        gettext_lazy("Enemy fire takes priority over your charge."),
        gettext_lazy("Changing formation always needs a Form up card (except cavalry turning after a move)."),
    ],
    "initiative": [
        gettext_lazy("Each player rolls one die. A tie is rolled again."),
        gettext_lazy("The winner names the zone order and wins conflicts."),
    ],
    "actions": [
        gettext_lazy("One card per player per step; the exception is the rally (two Form up cards)."),
        gettext_lazy("A card that cannot be carried out is removed."),
        gettext_lazy("Fire resolves before a charge, whatever the initiative. Casualties from simultaneous fire come off together."),
        gettext_lazy("No unit volleys, fires artillery or charges twice in one turn."),
        gettext_lazy("Line +1 fire. Column +1 bayonet. Square +2 only against cavalry in melee. Flank +1 for fire and melee."),
        gettext_lazy("Infantry fires at the front, front-left or front-right sector. A charge targets the front sector only."),
        gettext_lazy("Artillery: range 2 straight / 1 diagonal, 3 from a hill; no fire from a river, over own units, or when disordered. One die per crew block."),
        gettext_lazy("Cavalry: up to 2 sectors, through own units (both disordered), never through enemies or forest; a river stops it."),
        gettext_lazy("Melee: both sides become disordered. The loser's flag goes down and it falls back; the winner steps in. A tie leaves both in place."),
        gettext_lazy("A target without Bayonets! gives way, disordered, without dice. Cavalry charging a routed unit destroys it."),
        gettext_lazy("After losses: 1 block means disordered. A square under 3 blocks is no longer a square."),
    ],
    "end_of_turn": [
        gettext_lazy("Every unit routed before this turn moves one sector towards its own edge (chain panic, destruction or desertion if blocked)."),
        gettext_lazy("Then the victory check; attack limits reset; cards go back to the piles."),
        gettext_lazy("Reserves may enter with a Move card."),
    ],
}
SETUP_REMINDERS = [
    gettext_lazy("Sides are equal unless agreed otherwise (blocks per side)."),
    gettext_lazy("Infantry: 3 blocks, cavalry 2, battery 3 (gun + 2 crew)."),
    gettext_lazy("Cavalry and artillery start in column only. Square needs 3 blocks."),
    gettext_lazy("Units deploy only on the home sectors. Any overflow goes to reserve."),
    gettext_lazy("Cavalry and artillery cannot deploy on forest."),
]



def _reason(r) -> str:
    """An engine reason dict {'ru', 'en'} in the active language."""
    if not r:
        return ""
    return r.get("en", "") if _lang() == "en" else r.get("ru", "")


# ----------------------------------------------------------------------------------------------
# new battle
# ----------------------------------------------------------------------------------------------

def new(request):
    form = F.NewBattleForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        players = {"south": d["south_player"], "north": d["north_player"]}
        try:
            initial = initial_state(d["unit_list"], d["terrain"], d["settings"], None, players)
        except (StateError, SettingsError) as exc:
            form.add_error(None, _("This setup is not possible: %(error)s") % {"error": exc})
        else:
            game = jsongames.create_json_game(
                Game.GENERALISSIMUS, d["name"], [(d["south_player"], ["south"]), (d["north_player"], ["north"])],
                initial, options={"preset": d["preset"]},
                summary=("Битва создана: ход 1, фаза приказов.", "Battle created: turn 1, orders phase."))
            access.grant(request, game, "host", game.host_token)
            for warning in form.warnings(d["unit_list"], d["settings"]):
                messages.warning(request, warning)
            return redirect(reverse("seats", args=[game.pk]))
    return render(request, "generalissimus/new.html", {"form": form, "reminders": SETUP_REMINDERS})


# ----------------------------------------------------------------------------------------------
# the game page
# ----------------------------------------------------------------------------------------------

_actor_or_403 = access.actor_or_403


def _mine(actor) -> tuple[str, ...]:
    """The sides whose secrets this browser may see: only a seat's own sides (a host without a
    seat is the shared table screen and sees what spectators see)."""
    return tuple(s for s in (actor.seat.countries if actor.seat else ()) if s in SIDES)


def _acts_for(actor) -> tuple[str, ...]:
    return tuple(s for s in actor.allowed(SIDES) if s in SIDES)


def _unit_name(st, uid) -> str:
    u = st.unit(uid) if uid else None
    if u is None:
        return uid or ""
    return f"{uid} ({F.kind_label(u.kind)}, {u.sector or '—'})"


def _card_view(st, side, rev: dict, mine=False) -> dict:
    cards = {c.id: c for c in st.cards}
    ids = rev.get("cards") or [rev.get("card")]
    kind = "rally" if len(ids) == 2 else (cards[ids[0]].type if ids[0] in cards else "")
    return {"side": side, "side_name": F.side_label(side), "kind": kind, "label": F.card_label(kind) if kind else "",
            "unit": _unit_name(st, rev.get("unit")), "target": _unit_name(st, rev.get("target")) if rev.get("target") else "",
            "extra": " ".join(str(rev[k]) if not isinstance(rev[k], list) else "→".join(rev[k])
                              for k in ("to", "path", "facing", "formation", "direction") if rev.get(k))}


def unit_options(st, uid: str) -> tuple[list[dict], dict]:
    """What a unit may do now, card by card (public information), and sectors to highlight."""
    u = st.unit(uid)
    hints: dict[str, set] = {"move": set(), "target": set()}
    if u is None:
        return [], hints
    out = []

    def line(card, ok, text):
        out.append({"card": F.card_label(card), "ok": ok, "text": text})

    if u.location != "board":
        if u.location == "reserve":
            line("move", True, _("In reserve: a Move card in a zone brings it onto an empty home-row sector of that zone."))
        return out, hints
    if u.routed:
        line("rally", True, _("Routed: takes no orders. Two Form up cards revealed together in its zone rally it."))
        return out, hints
    zone = zone_of(u.sector, st.settings.zone_columns)
    # move
    if u.kind == "cavalry":
        dests = set()
        f = front_sectors(u.sector, u.facing)
        for a in filter(None, f.values()):
            for path in [[a]] + [[a, b] for b in filter(None, front_sectors(a, u.facing).values())]:
                if act.check_move(st, uid, path=path) is None:
                    dests.add(path[-1])
        hints["move"] = dests
        line("move", bool(dests), _("Can reach: %(list)s") % {"list": ", ".join(sorted(dests))} if dests
             else _("No sector reachable."))
    else:
        bad = act.check_move(st, uid)
        dest = front_sectors(u.sector, u.facing)["F"]
        if bad is None:
            hints["move"] = {dest}
        line("move", bad is None, _("Forward to %(sector)s.") % {"sector": dest} if bad is None else _reason(bad.reason))
    # fire
    fire_kind = "musket_volley" if u.kind == "infantry" else ("artillery_volley" if u.kind == "artillery" else None)
    if fire_kind:
        targets, last = [], None
        for t in st.units:
            if t.owner != u.owner and t.on_board:
                bad = act.check_fire(st, fire_kind, uid, t.id)
                if bad is None:
                    targets.append(t.id)
                    hints["target"].add(t.sector)
                else:
                    last = bad
        line(fire_kind, bool(targets), _("Targets: %(list)s") % {"list": ", ".join(targets)} if targets
             else (_reason(last.reason) if last else _("No enemy on the board.")))
    # charge
    if u.kind in ("infantry", "cavalry"):
        front = st.unit_at(front_sectors(u.sector, u.facing)["F"])
        if front is not None and front.owner != u.owner:
            bad = act.check_charge(st, uid, front.id)
            if bad is None:
                hints["target"].add(front.sector)
            line("bayonets", bad is None, _("Charge %(target)s.") % {"target": front.id} if bad is None else _reason(bad.reason))
        else:
            line("bayonets", True, _("No enemy in front: only to meet a charge on this unit in the same step."))
    line("manoeuvre", True, _("Turn 90° left or right (now facing %(facing)s).") % {"facing": u.facing})
    allowed = [f for f in FORMATIONS if f != u.formation and act._formation_problem(u, f) is None]
    line("form_up", bool(allowed), (_("Can form: %(list)s") % {"list": ", ".join(F.formation_label(f) for f in allowed)})
         if allowed else _("No other formation is possible."))
    bad = act.check_retreat(st, uid)
    line("retreat", bad is None, _("Fall back one sector towards the home edge.") if bad is None else _reason(bad.reason))
    out.insert(0, {"card": _("Zone"), "ok": True, "text": F.zone_label(zone, u.owner)})
    return out, hints


def _context(request, game: Game, actor, forms=None) -> dict:
    state = jsongames.state_of(game)
    st = engine_of(state)
    mine, acts = _mine(actor), _acts_for(actor)
    viewer = mine[0] if mine else None
    events = list(game.events.all().select_related("seat"))
    done, undone = selectors.effective_moves(events)
    writable = actor.can_write and st.phase != "finished"
    selected = request.GET.get("unit") if isinstance(request.GET.get("unit"), str) else None
    if selected and st.unit(selected) is None:
        selected = None
    options, hints = unit_options(st, selected) if selected else ([], {})
    counts = {side: {z: 0 for z in ZONES} for side in SIDES}
    pile_total = {side: 0 for side in SIDES}
    for c in st.cards:
        if c.state == "placed":
            counts[c.owner][c.zone] += 1
        elif c.state == "in_pile":
            pile_total[c.owner] += 1
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
    needs = dice_needs(state) if reveal else []
    to_reveal = sides_to_reveal(st) if st.phase == "actions" and not reveal else []
    players = state.get("players", {})
    version = game.version
    forms = forms or {}
    ctx = {
        "game": game, "actor": actor, "lang": _lang(), "st": st, "mine": mine, "acts": acts, "viewer": viewer,
        "writable": writable, "phase_name": PHASES.get(st.phase, st.phase), "reminders": REMINDERS.get(st.phase, []),
        "players": [(F.side_label(s), players.get(s, ""), s) for s in SIDES],
        "board_svg": mark_safe(render_board(st.to_dict(), viewer, selected,
                                            {k: v for k, v in hints.items()} if hints else None)),
        "selected": st.unit(selected) if selected else None, "options": options,
        "zones": zones, "pile_total": [(F.side_label(s), pile_total[s]) for s in SIDES if s not in mine],
        "my": my, "version": version,
        "zone_sequence": [F.zone_label(z, viewer) for z in st.zone_sequence],
        "current_zone": F.zone_label(st.current_zone, viewer) if st.current_zone else "",
        "initiative_rolls": list(zip(st.initiative_rolls.get("south", []), st.initiative_rolls.get("north", []))),
        "initiative_winner": F.side_label(st.initiative_winner) if st.initiative_winner else "",
        "i_choose_zones": st.phase == "initiative" and st.initiative_winner in acts and writable,
        "zone_orders": [(",".join(p), " → ".join(F.zone_label(z, viewer) for z in p)) for p in _perms()],
        "to_reveal": [{"side": s, "name": F.side_label(s), "chosen": bool((state.get("pending") or {}).get(s))}
                      for s in to_reveal],
        "choose": [_choose_entry(st, state, s) for s in mine if s in to_reveal and not (state.get("pending") or {}).get(s)]
        if writable else [],
        "reveal": [_card_view(st, s, rev) for s, rev in reveal["cards"].items()] if reveal else [],
        "needs": [_need_view(st, n, acts, writable) for n in needs],
        "last_step": _step_view(st, state.get("steps", [])[-1]) if state.get("steps") else None,
        "digital": st.settings.allow_digital_dice,
        "dice_values": range(1, 7),
        "history": selectors.history(game, events)[:60],
        "done_moves": bool(done), "undone_moves": bool(undone),
        "units": _units_view(st),
        "settings_changed": _settings_changed(st),
        "winner": (_("Draw") if st.winner == "draw" else F.side_label(st.winner)) if st.winner else "",
        "forms": forms,
        "poll_url": reverse("poll", args=[game.pk]),
        "self_url": reverse("generalissimus:game", args=[game.pk]) + (f"?unit={selected}" if selected else ""),
    }
    return ctx


def _perms():
    from itertools import permutations
    return list(permutations(ZONES))


def _choose_entry(st, state, side) -> dict:
    zone = st.current_zone
    cards = [(c.id, F.card_label(c.type)) for c in st.cards if c.owner == side and c.state == "placed" and c.zone == zone]
    units = [(u.id, _unit_name(st, u.id) + (" — " + _("routed") if u.routed else ""))
             for u in st.units if u.owner == side and (u.location == "reserve" or
                                                       (u.on_board and zone_of(u.sector, st.settings.zone_columns) == zone))]
    others = [(u.id, _unit_name(st, u.id)) for u in st.units if u.owner == side and u.on_board and (u.id, _unit_name(st, u.id)) not in units]
    enemies = [(u.id, _unit_name(st, u.id)) for u in st.units if u.owner != side and u.on_board]
    return {"side": side, "name": F.side_label(side), "cards": cards, "units": units + others, "enemies": enemies,
            "formations": [(f, F.formation_label(f)) for f in FORMATIONS]}


def _need_view(st, n: dict, acts, writable) -> dict:
    entered = n.get("entered")
    if n["roll"] == "fire":
        bonus = n.get("bonus", 0)
        if n.get("mode") == "extra_die":
            text = _("%(unit)s fires at %(target)s: roll %(n)s dice, hit on 5–6.") % {"unit": n["unit"], "target": n["target"], "n": n["n"]}
        else:
            text = _("%(unit)s fires at %(target)s: roll %(n)s dice, hit on %(hit)s–6 (bonus +%(bonus)s).") % {
                "unit": n["unit"], "target": n["target"], "n": n["n"], "hit": max(1, 5 - bonus), "bonus": bonus}
    else:
        mods = ", ".join(f"{k} +{v}" for k, v in (n.get("mods") or {}).items()) or "—"
        text = _("Melee, %(role)s %(unit)s: roll %(n)s dice, the sum plus modifiers (%(mods)s).") % {
            "role": _("attacker") if n.get("role") == "attacker" else _("defender"), "unit": n["unit"], "n": n["n"], "mods": mods}
    return {"side": n["side"], "side_name": F.side_label(n["side"]), "roll": n["roll"], "n": n["n"], "text": text,
            "entered": entered, "dice": range(1, n["n"] + 1),
            "mine": writable and n["side"] in acts and entered is None}


def _step_view(st, rec: dict) -> dict:
    cards = []
    for side, c in rec.get("cards", {}).items():
        d = c.get("details") or {}
        dice = []
        if "dice" in d:
            dice.append(" ".join(map(str, d["dice"])))
        for role in ("attacker", "defender"):
            if isinstance(d.get(role), dict):
                mods = " ".join(f"+{v} {k}" for k, v in d[role].get("mods", {}).items())
                dice.append(f"{' '.join(map(str, d[role]['dice']))} {mods} = {d[role]['total']}")
        cards.append({"side_name": F.side_label(side), "label": F.card_label(c["kind"]), "unit": c.get("unit"),
                      "target": c.get("target") or "", "state": c.get("state"), "reason": _reason(c.get("reason")),
                      "dice": dice})
    sources = sorted({v.get("source", "physical") for v in rec.get("dice", {}).values()})
    return {"turn": rec.get("turn"), "zone": F.zone_label(rec["zone"], None), "cards": cards,
            "digital": "digital" in sources}


def _units_view(st) -> list[dict]:
    out = []
    for u in st.units:
        blocks = f"{u.crew}+{'G' if u.gun else '-'}" if u.kind == "artillery" else str(u.blocks)
        where = u.sector if u.on_board else {"reserve": _("reserve"), "destroyed": _("destroyed"),
                                            "deserted": _("deserted")}.get(u.location, u.location)
        out.append({"id": u.id, "side": u.owner, "kind": F.kind_label(u.kind), "where": where, "blocks": blocks,
                    "formation": F.formation_label(u.formation), "facing": u.facing, "routed": u.routed,
                    "attacks": ", ".join(u.attacks_used)})
    return out


def _settings_changed(st) -> list[dict]:
    current = st.settings.to_dict()
    out = []
    for d in describe_settings():
        if d["key"] in ("terrain_map",):
            continue
        value = current[d["key"]]
        out.append({"key": d["key"], "label": F.SETTING_LABELS.get(d["key"], d["key"]), "value": value,
                    "changed": value != d["default"], "ref": d["ref"], "note": d["en"] if _lang() == "en" else d["ru"]})
    return out


@require_GET
def game(request, pk):
    game = get_object_or_404(Game, pk=pk, kind=Game.GENERALISSIMUS)
    actor, denied = _actor_or_403(request, game)
    if denied:
        return denied
    template = "generalissimus/_game.html" if request.htmx else "generalissimus/game.html"
    return render(request, template, _context(request, game, actor))


# ----------------------------------------------------------------------------------------------
# commands
# ----------------------------------------------------------------------------------------------

SIDE_COMMANDS = {"place": F.PlaceForm, "unplace": F.UnplaceForm, "confirm": F.SideForm, "zones": F.ZonesForm,
                 "choose": F.ChooseForm, "dice": F.DiceForm}
OTHER_COMMANDS = {"initiative": F.InitiativeForm, "end_turn": F.VersionForm, "undo": F.VersionForm,
                  "redo": F.VersionForm}


@require_POST
def command(request, pk):
    game = get_object_or_404(Game, pk=pk, kind=Game.GENERALISSIMUS)
    actor, denied = _actor_or_403(request, game)
    if denied:
        return denied
    if not actor.can_write:
        return _answer(request, game, actor, messages.ERROR, _("Spectators cannot make moves."), status=403)
    kind = request.POST.get("command")
    form_class = SIDE_COMMANDS.get(kind) or OTHER_COMMANDS.get(kind)
    if form_class is None:
        return _answer(request, game, actor, messages.ERROR, _("Unknown command."), status=400)
    side = request.POST.get("side")
    if kind in SIDE_COMMANDS and side in SIDES and side not in _acts_for(actor):
        return _answer(request, game, actor, messages.ERROR, _("You cannot act for this side."), status=403)
    state = jsongames.state_of(game)
    st = engine_of(state)
    kwargs = {}
    if form_class is F.ChooseForm and side in SIDES:
        entry = _choose_entry(st, state, side)
        kwargs = {"cards": entry["cards"], "units": entry["units"]}
    form = form_class(request.POST, **kwargs)
    if not form.is_valid():
        errors = "; ".join(str(e) for errs in form.errors.values() for e in errs)
        return _answer(request, game, actor, messages.ERROR, errors, status=400)
    d = form.cleaned_data
    if kind in ("undo", "redo"):
        result = (services.undo if kind == "undo" else services.redo)(game.pk, d["version"], actor)
    else:
        cmd, problem = _command(kind, d, state, st)
        if problem:
            return _answer(request, game, actor, messages.ERROR, problem, status=400)
        result = _submit(game, d["version"], actor, cmd, st.turn)
    lang = _lang()
    text = result.reason.text(lang) if result.reason else ""
    notes = [n.text(lang) for n in result.notes]
    level = messages.SUCCESS if result.applied else (messages.WARNING if result.status == services.STALE else messages.ERROR)
    status = {services.APPLIED: 200, services.STALE: 409, services.FORBIDDEN: 403, services.INVALID: 400}.get(result.status, 422)
    return _answer(request, game, actor, level, text, notes=notes, status=status)


# Commands a side makes at the same time as the other side, on its own secret part of the table
# (orders face down, the card for a step, its own dice). What the other side did meanwhile is
# hidden from it anyway, so a form rendered before the other side's move is still meant as sent:
# it is re-submitted against the new version (the engine checks it again in full).
SIMULTANEOUS = {"place", "unplace", "confirm", "choose", "dice"}


def _submit(game, version, actor, cmd, turn_no):
    for _attempt in range(3):
        result = jsongames.submit_json(game.pk, version, actor, cmd, round_no=turn_no)
        if result.status != services.STALE or cmd.get("type") not in SIMULTANEOUS:
            return result
        later = list(Event.objects.filter(game=game, seq__gt=version).order_by("seq"))
        # quick taps on the card buttons: each placement adds a card, so one's own placements made
        # meanwhile do not change what the next tap means either
        own_ok = cmd.get("type") in ("place", "unplace")
        if not later or not all(e.kind == Event.MOVE and e.command.get("type") in SIMULTANEOUS
                                and e.command.get("side") is not None
                                and (e.command.get("side") != cmd.get("side")
                                     or (own_ok and e.command.get("type") in ("place", "unplace")))
                                for e in later):
            return result
        version = later[-1].seq
    return result


def _command(kind, d, state, st) -> tuple[dict, str | None]:
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
    if kind == "initiative":
        if d.get("digital"):
            if not st.settings.allow_digital_dice:
                return {}, _("Digital dice are switched off for this game.")
            # drawn here and written into the command, so the log replays exactly
            return {"type": "initiative", "south": _rng.randint(1, 6), "north": _rng.randint(1, 6), "source": "digital"}, None
        return {"type": "initiative", "south": d["south"], "north": d["north"], "source": "physical"}, None
    if kind == "choose":
        cmd = {"type": "choose", "side": d["side"], "unit": d["unit"]}
        cards = list(d["cards"])
        cmd.update({"cards": cards} if len(cards) > 1 else {"card": cards[0]})
        for key in ("target", "to", "facing", "formation", "direction"):
            if d.get(key):
                cmd[key] = d[key]
        if d.get("path"):
            cmd["path"] = d["path"]
        return cmd, None
    if kind == "dice":
        cmd = {"type": "dice", "side": d["side"], "roll": d["roll"]}
        if d.get("digital"):
            if not st.settings.allow_digital_dice:
                return {}, _("Digital dice are switched off for this game.")
            need = next((n for n in dice_needs(state) if n["side"] == d["side"] and n["roll"] == d["roll"]), None)
            count = need["n"] if need else d["n"]
            cmd.update(faces=[_rng.randint(1, 6) for _i in range(count)], source="digital")
        else:
            cmd.update(faces=d["faces"], source="physical")
        return cmd, None
    return {}, _("Unknown command.")


def _answer(request, game, actor, level, text, notes=(), status=200):
    """htmx: the refreshed game partial with the message; otherwise a redirect (PRG)."""
    if not request.htmx:
        if status == 403:
            return HttpResponseForbidden(text)
        if text:
            messages.add_message(request, level, text)
        for note in notes:
            messages.info(request, note)
        return redirect(reverse("generalissimus:game", args=[game.pk]))
    game.refresh_from_db()
    context = _context(request, game, actor)
    context["flash"] = {"level": {messages.SUCCESS: "success", messages.WARNING: "warning",
                                  messages.ERROR: "error"}.get(level, "info"), "text": text, "notes": notes}
    return render(request, "generalissimus/_game.html", context, status=status)
