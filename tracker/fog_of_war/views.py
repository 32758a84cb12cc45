"""Views of The Fog of War companion.

Hidden information (spec §4) is filtered here, per viewer: ``table_view`` builds the only data the
templates get. A seat sees its own hand, stacks, operations, objectives and intel results; the other
seat and spectators see counts only. The host link without a seat sees the public table.
"""
from __future__ import annotations

import random

from django.contrib import messages
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from gameplay.fog_of_war import year_end as ye
from gameplay.fog_of_war.board import SIDES, other, winter_bonus
from gameplay.fog_of_war.config import FowSettings
from gameplay.fog_of_war.state import SLOTS

from tracker import access, jsongames, selectors, services
from tracker.models import Game

from . import rules  # noqa: F401  (registers the adapter at start-up)
from .forms import MapForm, NewFogGameForm
from .rules import (OUTCOME_NAMES, RULES, card_code, complete_battle_command, engine, parse_card_list,
                    province_name, year_end_next)
from tracker.language import lang as _lang

HAND_COMMANDS = ("defend", "new_op", "reinforce_op", "reinforce_quagmire")
TURN_COMMANDS = HAND_COMMANDS + ("start_turn", "cancel_op", "launch", "resolve_quagmire", "intel", "end_turn")
YE_SIDE_COMMANDS = ("ye_spend", "ye_recall")
GLOBAL_COMMANDS = ("set_map", "set_control") + tuple(c for c in rules.YE_COMMANDS if c not in YE_SIDE_COMMANDS)



class BadInput(ValueError):
    pass


# ------------------------------------------------------------------------------------------
# New game
# ------------------------------------------------------------------------------------------

def new_game(request):
    form = NewFogGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        rng = random.SystemRandom()
        try:
            initial = rules.initial_state(
                settings=form.settings(),
                axis_cards=parse_card_list(d["axis_cards"], "axis", "ax", rng),
                allies_cards=parse_card_list(d["allies_cards"], "allies", "al", rng),
                neutral_cards=parse_card_list(d["neutral_cards"], "neutral", "ne", rng),
                board=d["board_map"], preplace=d["preplace"], seed=rng.randrange(2 ** 31))
        except ValueError as exc:
            form.add_error(None, str(exc))
        else:
            game = jsongames.create_json_game(
                Game.FOG_OF_WAR, d["name"], [(d["axis_player"], ["axis"]), (d["allies_player"], ["allies"])],
                initial, options={"settings": form.settings()},
                summary=("Игра создана: 1940, лето; по 3 карты на руке.", "Game created: 1940, summer; 3 cards in each hand."))
            access.grant(request, game, "host", game.host_token)
            return redirect(reverse("seats", args=[game.pk]))
    return render(request, "fog_of_war/new.html", {"form": form})


# ------------------------------------------------------------------------------------------
# What one viewer may see
# ------------------------------------------------------------------------------------------

def _viewer(actor) -> str | None:
    if actor.seat is not None and actor.seat.countries:
        return actor.seat.countries[0]
    return None


def _card(c, n=None) -> dict:
    code = card_code(c)
    label = code if code != "?" else (_("card %(n)s") % {"n": c.id.rsplit("-", 1)[-1]})
    return {"id": c.id, "code": code, "label": label + (f" {c.name}" if c.name else ""), "n": n,
            "known": c.known_to_opponent}


def _side_name(side, lang):
    return RULES.side_name(side, lang)


def table_view(state: dict, viewer: str | None, lang: str) -> dict:
    """Everything the page shows, with private parts only for ``viewer``'s own side."""
    st = engine(state)
    pname = lambda k: province_name(st, k, lang)  # noqa: E731
    sides = []
    for key in SIDES:
        s = st.sides[key]
        mine = key == viewer
        ops = []
        for o in sorted(s.operations, key=lambda o: s.position(o)):
            pos = s.position(o)
            mark = st.wheel(pos)
            row = {"slot": o.slot, "position": pos, "n": len(o.cards), "launchable": mark["launchable"],
                   "modifier": mark["modifier"], "no_intel": mark["no_intel"]}
            if mine:
                row.update(target=o.target, target_name=pname(o.target), cards=[_card(c) for c in o.cards])
            ops.append(row)
        row = {"key": key, "name": _side_name(key, lang), "mine": mine, "active": key == st.active_side,
               "deck": len(s.deck), "hand": len(s.hand), "discard": len(s.discard), "wins": len(s.wins),
               "losses": len(s.losses), "province_deck": len(s.province_deck),
               "in_front": [pname(k) for k in s.in_front], "production_level": s.production_level, "vp": s.vp,
               "intel_available": s.intel_available, "intel_used": s.intel_used, "pointer": s.wheel_pointer,
               "ops": ops, "special": {k: len(v) for k, v in s.special_sets.items()},
               "superiority": st.superiority == key,
               "wheel": [{"slot": SLOTS[(SLOTS.index(s.wheel_pointer) - p) % 6], "position": p, **st.wheel(p)}
                         for p in range(6)]}
        if mine or st.settings.piles_public:
            row["piles"] = {p: [_card(c) for c in getattr(s, p)] for p in ("discard", "wins", "losses")}
        if mine:
            row["hand_cards"] = [_card(c) for c in s.hand]
        sides.append(row)
    provinces = []
    for key, p in st.provinces.items():
        d = st.pdef(key)
        row = {"key": key, "name": pname(key), "kind": d.kind, "control": p.control,
               "control_name": _side_name(p.control, lang) if p.control in SIDES else _("neutral"),
               "quagmire": p.quagmire.attacker if p.quagmire else None, "neutrality_token": p.neutrality_token,
               "no_supply": p.no_supply, "answered": state.get("supply_answers", {}).get(key),
               "defence": {s: len(p.defence[s]) for s in SIDES}, "neutral": len(p.neutral_cards),
               "climate": d.climate, "vp": d.vp, "resources": d.resources,
               "quag_up": [_card(c) for s in SIDES for c in p.quagmire_cards[s] if c.face_up],
               "quag_down": {s: sum(1 for c in p.quagmire_cards[s] if not c.face_up) for s in SIDES}}
        if viewer:
            row["my_defence"] = [_card(c) for c in p.defence[viewer]]
            row["my_quag_down"] = [_card(c) for c in p.quagmire_cards[viewer] if not c.face_up]
        if viewer == "allies" and d.allies_may_view_neutral:
            row["neutral_seen"] = [_card(c) for c in p.neutral_cards]  # free look (§1.4 step 12)
        provinces.append(row)
    battles = []
    for b in reversed(state.get("battles", [])):
        battles.append({**b, "attacker_name": _side_name(b["attacker"], lang), "target_name": pname(b["target"]),
                        "outcome_name": OUTCOME_NAMES[b["outcome"]][1 if lang == "en" else 0]})
    intel_log = [{**i, "spy_name": _side_name(i["spy"], lang), "label": i["label_en" if lang == "en" else "label_ru"]}
                 for i in reversed(state.get("intel", []))]
    objectives = []
    if viewer == "axis":
        objectives = [{"province": pname(o.province) if o.province else None, "location": o.location}
                      for o in st.objectives if o.location in ("axis_kept", "box")]
    if viewer == "allies" and st.settings.allied_objective_peek == "free":
        objectives = [{"province": pname(o.province) if o.province else None, "location": o.location}
                      for o in st.objectives if o.location == "near_morocco"]
    return {
        "year": st.year, "winter": st.winter, "turn_no": st.turn_no, "active": st.active_side,
        "active_name": _side_name(st.active_side, lang), "phase": st.phase, "turn_started": st.turn_started,
        "superiority": st.superiority, "superiority_name": _side_name(st.superiority, lang), "flags": st.flags,
        "winner": st.winner, "winner_name": _side_name(st.winner, lang) if st.winner else "", "win_reason": st.win_reason,
        "ledger": state.get("ledger", True), "has_map": st.board is not None, "sides": sides, "provinces": provinces,
        "battles": battles, "intel_log": intel_log,
        "intel_seen": list(reversed(state.get("intel_seen", {}).get(viewer, []))) if viewer else [],
        "objectives": objectives, "pending_quagmires": [pname(k) for k in st.pending_quagmires],
    }


def _choices(st, viewer, lang):
    """Select options for the viewer's forms (own data only)."""
    pname = lambda k: province_name(st, k, lang)  # noqa: E731
    if viewer is None:
        return {}
    s = st.sides[viewer]
    provs = st.provinces
    return {
        "defend": [(k, pname(k)) for k, p in provs.items() if p.control in (viewer, "neutral") and not p.quagmire],
        "targets": [(k, pname(k)) for k in s.province_deck if k in provs and provs[k].control != viewer
                    and not provs[k].quagmire],
        "origins": [(k, pname(k)) for k, p in provs.items() if p.control == viewer and not p.quagmire],
        "quagmires": [(k, pname(k)) for k, p in provs.items() if p.quagmire],
        "my_quagmires": [(k, pname(k)) for k, p in provs.items() if p.quagmire and p.quagmire.attacker == viewer],
        "ops": [(o.slot, _("%(slot)s · %(target)s · position %(pos)s")
                 % {"slot": o.slot, "target": pname(o.target), "pos": s.position(o)}) for o in s.operations],
        "enemy_ops": [o.slot for o in st.sides[other(viewer)].operations],
        "spy_provinces": [(k, pname(k)) for k, p in provs.items()
                          if p.defence[other(viewer)] or p.neutral_cards or p.quagmire_cards[other(viewer)]],
        "recall": [(k, pname(k)) for k, p in provs.items() if p.defence[viewer] and not p.quagmire],
        "all": [(k, pname(k)) for k in provs],
    }


def _year_end(st, lang) -> dict | None:
    nxt = year_end_next(st)
    if nxt is None:
        return None
    done = st.year_end.get("done", [])
    first = other(st.superiority)
    order = list(rules.YEAR_END_ORDER)
    if st.settings.reinforcement_timing == "before_production":
        order.remove("3.12")
        order.insert(order.index("3.5"), "3.12")
    titles = {
        "3.1": _("3.1 Axis victory points (70 wins)"), "3.2": _("3.2 Split the wins piles (discard first)"),
        "3.3": _("3.3 Refresh intel tokens"), "3.5": _("3.4–3.5 Production points and purchases"),
        "3.6": _("3.6 Recall cards from the board (none from quagmires)"), "3.7": _("3.7 Balkans (1940)"),
        "3.8": _("3.8 USA enters (1941)"), "3.9": _("3.9 USSR enters (1942)"), "3.10": _("3.10 New decks, draw"),
        "3.11": _("3.11 Next year (after 1944: secret objectives decide)"),
        "3.12": _("3.12 New reinforcements into losses"), "then": _("First player of the new year"),
    }
    steps = []
    for key in order:
        subs = [(key, s) for s in (first, st.superiority)] if key in ("3.5", "3.6") else [(key, None)]
        for k, side in subs:
            steps.append({"key": k, "side": side, "side_name": _side_name(side, lang) if side else "",
                          "title": titles[k], "done": (f"{k}:{side}" if side else k) in done,
                          "next": (k, side) == nxt, "command": next(c for c, v in rules.YE_COMMANDS.items() if v == k)})
    numbers = {}
    if st.board is not None:
        keys = list(st.sides["axis"].in_front)
        numbers["vp_gain"] = sum(st.pdef(k).vp for k in keys)
    for s in SIDES:
        numbers[f"pp_{s}"] = ye.production_points(st, s)
        w = len(st.sides[s].wins)
        numbers[f"split_{s}"] = ((w + 1) // 2, w // 2)
        numbers[f"losses_{s}"] = len(st.sides[s].losses)
        numbers[f"newdeck_{s}"] = len(st.sides[s].deck) + len(st.sides[s].discard)
    numbers["first"] = _side_name(ye.first_side(st), lang)
    return {"steps": steps, "next": nxt[0], "next_side": nxt[1], "next_command": next(
        c for c, v in rules.YE_COMMANDS.items() if v == nxt[0]), "numbers": numbers, "year": st.year,
        "last_year": st.year == ye.LAST_YEAR}


def _settings_rows(st, lang):
    active = st.settings.to_dict()
    rows = []
    for row in FowSettings.explain():
        rows.append({"ref": row["ref"], "key": row["key"], "value": active[row["key"]],
                     "changed": active[row["key"]] != row["default"], "text": row["en"] if lang == "en" else row["ru"]})
    return rows


def _context(request, game, actor, preview=None, form_data=None, flash=None):
    lang = _lang()
    state = jsongames.state_of(game)
    st = engine(state)
    viewer = _viewer(actor)
    view = table_view(state, viewer, lang)
    events = list(game.events.all().select_related("seat"))
    done, undone = selectors.effective_moves(events)
    allowed = actor.allowed(SIDES) if actor.can_write else ()
    acting = viewer if viewer else (st.active_side if actor.is_host else None)
    my_turn = bool(acting) and acting == st.active_side and acting in allowed and st.phase == "turn" and not st.winner
    s = st.sides[acting] if acting else None
    return {
        "game": game, "actor": actor, "lang": lang, "t": view, "viewer": viewer, "acting": acting,
        "acting_name": _side_name(acting, lang) if acting else "", "my_turn": my_turn,
        "can_write": actor.can_write and not st.winner,
        "must_play": bool(my_turn and s.hand_at_turn_start and not s.cards_played_this_turn and s.deck),
        "choices": _choices(st, viewer, lang) if viewer else {},  # own data only: never for another side
        "my_superiority": acting == st.superiority, "year_end": _year_end(st, lang),
        "settings_rows": _settings_rows(st, lang), "history": selectors.history(game, events)[:40],
        "done_moves": bool(done), "undone_moves": bool(undone), "preview": preview, "f": form_data or {},
        "flash": flash, "map_form": MapForm(), "winter_bonus": {c: winter_bonus(c) for c in ("sun", "snow", "none")},
        "hand_cards": next((x["hand_cards"] for x in view["sides"] if x["key"] == viewer and "hand_cards" in x), []),
    }


@require_GET
def game_page(request, pk):
    game = get_object_or_404(Game, pk=pk, kind=Game.FOG_OF_WAR)
    actor = access.actor_for(request, game)
    if actor is None:
        return render(request, "no_access.html", {"game": game}, status=403)
    template = "fog_of_war/_game.html" if request.htmx else "fog_of_war/game.html"
    return render(request, template, _context(request, game, actor))


# ------------------------------------------------------------------------------------------
# Commands
# ------------------------------------------------------------------------------------------

def _int(post, name, default=0, lo=0, hi=999):
    raw = (post.get(name) or "").strip()
    if raw == "":
        return default
    try:
        v = int(raw)
    except ValueError:
        raise BadInput(_("“%(field)s” must be a whole number.") % {"field": name}) from None
    if not lo <= v <= hi:
        raise BadInput(_("“%(field)s” is out of range.") % {"field": name})
    return v


def _codes(post, name):
    text = (post.get(name) or "").replace(",", " ").split()
    return [t.upper() for t in text]


def _positions(post, name, stack):
    out = []
    for t in (post.get(name) or "").replace(",", " ").split():
        if not t.isdigit() or not 1 <= int(t) <= len(stack):
            raise BadInput(_("“%(field)s”: positions are numbers from 1 to %(n)s.") % {"field": name, "n": len(stack)})
        out.append(stack[int(t) - 1].id)
    return out


def _battle_stacks(st, side, post):
    """The attack stack and the defender's stack (own, then neutral) in their order on the table."""
    if post.get("command") == "resolve_quagmire":
        prov = st.provinces.get(post.get("province", ""))
        if prov is None:
            return [], []
        return prov.quagmire_cards[side], prov.quagmire_cards[other(side)] + prov.defence[other(side)] + prov.neutral_cards
    op = st.sides[side].op(post.get("slot", ""))
    if op is None:
        return [], []
    prov = st.provinces[op.target]
    return op.cards, prov.defence[other(side)] + prov.neutral_cards


def build_command(post, st, side) -> dict:
    kind = post.get("command", "")
    c = {"type": kind}
    if side:
        c["side"] = side
    if kind in HAND_COMMANDS:
        cards = post.getlist("cards")
        if not cards:
            raise BadInput(_("Choose at least one card from your hand."))
        c["cards"] = cards
    if kind in ("defend", "reinforce_quagmire", "resolve_quagmire"):
        c["province"] = post.get("province", "")
    if kind == "new_op":
        c["target"] = post.get("target", "")
        c["replace"] = post.get("replace") == "on"
    if kind in ("cancel_op", "reinforce_op", "launch"):
        c["slot"] = post.get("slot", "")
    if kind in ("launch", "resolve_quagmire"):
        if kind == "launch":
            c["origin"] = post.get("origin", "")
            amph = post.get("amphibious", "")
            if amph in ("yes", "no"):
                c["amphibious"] = amph == "yes"
            if st.board is None:
                sup = post.get("origin_supplied", "")
                if sup in ("yes", "no"):
                    c["origin_supplied"] = sup == "yes"
        if post.get("climate") in ("sun", "snow", "none"):
            c["climate"] = post["climate"]
        c["use_superiority"] = post.get("use_superiority") == "on"
        for key in ("reveal_attack", "reveal_defence", "reveal_neutral"):
            codes = _codes(post, key)
            if codes:
                c[key] = codes
        att, dfn = _battle_stacks(st, side, post)
        wins = _positions(post, "wins", att) + _positions(post, "wins_defence", dfn)
        if wins:
            c["wins_choice"] = wins
        qa, qd = _positions(post, "quag_attacker", att), _positions(post, "quag_defender", dfn)
        if qa or qd:
            if not (qa and qd):
                raise BadInput(_("Enter the table's quagmire losses for both sides, or leave both empty for the app's random pick."))
            c["quagmire_choice"] = {"attacker": qa, "defender": qd}
    if kind == "intel":
        tk = post.get("target_kind", "")
        target = {"kind": tk}
        if tk in ("defence", "neutral", "quagmire"):
            target["province"] = post.get("province", "")
        elif tk == "op":
            target["slot"] = post.get("slot", "")
        c["target"] = target
        c["end_of_turn"] = post.get("end_of_turn") == "on"
        c["counter_rounds"] = _int(post, "counter_rounds", 0, 0, 20)
    if kind == "set_map":
        form = MapForm(post)
        if not form.is_valid():
            raise BadInput("; ".join(str(e) for errs in form.errors.values() for e in errs))
        c["map"] = form.cleaned_data["board_map"]
    if kind == "set_control":
        c["province"], c["control"] = post.get("province", ""), post.get("control", "")
    if kind == "ye_score_vp" and post.get("vp_gain", "").strip():
        c["vp_gain"] = _int(post, "vp_gain", 0, 0, 200)
    if kind == "ye_spend":
        c.update(losses=_int(post, "losses"), level=_int(post, "level"), intel_pairs=_int(post, "intel_pairs"),
                 vp=_int(post, "vp"))
        if post.get("resources", "").strip():
            c["resources"] = _int(post, "resources", 0, 0, 200)
    if kind == "ye_recall":
        c["provinces"] = post.getlist("provinces")
        c["cancel"] = post.getlist("cancel")
    if kind == "ye_advance":
        c["objectives"] = [p for p in (post.get("objective_1", ""), post.get("objective_2", "")) if p]
    if kind == "ye_reinforcements":
        for s in SIDES:
            text = (post.get(f"reinf_{s}") or "").strip()
            if text and not rules_text_ok(text):
                raise BadInput(_("Reinforcements: a number or card codes such as L3 N2 F1 A2 Z."))
            c[s] = text
    return c


def rules_text_ok(text):
    from .forms import _card_text_ok
    return _card_text_ok(text)


def _acting_side(actor, st, kind, post):
    """Which side the command is for: a seat acts for its side; the host may name one."""
    if kind in GLOBAL_COMMANDS:
        return None
    requested = post.get("side")
    if requested in SIDES and (actor.is_host or requested in actor.allowed(SIDES)):
        return requested
    if requested in SIDES:
        return requested  # another seat's side: refused with 403 by the caller
    if actor.seat is not None and actor.seat.countries:
        return actor.seat.countries[0]
    if kind in YE_SIDE_COMMANDS:
        nxt = year_end_next(st)
        return nxt[1] if nxt else st.active_side
    return st.active_side


@require_POST
def act(request, pk):
    game = get_object_or_404(Game, pk=pk, kind=Game.FOG_OF_WAR)
    actor = access.actor_for(request, game)
    if actor is None:
        return render(request, "no_access.html", {"game": game}, status=403)
    if not actor.can_write:
        return HttpResponseForbidden(_("Spectators cannot make moves."))
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return _answer(request, game, actor, messages.ERROR, _("The form is missing its game version."), status=400)
    kind = request.POST.get("command", "")
    if kind not in TURN_COMMANDS + YE_SIDE_COMMANDS + GLOBAL_COMMANDS:
        return _answer(request, game, actor, messages.ERROR, _("Unknown command."), status=400)
    state = jsongames.state_of(game)
    st = engine(state)
    side = _acting_side(actor, st, kind, request.POST)
    if side is not None and side not in actor.allowed(SIDES):
        return _answer(request, game, actor, messages.ERROR, _("You cannot act for this side."), status=403)
    try:
        command = build_command(request.POST, st, side)
    except BadInput as exc:
        return _answer(request, game, actor, messages.ERROR, str(exc), status=400, form_data=request.POST)
    if request.POST.get("do") == "preview" and kind in ("launch", "resolve_quagmire"):
        return _preview(request, game, actor, state, command, version)
    rng = random.SystemRandom()
    if kind in ("launch", "resolve_quagmire"):
        command = complete_battle_command(state, command, rng)
    elif kind in ("intel", "ye_split_wins", "ye_new_decks", "ye_reinforcements"):
        command["seed"] = rng.randrange(2 ** 31)
    result = jsongames.submit_json(game.pk, version, actor, command, round_no=st.year)
    lang = _lang()
    text = result.reason.text(lang) if result.reason else ""
    level = messages.SUCCESS if result.applied else (messages.WARNING if result.status == services.STALE
                                                      else messages.ERROR)
    status = {services.APPLIED: 200, services.STALE: 409, services.FORBIDDEN: 403}.get(result.status, 422)
    keep = None if result.applied or result.status == services.STALE else request.POST
    return _answer(request, game, actor, level, text, status=status, form_data=keep)


def _preview(request, game, actor, state, command, version):
    """The battle calculator: A, D, outcome and card flow for the typed values, without storing anything.

    Only in ledger mode, where every value was typed from the cards revealed on the table; with the
    cards modelled, a preview would show the defender's hidden cards before the launch.
    """
    lang = _lang()
    if not state.get("ledger", True):
        return _answer(request, game, actor, messages.ERROR,
                       _("With the cards modelled the battle is computed at launch; no preview of hidden cards."),
                       status=422, form_data=request.POST)
    if game.version != version:
        return _answer(request, game, actor, messages.WARNING, services._STALE.text(lang), status=409)
    step = RULES.apply(state, {**command, "seed": 0, "quagmire_choice": command.get("quagmire_choice")})
    if not step.ok:
        return _answer(request, game, actor, messages.ERROR, step.reason.text(lang), status=422,
                       form_data=request.POST)
    b = step.state["battles"][-1]
    preview = {**b, "outcome_name": OUTCOME_NAMES[b["outcome"]][1 if lang == "en" else 0],
               "random_quagmire": b["outcome"] == "quagmire" and not command.get("quagmire_choice")}
    return _answer(request, game, actor, messages.INFO, _("Battle calculator: nothing is stored yet."),
                   status=200, form_data=request.POST, preview=preview, redirect_ok=False)


@require_POST
def history(request, pk, kind):
    """Undo or redo through the shared services (host, or the seat that made the move)."""
    game = get_object_or_404(Game, pk=pk, kind=Game.FOG_OF_WAR)
    if kind not in ("undo", "redo"):
        raise Http404
    actor = access.actor_for(request, game)
    if actor is None:
        return render(request, "no_access.html", {"game": game}, status=403)
    if not actor.can_write:
        return HttpResponseForbidden(_("Spectators cannot make moves."))
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return _answer(request, game, actor, messages.ERROR, _("The form is missing its game version."), status=400)
    fn = services.undo if kind == "undo" else services.redo
    result = fn(game.pk, version, actor)
    lang = _lang()
    text = result.reason.text(lang) if result.reason else ""
    level = messages.SUCCESS if result.applied else (messages.WARNING if result.status == services.STALE
                                                      else messages.ERROR)
    status = {services.APPLIED: 200, services.STALE: 409, services.FORBIDDEN: 403}.get(result.status, 422)
    return _answer(request, game, actor, level, text, status=status)


def _answer(request, game, actor, level, text, status=200, form_data=None, preview=None, redirect_ok=True):
    """htmx: the refreshed game partial with the message; without JavaScript: post/redirect/get."""
    if not request.htmx and redirect_ok:
        if text:
            messages.add_message(request, level, text)
        return redirect(reverse("fog_of_war:game", args=[game.pk]))
    game.refresh_from_db()
    flash = {"level": {messages.SUCCESS: "success", messages.WARNING: "warning", messages.ERROR: "error"}.get(level, "info"),
             "text": text}
    context = _context(request, game, actor, preview=preview, form_data=form_data, flash=flash)
    template = "fog_of_war/_game.html" if request.htmx else "fog_of_war/game.html"
    return render(request, template, context, status=status)
