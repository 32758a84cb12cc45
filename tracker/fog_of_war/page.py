"""*The Fog of War*'s game page: what one viewer may see (the engine's ``view_for`` is the only
table it is built from), how its forms become commands, and the battle calculator. The shell, the
answer and the write path are the core's."""
from __future__ import annotations

from django.contrib import messages
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from gameplay.fog_of_war.board import SIDES, winter_bonus
from gameplay.fog_of_war.cards import Card, card_list_ok, card_list_size_ok, parse_card
from gameplay.fog_of_war.config import FowSettings
from gameplay.fog_of_war.limits import MAX_CARD_TEXT, MAX_CARDS
from gameplay.fog_of_war.state import SLOTS
from gameplay.fog_of_war.texts import card_name, cards_text
from gameplay.common.words import cards as cards_count
from gameplay.fog_of_war.stepper import (BATTLE_COMMANDS, GLOBAL_COMMANDS, HAND_COMMANDS, HIDDEN, OWN_COMMANDS, STEPPER,
                                         TURN_COMMANDS, YE_SIDE_COMMANDS, card_code, checklist, choices, engine_of,
                                         is_hidden, must_play, outcome_name, partner, province_name, table_stacks,
                                         year_end_next)

from tracker.core import log
from tracker.core.commands import BadInput, Parsed, version_of
from tracker.core.responses import answer
from tracker.language import lang as _lang

from . import house_rules
from .forms import MAP_MARKS, MapForm

# commands that read a side's hidden cards (its hand, its operations' face-down stacks): only its own seat sends them
SECRET_COMMANDS = HAND_COMMANDS + OWN_COMMANDS + ("launch", "resolve_quagmire")


def _viewer(actor) -> str | None:
    if actor.seat is not None and actor.seat.countries:
        return actor.seat.countries[0]
    return None


def _card(c, lang) -> dict:
    """A card as its player can match it: by kind and strength as printed; ``known`` is false for a card whose
    values were never entered (the page counts those, it never lists them one by one)."""
    name = card_name(c, lang)
    return {"id": c.id, "label": name + (f" · {c.name}" if c.name and name else c.name if c.name else ""),
            "known": bool(name)}


def _pile_names(lang):
    return {"discard": "discard" if lang == "en" else "сброс", "wins": "wins" if lang == "en" else "победы",
            "losses": "losses" if lang == "en" else "потери"}


def _side_name(side, lang):
    return STEPPER.side_name(side, lang)


def _side_rows(st, masked: dict, viewer: str | None, lang: str) -> list[dict]:
    pname = lambda k: province_name(st, k, lang)  # noqa: E731
    sides = []
    for key in SIDES:
        s = st.sides[key]
        ops = []
        for o in sorted(s.operations, key=lambda o: s.position(o)):
            pos = s.position(o)
            mark = st.wheel(pos)
            row = {"slot": o.slot, "position": pos, "n": len(o.cards), "launchable": mark["launchable"],
                   "modifier": mark["modifier"], "no_intel": mark["no_intel"]}
            if "operations" not in masked[key]:
                row.update(target=o.target, target_name=pname(o.target), cards_text=cards_text(o.cards, lang))
            ops.append(row)
        row = {"key": key, "name": _side_name(key, lang), "mine": key == viewer, "active": key == st.active_side,
               "deck": len(s.deck), "hand": len(s.hand), "discard": len(s.discard), "wins": len(s.wins),
               "losses": len(s.losses), "province_deck": len(s.province_deck),
               "in_front": [pname(k) for k in s.in_front], "production_level": s.production_level, "vp": s.vp,
               "intel_available": s.intel_available, "intel_used": s.intel_used, "pointer": s.wheel_pointer,
               "ops": ops, "special": {k: len(v) for k, v in s.special_sets.items()},
               "superiority": st.superiority == key,
               "wheel": [{"slot": SLOTS[(SLOTS.index(s.wheel_pointer) - p) % 6], "position": p, **st.wheel(p)}
                         for p in range(6)]}
        if "piles" not in masked[key]:
            row["piles"] = [(label, cards_text(getattr(s, p), lang)) for p, label in _pile_names(lang).items()]
        if "hand" not in masked[key]:
            row["hand_cards"] = [_card(c, lang) for c in s.hand]
        sides.append(row)
    return sides


def _province_rows(st, answers: dict, viewer: str | None, lang: str) -> list[dict]:
    provinces = []
    for key, p in st.provinces.items():
        d = st.pdef(key)
        row = {"key": key, "name": province_name(st, key, lang), "kind": d.kind, "control": p.control,
               "control_name": _side_name(p.control, lang) if p.control in SIDES else _("neutral"),
               "quagmire": p.quagmire.attacker if p.quagmire else None, "neutrality_token": p.neutrality_token,
               "no_supply": p.no_supply, "answered": answers.get(key),
               "defence": {s: len(p.defence[s]) for s in SIDES}, "neutral": len(p.neutral_cards),
               "climate": d.climate, "vp": d.vp, "resources": d.resources,
               "quag_up": cards_text([c for s in SIDES for c in p.quagmire_cards[s] if c.face_up], lang),
               "quag_down": {s: sum(1 for c in p.quagmire_cards[s] if not c.face_up) for s in SIDES}}
        if viewer:
            row["my_defence"] = cards_text(p.defence[viewer], lang)
            row["my_quag_down"] = cards_text([c for c in p.quagmire_cards[viewer] if not c.face_up], lang)
        if p.neutral_cards and not any(is_hidden(c) for c in p.neutral_cards):
            row["neutral_seen"] = cards_text(p.neutral_cards, lang)  # the Allies' free look (§1.4 step 12)
        provinces.append(row)
    return provinces


def _codes_text(records, lang) -> str:
    """Cards a spy saw (their records keep the printed code, ``?`` when the values were never entered)."""
    cards = []
    for r in records:
        try:
            cards.append(parse_card(r.get("code", "?"), "x"))
        except ValueError:
            cards.append(Card("x"))
    return cards_text(cards, lang)


def table_view(seen: dict, viewer: str | None, lang: str) -> dict:
    """Everything the page shows, formatted from ``seen``: the table as the engine lets ``viewer`` see it
    (``STEPPER.view_for``). Private parts appear only where the engine left them visible."""
    st = engine_of(seen)
    pname = lambda k: province_name(st, k, lang)  # noqa: E731
    battles = [{**b, "attacker_name": _side_name(b["attacker"], lang), "target_name": pname(b["target"]),
                "outcome_name": outcome_name(b["outcome"], lang)} for b in reversed(seen.get("battles", []))]
    intel_log = [{**i, "spy_name": _side_name(i["spy"], lang), "label": i["label_en" if lang == "en" else "label_ru"]}
                 for i in reversed(seen.get("intel", []))]
    places = {"axis_kept": _("kept by the Axis"), "box": _("in the box"), "near_morocco": _("by Morocco")}
    objectives = [{"province": pname(o.province) if o.province else None, "location": o.location,
                   "location_name": places.get(o.location, "")}
                  for o in st.objectives if o.province != HIDDEN]
    return {
        "year": st.year, "winter": st.winter, "turn_no": st.turn_no, "active": st.active_side,
        "active_name": _side_name(st.active_side, lang), "phase": st.phase, "turn_started": st.turn_started,
        "superiority": st.superiority, "superiority_name": _side_name(st.superiority, lang), "flags": st.flags,
        "winner": st.winner, "winner_name": _side_name(st.winner, lang) if st.winner else "", "win_reason": st.win_reason,
        "ledger": seen.get("ledger", True), "has_map": st.board is not None,
        "sides": _side_rows(st, seen["masked"], viewer, lang),
        "provinces": _province_rows(st, seen.get("supply_answers", {}), viewer, lang),
        "battles": battles, "intel_log": intel_log,
        "intel_seen": [{**i, "seen_text": _codes_text(i.get("seen", []), lang)}
                       for i in reversed(seen.get("intel_seen", {}).get(viewer, []))] if viewer else [],
        "objectives": objectives, "pending_quagmires": [pname(k) for k in st.pending_quagmires],
    }


def _choices(st, viewer, lang):
    """Select options for the viewer's forms: the engine's choices, named."""
    allowed = choices(st, viewer)
    if not allowed:
        return {}
    pname = lambda k: province_name(st, k, lang)  # noqa: E731
    named = {name: [(k, pname(k)) for k in keys] for name, keys in allowed.items() if name not in ("ops", "enemy_ops")}
    named["ops"] = [(slot, _("%(slot)s · %(target)s · position %(pos)s") % {"slot": slot, "target": pname(target),
                                                                            "pos": pos})
                    for slot, target, pos in allowed["ops"]]
    named["enemy_ops"] = allowed["enemy_ops"]
    return named


def _year_end(st, lang) -> dict | None:
    """The engine's year-end checklist with titles and side names."""
    ye = checklist(st)
    if ye is None:
        return None
    titles = {
        "3.1": _("3.1 Axis victory points (70 wins)"), "3.2": _("3.2 Split the wins piles (discard first)"),
        "3.3": _("3.3 Refresh intel tokens"), "3.5": _("3.4–3.5 Production points and purchases"),
        "3.6": _("3.6 Recall cards from the board (none from quagmires)"), "3.7": _("3.7 Balkans (1940)"),
        "3.8": _("3.8 USA enters (1941)"), "3.9": _("3.9 USSR enters (1942)"), "3.10": _("3.10 New decks, draw"),
        "3.11": _("3.11 Next year (after 1944: secret objectives decide)"),
        "3.12": _("3.12 New reinforcements into losses"), "then": _("First player of the new year"),
    }
    steps = [{**row, "side_name": _side_name(row["side"], lang) if row["side"] else "", "title": titles[row["key"]]}
             for row in ye["steps"]]
    return {**ye, "steps": steps, "numbers": {**ye["numbers"], "first": _side_name(ye["numbers"]["first"], lang)}}


def _settings_rows(st, lang):
    active = st.settings.to_dict()
    rows = []
    for row in FowSettings.explain():
        key = row["key"]
        rows.append({"key": key, "name": house_rules.name(key), "value": house_rules.value_text(key, active[key], lang),
                     "changed": active[key] != row["default"], "text": house_rules.help_text(key)})
    return rows


def context(request, game, actor, state: dict, keep=None) -> dict:
    keep = keep or {}
    preview, form_data = keep.get("preview"), keep.get("form_data")
    lang = _lang()
    viewer = _viewer(actor)
    seen = STEPPER.view_for(state, viewer)  # the only table the page is built from
    st = engine_of(seen)
    view = table_view(seen, viewer, lang)
    allowed = actor.allowed(SIDES) if actor.can_write else ()
    acting = viewer if viewer else (st.active_side if actor.is_host else None)
    my_turn = bool(acting) and acting == st.active_side and acting in allowed and st.phase == "turn" and not st.winner
    # B-4: a seat whose deck has run out acts inside the other side's turn (intel, operations), then confirms
    partner_turn = (bool(viewer) and viewer == partner(st) and viewer in allowed and st.turn_started
                    and not st.partner_done)
    wheel = st.settings.wheel_positions
    unknown_climate = [province_name(st, k, lang) for k in st.provinces
                       if st.board is not None and "climate" in st.pdef(k).unknown]
    return {
        "partner_turn": partner_turn, "show_turn": actor.can_write and not st.winner and (my_turn or partner_turn),
        "partner_side": partner(st), "partner_name": _side_name(partner(st), lang) if partner(st) else "",
        "wheel_unknown": any(p["launchable"] is None or p["modifier"] is None for p in wheel),
        "computes_supply": st.computes_supply(), "supply_rule": st.settings.launch_supply_rule,
        "climate_asked": st.winter and (st.board is None or bool(unknown_climate)),
        "unknown_climate": unknown_climate[:12], "card_values": seen.get("card_values") or {},
        "t": view, "viewer": viewer, "acting": acting,
        "acting_name": _side_name(acting, lang) if acting else "", "my_turn": my_turn,
        "can_write": actor.can_write and not st.winner,
        "must_play": bool((my_turn or partner_turn) and must_play(st, acting)),
        "choices": _choices(st, viewer, lang) if viewer else {},  # own data only: never for another side
        "my_superiority": acting == st.superiority, "year_end": _year_end(st, lang),
        "settings_rows": _settings_rows(st, lang), "preview": preview, "f": form_data or {},
        "reveal_stacks": [("reveal_attack", pgettext("fow reveal", "attack")),
                          ("reveal_defence", pgettext("fow reveal", "defence")),
                          ("reveal_neutral", pgettext("fow reveal", "neutral"))],
        "reveal_kinds": [(code, card_name(parse_card(code + ("" if code == "Z" else "1"), "x"), lang).split(" ")[0])
                         for code in ("L", "N", "F", "A", "Z")],
        "reveal_values": range(1, 7),
        "f_cards": form_data.getlist("cards") if hasattr(form_data, "getlist") else [],
        "map_form": MapForm(), "map_marks": MAP_MARKS, "winter_bonus": {c: winter_bonus(c) for c in ("sun", "snow", "none")},
        **_hand(view, viewer, lang),
    }


def _hand(view, viewer, lang) -> dict:
    """The viewer's hand as the player holds it: the cards whose kind and strength the app knows (one checkbox
    each, named as printed) and, for the others, only their number (a tap on «2 карты» plays two of them)."""
    cards = next((x["hand_cards"] for x in view["sides"] if x["key"] == viewer and "hand_cards" in x), [])
    known = [c for c in cards if c["known"]]
    unknown = len(cards) - len(known)
    return {"hand_cards": known, "hand_unknown": unknown, "hand_size": len(cards),
            "hand_text": cards_count(len(cards), lang),
            "hand_counts": [(n, cards_count(n, lang)) for n in range(1, unknown + 1)]}


def _field(name) -> str:
    """A form field as the player reads its label (never the field's key)."""
    return {
        "counter_rounds": _("Counter-intel bids"), "vp_gain": _("Victory points"), "vp_missing": _("Victory points"),
        "losses": _("Cards from losses back to discard"), "level": _("Production levels"),
        "intel_pairs": _("Intel token pairs"), "vp": _("Victory points"), "resources": _("Resources"),
        "resources_missing": _("Resources"), "reveal_attack": _("Attack cards"),
        "reveal_defence": _("Defender's cards"), "reveal_neutral": _("Neutral cards in the province"),
        "wins": _("Wins pile (attack positions)"), "wins_defence": _("Wins pile (defender positions)"),
        "quag_attacker": _("Quagmire losses (attack positions)"),
        "quag_defender": _("Quagmire losses (defender positions)"), "codes": _("Your hand cards as printed"),
    }.get(name, _("This field"))


def _int(post, name, default=0, lo=0, hi=999):
    raw = (post.get(name) or "").strip()
    if raw == "":
        return default
    try:
        v = int(raw)
    except ValueError:
        raise BadInput(_("“%(field)s” must be a whole number.") % {"field": _field(name)}) from None
    if not lo <= v <= hi:
        raise BadInput(_("“%(field)s” is out of range.") % {"field": _field(name)})
    return v


def _codes(post, name):
    raw = post.get(name) or ""
    if not card_list_size_ok(raw):
        raise BadInput(_("“%(field)s”: at most %(n)s cards.") % {"field": _field(name), "n": MAX_CARDS})
    return [t.upper() for t in raw.replace(",", " ").split()]


def _positions(post, name, stack):
    out = []
    for t in (post.get(name) or "").replace(",", " ").split():
        if not t.isdigit() or not 1 <= int(t) <= len(stack):
            raise BadInput(_("“%(field)s”: positions are numbers from 1 to %(n)s.") % {"field": _field(name), "n": len(stack)})
        out.append(stack[int(t) - 1])
    return out


def _hand_cards(post, st, side) -> list[str]:
    """The hand cards a form plays: the ticked cards known by kind and strength, plus ``n_cards`` of the cards whose
    values the app does not know (they are alike to it: any of them stands for the card the player puts down)."""
    picked = post.getlist("cards")
    raw = (post.get("n_cards") or "").strip()
    if raw and not (raw.isascii() and raw.isdigit() and len(raw) <= 2):
        raise BadInput(_("Choose how many cards you play."))
    n = int(raw or 0)
    hand = st.sides[side].hand if side in st.sides else []
    if n:
        blank = [c.id for c in hand if c.category == "unknown" and c.id not in picked]
        if n > len(blank):
            raise BadInput(_("You hold fewer cards than that."))
        picked = picked + blank[:n]
    if not picked:
        raise BadInput(_("Choose at least one card from your hand."))
    return picked


def build_command(post, st, side) -> dict:
    kind = post.get("command", "")
    c = {"type": kind}
    if side:
        c["side"] = side
    if kind in HAND_COMMANDS:
        c["cards"] = _hand_cards(post, st, side)
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
            if not st.computes_supply():
                for key in ("origin_supplied", "supply_reaches"):
                    sup = post.get(key, "")
                    if sup in ("yes", "no"):
                        c[key] = sup == "yes"
            if post.get("wheel_mark") in ("none", "A+1", "D+1", "not_ready"):
                c["wheel_mark"] = post["wheel_mark"]
        if post.get("climate") in ("sun", "snow", "none"):
            c["climate"] = post["climate"]
        c["use_superiority"] = post.get("use_superiority") == "on"
        for key in ("reveal_attack", "reveal_defence", "reveal_neutral"):
            codes = _codes(post, key)
            if codes:
                c[key] = codes
        att, dfn = table_stacks(st, side, c)  # card ids at the table's positions 1, 2, ...
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
    if kind == "name_cards":
        c["codes"] = _codes(post, "codes")
        if not c["codes"]:
            raise BadInput(_("Tap each card's kind and strength, or type them (L3 N2 F1 A2 Z)."))
    if kind == "set_map":
        form = MapForm(post)
        if not form.is_valid():
            raise BadInput("; ".join(str(e) for errs in form.errors.values() for e in errs))
        c["map"] = form.cleaned_data["board_map"]
    if kind == "set_control":
        c["province"], c["control"] = post.get("province", ""), post.get("control", "")
    if kind == "ye_score_vp" and post.get("vp_gain", "").strip():
        c["vp_gain"] = _int(post, "vp_gain", 0, 0, 200)
    if kind == "ye_score_vp" and post.get("vp_missing", "").strip():
        c["vp_missing"] = _int(post, "vp_missing", 0, 0, 200)
    if kind == "ye_spend":
        c.update(losses=_int(post, "losses"), level=_int(post, "level"), intel_pairs=_int(post, "intel_pairs"),
                 vp=_int(post, "vp"))
        if post.get("resources", "").strip():
            c["resources"] = _int(post, "resources", 0, 0, 200)
        if post.get("resources_missing", "").strip():
            c["resources_missing"] = _int(post, "resources_missing", 0, 0, 200)
    if kind == "ye_recall":
        c["provinces"] = post.getlist("provinces")
        c["cancel"] = post.getlist("cancel")
    if kind == "ye_advance":
        c["objectives"] = [p for p in (post.get("objective_1", ""), post.get("objective_2", "")) if p]
    if kind == "ye_reinforcements":
        for s in SIDES:
            text = (post.get(f"reinf_{s}") or "").strip()
            if not card_list_size_ok(text):  # before anything reads it: a count or a list beyond the bounds
                raise BadInput(_("Reinforcements: at most %(n)s cards a side (a count or card codes, up to "
                                 "%(chars)s characters).") % {"n": MAX_CARDS, "chars": MAX_CARD_TEXT})
            if text and not card_list_ok(text):
                raise BadInput(_("Reinforcements: a number or card codes such as L3 N2 F1 A2 Z."))
            c[s] = text
    return c


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


def preview(request, game, actor, parsed: Parsed):
    """The battle calculator: the engine's battle for the typed values, shown without storing anything."""
    lang = _lang()
    if game.version != parsed.version:
        return answer(request, game, actor, messages.WARNING, log.STALE_REASON.text(lang), status=409)
    out = STEPPER.preview(log.current_state(game), parsed.command)
    if not out.ok:
        return answer(request, game, actor, messages.ERROR, out.reason.text(lang), status=422, keep=parsed.keep)
    b = out.data["battle"]
    shown = {**b, "outcome_name": outcome_name(b["outcome"], lang), "random_quagmire": out.data["random_quagmire"]}
    return answer(request, game, actor, messages.INFO, _("Battle calculator: nothing is stored yet."),
                  keep={**parsed.keep, "preview": shown}, redirect_ok=False)


def parse(request, game, actor, current) -> Parsed:
    """A posted form as a command (the engine's ``prepare`` draws dice and quagmire losses into it)."""
    post = request.POST
    keep = {"form_data": post}
    version = version_of(post)
    kind = post.get("command", "")
    if kind not in TURN_COMMANDS + OWN_COMMANDS + YE_SIDE_COMMANDS + GLOBAL_COMMANDS:
        raise BadInput(_("Unknown command."))
    st = engine_of(current())
    side = _acting_side(actor, st, kind, post)
    if side is not None and side not in actor.allowed(SIDES):
        raise BadInput(_("You cannot act for this side."), status=403)
    if side is not None and side not in actor.own_roles and kind in SECRET_COMMANDS:
        # before anything reads the side's hand or operations: the answer could name a hidden card or target
        raise BadInput(log.SECRET_REASON.text(_lang()), status=403)
    try:
        command = build_command(post, st, side)
    except BadInput as exc:
        exc.keep = keep  # the form comes back as typed
        raise
    return Parsed(command, version, keep=keep, preview=post.get("do") == "preview" and kind in BATTLE_COMMANDS)
