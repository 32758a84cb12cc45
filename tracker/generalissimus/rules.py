"""JsonRules adapter around the pure Generalissimus engine (``gameplay.generalissimus``).

The stored state is a wrapper around the engine's ``GameState`` dict:

``engine``   the engine state (units, terrain, order cards, settings, turn machine);
``players``  player names per side;
``pending``  per side, the card chosen for the current reveal step (private to its owner until both
             sides have chosen: the views never render the other side's entry);
``reveal``   the cards of the current step once every side with cards in the zone has chosen
             (public), with the dice entered so far;
``steps``    public record of the resolved steps (both revealed cards, dice and results).

Commands (each stored exactly as applied; dice, digital ones included, are inside the command):

``place {side, card_type, zone}``, ``confirm {side}``, ``initiative {south, north, source}``,
``zones {side, sequence}``, ``choose {side, card | cards, unit, target, to, path, facing, formation,
direction}``, ``dice {side, roll: fire|melee, faces, source}``, ``end_turn {}``.
"""
from __future__ import annotations

import copy

from gameplay.generalissimus import GameState, InputError, StateError, new_game
from gameplay.generalissimus import actions as act
from gameplay.generalissimus import turn as engine_turn
from gameplay.generalissimus.reasons import reason as engine_reason
from gameplay.generalissimus.state import CARD_TYPES, ZONES
from gameplay.qmg.reasons import Reason

from .. import jsongames

SIDES = ("south", "north")
SIDE_NAMES = {"south": ("Юг", "South"), "north": ("Север", "North")}
ZONE_NAMES = {"west": ("запад", "west"), "center": ("центр", "centre"), "east": ("восток", "east")}
CARD_NAMES = {
    "artillery_volley": ("«Залп орудий!»", "Artillery volley"),
    "musket_volley": ("«Ружейный залп!»", "Musket volley"),
    "manoeuvre": ("«Маневр!»", "Manoeuvre"),
    "move": ("«Переместиться!»", "Move"),
    "bayonets": ("«В Штыки!»", "Bayonets!"),
    "retreat": ("«Отступить!»", "Retreat"),
    "form_up": ("«Построиться!»", "Form up"),
    "rally": ("два «Построиться!» (сбор)", "two Form up (rally)"),
}
STEPS_KEPT = 30


def _r(code: str, ru: str, en: str) -> Reason:
    return Reason(code, ru, en)


def _from_engine(res) -> Reason:
    return Reason(res.code, res.reason["ru"], res.reason["en"])


def _side(side: str) -> tuple[str, str]:
    return SIDE_NAMES.get(side, (side, side))


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _faces(v, n: int | None = None) -> bool:
    return (isinstance(v, list) and (n is None or len(v) == n) and bool(v)
            and all(_int(x) and 1 <= x <= 6 for x in v))


# ----------------------------------------------------------------------------------------
# building a game
# ----------------------------------------------------------------------------------------

def initial_state(units: list[dict], terrain: dict, settings: dict, piles: dict | None,
                  players: dict[str, str]) -> dict:
    """The wrapper state of a new battle (orders phase of turn 1). Raises StateError on bad input."""
    from gameplay.generalissimus import Settings, Unit

    cfg = Settings.from_dict(settings)
    # validate through the state loader first (one unit per sector, formations, ...)
    GameState.from_dict({"units": units, "terrain": terrain, "settings": cfg.to_dict()})
    st = new_game([Unit.from_dict(u) for u in units], terrain=terrain, settings=cfg, piles=piles)
    return {"engine": st.to_dict(), "players": dict(players), "pending": {s: None for s in SIDES},
            "reveal": None, "steps": []}


def engine_of(state: dict) -> GameState:
    return GameState.from_dict(state["engine"])


# ----------------------------------------------------------------------------------------
# the reveal step: who must choose, which dice are needed
# ----------------------------------------------------------------------------------------

def sides_to_reveal(st: GameState) -> list[str]:
    zone = st.current_zone
    if zone is None:
        return []
    return [s for s in SIDES if any(c.owner == s and c.state == "placed" and c.zone == zone for c in st.cards)]


def _entries(st: GameState, reveal: dict) -> list[dict]:
    """The revealed cards in the engine's order: the initiative winner first."""
    cards = {c.id: c for c in st.cards}
    out = []
    first = st.initiative_winner or "south"
    for side in sorted(reveal["cards"], key=lambda s: s != first):
        rev = reveal["cards"][side]
        ids = rev.get("cards") or [rev.get("card")]
        types = [cards[i].type for i in ids if i in cards]
        kind = "rally" if len(ids) == 2 else (types[0] if types else "")
        out.append({"side": side, "kind": kind, "rev": rev})
    return out


def dice_needs(state: dict) -> list[dict]:
    """Dice still to enter for the current reveal (fire first, then melee once fire is known).

    Each need: {key, side, roll, n, unit, target, bonus, ...}; `entered` faces when present.
    """
    reveal = state.get("reveal")
    if not reveal:
        return []
    st = engine_of(state)
    zone = reveal["zone"]
    dice = reveal.get("dice", {})
    entries = _entries(st, reveal)
    needs = []
    shots = []
    for e in entries:
        if e["kind"] in act.FIRE_TYPES:
            r = e["rev"]
            if act.check_fire(st, e["kind"], r["unit"], r.get("target"), side=e["side"], zone=zone) is None:
                u, t = st.unit(r["unit"]), st.unit(r["target"])
                key = f"fire-{e['side']}"
                needs.append({"key": key, "side": e["side"], "roll": "fire", "kind": e["kind"],
                              "n": act.fire_dice_count(st, u, t), "unit": u.id, "target": t.id,
                              "bonus": act.fire_bonus(st, u, t), "mode": st.settings.fire_bonus_mode,
                              "entered": dice.get(key)})
                shots.append({"type": e["kind"], "unit": u.id, "target": t.id, "side": e["side"], "key": key})
    if any(n["entered"] is None for n in needs):
        return needs  # melee dice depend on the casualties of this step's fire
    mid = st
    if shots:
        try:
            res = act.fire(st, [dict(s, dice=dice[s["key"]]["faces"]) for s in shots], zone=zone)
        except InputError:
            return needs
        if res.legal:
            mid = res.state
    # a charge met by a Bayonets! card of the charged unit in the same step is one melee (§2.9.2)
    charges = [e for e in entries if e["kind"] == "bayonets" and e["rev"].get("target")
               and act.check_charge(st, e["rev"]["unit"], e["rev"]["target"], side=e["side"], zone=zone) is None]
    countered = set()
    for atk in charges:
        if atk["side"] in countered:
            continue
        d = next((d for d in entries if d["side"] != atk["side"] and d["kind"] == "bayonets"
                  and d["rev"].get("unit") == atk["rev"]["target"]), None)
        if d is None:
            continue
        countered.add(d["side"])
        a, t = mid.unit(atk["rev"]["unit"]), mid.unit(atk["rev"]["target"])
        if (a is None or t is None or act.check_charge(mid, a.id, t.id, side=atk["side"], zone=zone) is not None
                or (t.routed and a.kind == "cavalry") or t.kind == "artillery" or not act.can_counter(t)):
            continue
        totals = act.melee_totals(mid, a, t, [], [])
        for role, side, u, mods in (("attacker", atk["side"], a, totals["attacker"]["mods"]),
                                    ("defender", d["side"], t, totals["defender"]["mods"])):
            key = f"melee-{side}"
            needs.append({"key": key, "side": side, "roll": "melee", "role": role, "n": u.blocks,
                          "unit": u.id, "target": (t if role == "attacker" else a).id,
                          "mods": mods, "entered": dice.get(key)})
    return needs


def _resolve(state: dict) -> tuple[dict, Reason] | Reason:
    """Run the engine's reveal step with the chosen cards and the entered dice."""
    st = engine_of(state)
    reveal = state["reveal"]
    dice = reveal.get("dice", {})
    reveals = {}
    for side, rev in reveal["cards"].items():
        rev = {k: v for k, v in rev.items() if v not in (None, "", [])}
        faces = (dice.get(f"fire-{side}") or dice.get(f"melee-{side}") or {}).get("faces")
        if faces:
            rev["dice"] = faces
        reveals[side] = rev
    try:
        res = engine_turn.reveal_step(st, reveals)
    except InputError as exc:
        return _r("invalid", f"Неверный ввод: {exc}", f"Invalid input: {exc}")
    if not res.legal:
        return _from_engine(res)
    new = res.state
    cards = {c.id: c for c in st.cards}
    record = {"turn": st.turn, "zone": reveal["zone"], "step": st.step + 1, "cards": {}, "dice": dice}
    lines_ru, lines_en = [], []
    for side, rev in reveal["cards"].items():
        ids = rev.get("cards") or [rev.get("card")]
        types = [cards[i].type for i in ids]
        kind = "rally" if len(ids) == 2 else types[0]
        outcome = res.details["cards"].get(ids[0], {})
        record["cards"][side] = {"kind": kind, "unit": rev.get("unit"), "target": rev.get("target"),
                                 "to": rev.get("to"), "state": outcome.get("state"),
                                 "reason": outcome.get("reason"), "details": outcome.get("details", {})}
        ru, en = _side(side)
        why = outcome.get("reason") or {"ru": "", "en": ""}
        lines_ru.append(f"{ru}: {CARD_NAMES[kind][0]} ({rev.get('unit')}) — {why['ru']}")
        lines_en.append(f"{en}: {CARD_NAMES[kind][1]} ({rev.get('unit')}) — {why['en']}")
    out = copy.deepcopy(state)
    out["engine"] = new.to_dict()
    out["reveal"] = None
    out["pending"] = {s: None for s in SIDES}
    out["steps"] = (state.get("steps", []) + [record])[-STEPS_KEPT:]
    if new.winner:
        w = new.winner
        lines_ru.append("Игра окончена: ничья." if w == "draw" else f"Победа: {_side(w)[0]}.")
        lines_en.append("Game over: a draw." if w == "draw" else f"Victory: {_side(w)[1]}.")
    zone = ZONE_NAMES[reveal["zone"]]
    return out, _r("step_done", f"Вскрытие, зона {zone[0]}. " + "; ".join(lines_ru),
                   f"Reveal, zone {zone[1]}. " + "; ".join(lines_en))


# ----------------------------------------------------------------------------------------
# the adapter
# ----------------------------------------------------------------------------------------

class GeneralissimusRules(jsongames.JsonRules):
    kind = "generalissimus"
    sides = SIDES

    def side_name(self, side: str, lang: str) -> str:
        ru, en = _side(side)
        return en if lang == "en" else ru

    def acting_side(self, state: dict, command: dict) -> str | None:
        if command.get("type") in ("initiative", "end_turn"):
            return None  # dice on the table / end of turn: any player (or the host) enters them
        side = command.get("side")
        return side if side in SIDES else "?"

    def apply(self, state: dict, command: dict) -> jsongames.Step:
        try:
            return self._apply(state, command)
        except (InputError, StateError, KeyError, TypeError, ValueError, AttributeError) as exc:
            return jsongames.Step(False, _r("invalid", f"Неверный ввод: {exc}", f"Invalid input: {exc}"))

    def _apply(self, state: dict, command: dict) -> jsongames.Step:
        kind = command.get("type")
        handler = getattr(self, f"_cmd_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            return jsongames.Step(False, _r("unknown", "Неизвестная команда.", "Unknown command."))
        st = engine_of(state)
        if st.phase == "finished":
            return jsongames.Step(False, engine_reason_of("game_over"))
        return handler(state, st, command)

    @staticmethod
    def _with(state: dict, st: GameState, **extra) -> dict:
        out = copy.deepcopy(state)
        out["engine"] = st.to_dict()
        out.update(extra)
        return out

    # --- orders ---------------------------------------------------------------------------
    def _cmd_place(self, state, st, c):
        side, ctype, zone = c.get("side"), c.get("card_type"), c.get("zone")
        if side not in SIDES or ctype not in CARD_TYPES or zone not in ZONES:
            raise InputError("place needs a side, a card type and a zone")
        res = engine_turn.place_order(st, side, ctype, zone)
        if not res.legal:
            return jsongames.Step(False, _from_engine(res))
        ru, en = _side(side)
        z = ZONE_NAMES[zone]
        return jsongames.Step(True, _r("placed", f"{ru}: карта положена рубашкой вверх, зона {z[0]}.",
                                       f"{en}: a card placed face down, zone {z[1]}."), self._with(state, res.state))

    def _cmd_unplace(self, state, st, c):
        side, card_id = c.get("side"), c.get("card")
        card = next((x for x in st.cards if x.id == card_id and x.owner == side), None)
        if st.phase != "orders" or side in st.confirmed or card is None or card.state != "placed":
            return jsongames.Step(False, _r("unplace", "Эту карту сейчас нельзя вернуть в стопку (фаза приказов).",
                                            "This card cannot go back to the pile now (orders phase)."))
        st = st.copy()
        card = next(x for x in st.cards if x.id == card_id)
        card.state, card.zone, card.placed_turn = "in_pile", None, None
        ru, en = _side(side)
        return jsongames.Step(True, _r("unplaced", f"{ru}: одна карта возвращена в стопку.",
                                       f"{en}: one card taken back to the pile."), self._with(state, st))

    def _cmd_confirm(self, state, st, c):
        side = c.get("side")
        if side not in SIDES:
            raise InputError("confirm needs a side")
        if side in st.confirmed and st.phase == "orders":
            return jsongames.Step(False, _r("already", "Приказы этой стороны уже подтверждены (фаза приказов).",
                                            "This side's orders are already confirmed (orders phase)."))
        res = engine_turn.confirm_orders(st, side)
        if not res.legal:
            return jsongames.Step(False, _from_engine(res))
        ru, en = _side(side)
        return jsongames.Step(True, _r("confirmed", f"{ru}: приказы отданы.", f"{en}: orders confirmed."),
                              self._with(state, res.state))

    # --- initiative --------------------------------------------------------------------------
    def _cmd_initiative(self, state, st, c):
        south, north = c.get("south"), c.get("north")
        if not (_int(south) and _int(north) and 1 <= south <= 6 and 1 <= north <= 6):
            raise InputError("initiative needs one die 1..6 per side")
        res = engine_turn.roll_initiative(st, south, north)
        if not res.legal:
            return jsongames.Step(False, _from_engine(res))
        digital = c.get("source") == "digital"
        tag = (" (цифровой бросок)", " (digital roll)") if digital else ("", "")
        return jsongames.Step(True, _r(res.code, f"Инициатива: Юг {south}, Север {north}{tag[0]}. " + res.reason["ru"],
                                       f"Initiative: South {south}, North {north}{tag[1]}. " + res.reason["en"]),
                              self._with(state, res.state))

    def _cmd_zones(self, state, st, c):
        seq = c.get("sequence")
        if not isinstance(seq, list):
            raise InputError("zones needs a sequence")
        res = engine_turn.choose_zone_sequence(st, c.get("side"), seq)
        if not res.legal:
            return jsongames.Step(False, _from_engine(res))
        ru = ", ".join(ZONE_NAMES[z][0] for z in seq)
        en = ", ".join(ZONE_NAMES[z][1] for z in seq)
        return jsongames.Step(True, _r("zones_set", f"Порядок зон: {ru}.", f"Zone order: {en}."),
                              self._with(state, res.state, pending={s: None for s in SIDES}, reveal=None))

    # --- actions: choose a card, dice, resolution --------------------------------------------
    def _cmd_choose(self, state, st, c):
        side = c.get("side")
        if st.phase != "actions":
            return jsongames.Step(False, _from_engine(engine_turn.reveal_step(st, {})))
        if state.get("reveal"):
            return jsongames.Step(False, _r("revealed", "Карты этого шага уже открыты: введите кубики.",
                                            "This step's cards are already revealed: enter the dice."))
        zone = st.current_zone
        if side not in sides_to_reveal(st):
            return jsongames.Step(False, engine_reason_of("nothing_to_reveal", side=side))
        if (state.get("pending") or {}).get(side):
            return jsongames.Step(False, _r("chosen", "Карта на этот шаг уже выбрана (отмените ход, чтобы выбрать другую).",
                                            "A card is already chosen for this step (undo to choose another)."))
        ids = c.get("cards") or ([c["card"]] if c.get("card") else [])
        placed = {x.id: x for x in st.cards if x.owner == side and x.state == "placed" and x.zone == zone}
        if not ids or not all(isinstance(i, str) and i in placed for i in ids):
            return jsongames.Step(False, engine_reason_of("card_not_placed", card=", ".join(map(str, ids)) or "-",
                                                          zone=zone))
        if len(ids) > 2 or len(set(ids)) != len(ids) or (len(ids) == 2 and any(placed[i].type != "form_up" for i in ids)):
            return jsongames.Step(False, _r("rally_needs_two", "Открывается одна карта, или две «Построиться!» для сбора бегущих.",
                                            "Reveal one card, or two Form up cards to rally a routed unit."))
        unit = st.unit(c.get("unit") or "")
        if unit is None or unit.owner != side:
            return jsongames.Step(False, engine_reason_of("not_own" if unit else "no_unit", unit=c.get("unit") or "-"))
        rev = {"cards": ids} if len(ids) == 2 else {"card": ids[0]}
        rev["unit"] = unit.id
        for key in ("target", "to", "facing", "formation", "direction"):
            if isinstance(c.get(key), str) and c[key]:
                rev[key] = c[key]
        if isinstance(c.get("path"), list) and c["path"]:
            rev["path"] = [str(x) for x in c["path"]]
        kind = "rally" if len(ids) == 2 else placed[ids[0]].type
        notes = tuple(x for x in [_precheck(st, kind, rev, side, zone)] if x)
        out = copy.deepcopy(state)
        out["pending"] = dict(out.get("pending") or {})
        out["pending"][side] = rev
        ru, en = _side(side)
        waiting = [s for s in sides_to_reveal(st) if not out["pending"].get(s)]
        if waiting:
            return jsongames.Step(True, _r("chosen", f"{ru}: карта на этот шаг выбрана (рубашкой вверх).",
                                           f"{en}: a card is chosen for this step (face down)."), out, notes)
        out["reveal"] = {"zone": zone, "cards": {s: out["pending"][s] for s in sides_to_reveal(st)}, "dice": {}}
        out["pending"] = {s: None for s in SIDES}
        return self._after_reveal_change(out, _r("revealed", "Карты шага открыты одновременно.",
                                                 "The step's cards are revealed at the same time."), notes)

    def _after_reveal_change(self, out: dict, why: Reason, notes=()) -> jsongames.Step:
        needs = dice_needs(out)
        if any(n["entered"] is None for n in needs):
            return jsongames.Step(True, why, out, notes)
        done = _resolve(out)
        if isinstance(done, Reason):
            return jsongames.Step(False, done)
        new, summary = done
        return jsongames.Step(True, Reason(summary.code, f"{why.ru} {summary.ru}", f"{why.en} {summary.en}"), new, notes)

    def _cmd_dice(self, state, st, c):
        side, roll, faces = c.get("side"), c.get("roll"), c.get("faces")
        if not state.get("reveal"):
            return jsongames.Step(False, _r("no_dice", "Сейчас кубики не нужны.", "No dice are needed now."))
        need = next((n for n in dice_needs(state) if n["side"] == side and n["roll"] == roll
                     and n["entered"] is None), None)
        if need is None:
            return jsongames.Step(False, _r("no_dice", "Сейчас эта сторона не бросает кубики.",
                                            "This side has no dice to roll now."))
        if not _faces(faces, need["n"]):
            return jsongames.Step(False, _r("bad_dice", f"Нужно {need['n']} куб., каждый от 1 до 6.",
                                            f"Enter {need['n']} dice, each 1 to 6."))
        source = "digital" if c.get("source") == "digital" else "physical"
        out = copy.deepcopy(state)
        out["reveal"]["dice"][need["key"]] = {"faces": list(faces), "source": source}
        ru, en = _side(side)
        tag = ("цифровой бросок", "digital roll") if source == "digital" else ("кубики со стола", "physical dice")
        text = " ".join(map(str, faces))
        return self._after_reveal_change(out, _r("dice", f"{ru}: {text} ({tag[0]}).", f"{en}: {text} ({tag[1]})."))

    # --- end of turn ---------------------------------------------------------------------------
    def _cmd_end_turn(self, state, st, c):
        choices = c.get("flight_choices") or None
        res = engine_turn.end_turn(st, choices)
        if not res.legal:
            return jsongames.Step(False, _from_engine(res))
        ru, en = res.reason["ru"], res.reason["en"]
        w = res.details.get("winner")
        if w:
            ru += " Ничья." if w == "draw" else f" Победа: {_side(w)[0]}."
            en += " A draw." if w == "draw" else f" Victory: {_side(w)[1]}."
        return jsongames.Step(True, _r("turn_ended", ru, en), self._with(state, res.state))


def engine_reason_of(code: str, **kw) -> Reason:
    r = engine_reason(code, **kw)
    return Reason(code, r["ru"], r["en"])


def _precheck(st: GameState, kind: str, rev: dict, side: str, zone: str) -> Reason | None:
    """A warning for the chooser only: this card would be void if revealed now."""
    uid = rev["unit"]
    bad = None
    if kind in act.FIRE_TYPES:
        bad = act.check_fire(st, kind, uid, rev.get("target"), side=side, zone=zone)
    elif kind == "bayonets" and rev.get("target"):
        bad = act.check_charge(st, uid, rev["target"], side=side, zone=zone)
    elif kind == "move":
        try:
            bad = act.check_move(st, uid, side=side, zone=zone, to=rev.get("to"), path=rev.get("path"),
                                 facing=rev.get("facing"), formation=rev.get("formation"))
        except InputError as exc:
            return Reason("warn", f"Внимание: {exc}", f"Warning: {exc}")
    elif kind == "retreat":
        bad = act.check_retreat(st, uid, side=side, zone=zone)
    if bad is None:
        return None
    return Reason("warn", "Внимание: сейчас карта неисполнима и будет снята: " + bad.reason["ru"],
                  "Warning: as things stand the card cannot be carried out and will be removed: " + bad.reason["en"])


RULES = jsongames.register(GeneralissimusRules())
