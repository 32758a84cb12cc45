"""The Generalissimus turn stepper: the :class:`gameplay.common.Stepper` of this game.

The stored state is a JSON dict wrapped around the engine's ``GameState`` dict:

``engine``   the engine state (units, terrain, order cards, settings, turn machine);
``players``  player names per side;
``pending``  per side, the card chosen for the current reveal step (private to its owner until
             both sides have chosen: :meth:`GeneralissimusStepper.view_for` hides the other's);
``reveal``   the cards of the current step once every side with cards in the zone has chosen
             (public), with the dice entered so far;
``steps``    public record of the resolved steps (both revealed cards, dice and results).

Commands (each stored exactly as applied; dice, digital ones included, are inside the command):

``place {side, card_type, zone}``, ``unplace {side, card}``, ``confirm {side}``,
``initiative {south, north, source}``, ``zones {side, sequence}``, ``choose {side, card | cards,
unit, target, to, path, facing, formation, direction}``, ``dice {side, roll: fire|melee, faces,
source}``, ``end_turn {flight_choices?}``.

A digital roll is a command with ``source: "digital"`` and no dice: :meth:`prepare` rolls them.
"""
from __future__ import annotations

import copy
import random
from typing import Iterable

from gameplay.common import Outcome, Reason, accepted, refused, replay_commands

from . import actions as act
from . import dice as digital
from . import turn as engine_turn
from .core import InputError
from .geometry import FACINGS, SIDES, is_sector
from .queries import deploy, deployment_problems, dice_need, dice_needs, engine_inputs, engine_of, open_needs, sides_to_reveal
from .reasons import CARD_NAMES, FORMATION_NAMES, ZONE_NAMES, bilingual, reason_of, side_names
from .settings import CARD_TYPES, Settings, SettingsError, check_pile
from .state import FORMATIONS, ZONES, GameState, StateError, Unit, check_units_size
from .words import plain_outcome, plain_text

STEPS_KEPT = 30
_STEP_OPEN = Reason("correction_step_open",
                    "Пока карты шага открыты, стол не исправляют: сначала доиграйте шаг (кубики, выбор отхода) "
                    "или отмените его (исправление).",
                    "The table is not corrected while a step's cards are face up: finish the step first (dice, "
                    "where to fall back) or undo it (correction).")
HIDDEN = {"hidden": True}  # what a viewer sees of the other side's pending choice


class PrepareError(InputError):
    """A command cannot be prepared (e.g. a digital roll while digital dice are off)."""

    def __init__(self, reason: Reason):
        super().__init__(reason.en)
        self.reason = reason


def _r(code: str, ru: str, en: str) -> Reason:
    return Reason(code, ru, en)


def _invalid(exc: Exception) -> Reason:
    """A command whose data the engine cannot read (never one a page's forms send)."""
    return _r("invalid", "Команда не понята: её данные неполны или неверны (формат команды).",
              "The command is not understood: its data are incomplete or wrong (command format).")


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _die(v) -> bool:
    return _int(v) and 1 <= v <= 6


def _faces(v, n: int | None = None) -> bool:
    return isinstance(v, list) and bool(v) and (n is None or len(v) == n) and all(_die(x) for x in v)


def _refused(res: Outcome) -> Outcome:
    return refused(res.reason, **res.data)


# ----------------------------------------------------------------------------------------
# building a game
# ----------------------------------------------------------------------------------------

def initial_state(units: list[dict], terrain: dict | None, settings: dict | None, piles: dict | None,
                  players: dict[str, str]) -> dict:
    """The stored state of a new battle (orders phase of turn 1).

    Raises StateError or SettingsError on a setup that is not possible, or beyond the bounds (units:
    ``state.MAX_UNITS``; settings and piles: those of ``settings``), before anything is built."""
    check_units_size(units)
    if piles is not None:
        if not isinstance(piles, dict) or not set(piles) <= set(SIDES):
            raise SettingsError("piles must map a side to its pile")
        for pile in piles.values():
            check_pile(pile)
    cfg = Settings.from_dict(settings)
    terrain = cfg.terrain_map if terrain is None else terrain
    # validate through the state loader first (one unit per sector, formations, ...)
    GameState.from_dict({"units": units, "terrain": terrain, "settings": cfg.to_dict()})
    st = engine_turn.new_game([Unit.from_dict(u) for u in units], terrain=terrain, settings=cfg, piles=piles)
    problems = deployment_problems(st)
    if problems:
        raise StateError("; ".join(p.en for p in problems[:3]), "; ".join(p.ru for p in problems[:3]))
    st = deploy(st)
    # asks_owner: the owners choose retreats and reactions (battles stored before keep the proposals)
    return {"engine": st.to_dict(), "players": dict(players), "pending": {s: None for s in SIDES},
            "reveal": None, "steps": [], "asks_owner": True, "flight_choices": {}, "correction": None}


# ----------------------------------------------------------------------------------------
# resolving a reveal step
# ----------------------------------------------------------------------------------------

def _resolve(state: dict) -> tuple[dict, Reason, tuple] | Reason:
    """Run the engine's reveal step with the chosen cards, the entered dice and the owners' choices."""
    st, reveals, extra = engine_inputs(state)
    extra.pop("ask_owner")
    reveal = state["reveal"]
    dice = reveal.get("dice", {})
    try:
        res = engine_turn.reveal_step(st, reveals, **extra)
    except InputError as exc:
        return _invalid(exc)
    if not res.ok:
        return res.reason
    new = res.state
    cards = {c.id: c for c in st.cards}
    record = {"turn": st.turn, "zone": reveal["zone"], "step": st.step + 1, "cards": {}, "dice": dice}
    if reveal.get("choices"):
        record["choices"] = dict(reveal["choices"])
    lines_ru, lines_en = [], []
    for side, rev in reveal["cards"].items():
        ids = rev.get("cards") or [rev.get("card")]
        types = [cards[i].type for i in ids]
        kind = "rally" if len(ids) == 2 else types[0]
        outcome = res.data["cards"].get(ids[0], {})
        why = outcome.get("reason") or {"ru": "", "en": ""}
        why = {"ru": plain_text(why.get("ru", ""), st, "ru"), "en": plain_text(why.get("en", ""), st, "en")}
        record["cards"][side] = {"kind": kind, "unit": rev.get("unit"), "target": rev.get("target"),
                                 "to": rev.get("to"), "state": outcome.get("state"),
                                 "reason": why, "details": outcome.get("details", {})}
        if rev.get("use"):
            record["cards"][side]["use"] = rev["use"]
        ru, en = side_names(side)
        lines_ru.append(f"{ru}: {CARD_NAMES[kind][0]} ({rev.get('unit')}) — {why['ru']}")
        lines_en.append(f"{en}: {CARD_NAMES[kind][1]} ({rev.get('unit')}) — {why['en']}")
    out = copy.deepcopy(state)
    out["engine"] = new.to_dict()
    out["reveal"] = None
    out["pending"] = {s: None for s in SIDES}
    out["steps"] = (state.get("steps", []) + [record])[-STEPS_KEPT:]
    if new.winner:
        w = new.winner
        lines_ru.append("Игра окончена: ничья." if w == "draw" else f"Победа: {side_names(w)[0]}.")
        lines_en.append("Game over: a draw." if w == "draw" else f"Victory: {side_names(w)[1]}.")
    zone = ZONE_NAMES[reveal["zone"]]
    return out, _r("step_done", f"Вскрытие, зона {zone[0]}. " + "; ".join(lines_ru),
                   f"Reveal, zone {zone[1]}. " + "; ".join(lines_en)), res.changes


def choice_problem(st: GameState, kind: str, rev: dict, unit: Unit) -> Reason | None:
    """Why a chosen card is not a complete order (refused when it is chosen, so that the reveal never
    stops on it): what the card needs to know from its owner, in the owner's words, naming the rule."""
    facing = rev.get("facing")
    if facing is not None and facing not in FACINGS:
        return _r("facing_needed", "Поворот после хода — на север, восток, юг или запад (правила конницы).",
                  "The facing after the move is north, east, south or west (cavalry rules).")
    formation = rev.get("formation")
    if formation is not None and formation not in FORMATIONS:
        return _r("formation_needed", "Строй — колонна, линия, каре или расстроенный (правило построений).",
                  "A formation is column, line, square or disordered (formation rules).")
    if kind == "manoeuvre" and rev.get("direction") not in ("left", "right"):
        return _r("turn_needed", "Для карты «Маневр!» выберите, куда повернуть отряд: налево или направо (карта «Маневр!»).",
                  "For a Manoeuvre card choose which way the unit turns: left or right (Manoeuvre card).")
    if kind == "form_up" and formation is None:
        return _r("formation_needed", "Для карты «Построиться!» выберите строй: колонна, линия или каре "
                                      "(карта «Построиться!», правило построений).",
                  "For a Form up card choose the formation: column, line or square (Form up card, formation rules).")
    if kind == "move" and unit.location == "reserve" and not is_sector(rev.get("to")):
        return _r("entry_needed", "Отряд из резерва входит на поле: выберите сектор своего тылового ряда (ввод резерва).",
                  "A unit from the reserve enters the board: choose a sector of its home row (reserve entry).")
    if rev.get("path") is not None and (len(rev["path"]) > 2 or not all(is_sector(p) for p in rev["path"])):
        return reason_of("cav_path_len")
    if kind == "bayonets" and rev.get("use") not in (None, *engine_turn.USES):
        return reason_of("bad_use", use=str(rev.get("use"))[:20])
    if kind == "bayonets" and engine_turn.bayonets_use(rev) == "charge" and not rev.get("target"):
        return _r("target_needed", "Для атаки «В Штыки!» выберите цель — отряд врага прямо перед вашим (штыковая атака).",
                  "For a Bayonets! charge choose the target: the enemy unit straight ahead of yours (bayonet charge).")
    if kind in act.FIRE_TYPES and not rev.get("target"):
        return _r("target_needed", "Для залпа выберите цель — отряд врага (правила стрельбы).",
                  "For a volley choose the target: an enemy unit (fire rules).")
    return None


def precheck(st: GameState, kind: str, rev: dict, side: str, zone: str) -> Reason | None:
    """A warning for the chooser only: this card would be void if revealed now."""
    uid = rev["unit"]
    bad = None
    if kind in act.FIRE_TYPES:
        bad = act.check_fire(st, kind, uid, rev.get("target"), side=side, zone=zone)
    elif kind == "bayonets" and rev.get("use") == "advance":
        bad = act.check_bayonet_advance(st, uid, path=rev.get("path"), facing=rev.get("facing"), side=side, zone=zone)
    elif kind == "bayonets" and rev.get("target"):
        bad = act.check_charge(st, uid, rev["target"], side=side, zone=zone)
    elif kind == "move":
        try:
            bad = act.check_move(st, uid, side=side, zone=zone, to=rev.get("to"), path=rev.get("path"),
                                 facing=rev.get("facing"), formation=rev.get("formation"))
        except InputError as exc:
            return _r("warn", f"Внимание: {exc} (неисполнимый приказ)", f"Warning: {exc} (order cannot be carried out)")
    elif kind == "retreat":
        bad = act.check_retreat(st, uid, side=side, zone=zone)
    if bad is None:
        return None
    return _r("warn", "Внимание: сейчас карта неисполнима и будет снята: " + bad.reason.ru,
              "Warning: as things stand the card cannot be carried out and will be removed: " + bad.reason.en)


# ----------------------------------------------------------------------------------------
# the stepper
# ----------------------------------------------------------------------------------------

class GeneralissimusStepper:
    kind = "generalissimus"
    sides = SIDES

    # --- the Stepper protocol -------------------------------------------------------------
    def new_state(self, setup: dict) -> dict:
        """``setup``: {units, terrain, settings, piles, players} (raises StateError/SettingsError)."""
        return initial_state(setup.get("units", []), setup.get("terrain"), setup.get("settings"),
                             setup.get("piles"), setup.get("players") or {})

    def prepare(self, state: dict, command: dict, rng: random.Random) -> dict:
        """A digital roll (``source: "digital"`` without dice) gets its dice from ``rng``.

        Any other command is returned as it is. Raises :class:`PrepareError` when the game has
        digital dice switched off."""
        kind = command.get("type")
        if command.get("source") != "digital" or kind not in ("initiative", "dice"):
            return command
        if kind == "initiative" and _die(command.get("south")) and _die(command.get("north")):
            return command
        if kind == "dice" and command.get("faces"):
            return command
        if not engine_of(state).settings.allow_digital_dice:
            raise PrepareError(_r("digital_off", "Цифровые кубики в этой игре отключены (настройка allow_digital_dice)",
                                  "Digital dice are switched off for this game (setting allow_digital_dice)"))
        if kind == "initiative":
            south, north = digital.roll(2, rng)  # one die per player; a tie is rolled again by a new command
            return {**command, "south": south, "north": north}
        need = dice_need(state, command.get("side"), command.get("roll"))
        if need is None:
            return command  # nothing to roll: apply refuses it with the reason
        return {**command, "faces": digital.roll(need["n"], rng)}

    def apply(self, state: dict, command: dict) -> Outcome:
        """The command's outcome; its sentences name units, cards and sides as the players do (with
        the table as it stood before the command)."""
        try:
            out = self._apply(state, command)
        except (InputError, StateError, KeyError, TypeError, ValueError, AttributeError) as exc:
            out = refused(_invalid(exc))
        try:
            before = engine_of(state)
        except (StateError, KeyError, TypeError, ValueError, AttributeError):
            return out
        return plain_outcome(out, before)

    def replay(self, initial: dict, commands: Iterable[dict]) -> dict:
        return replay_commands(self, initial, commands)

    def acting_side(self, state: dict, command: dict) -> str | None:
        if command.get("type") in ("initiative", "end_turn"):
            return None  # dice on the table / end of turn: any player (or the host) enters them
        side = command.get("side")
        return side if side in SIDES else "?"

    def view_for(self, state: dict, viewer: str | tuple[str, ...] | None) -> dict:
        """The state without the secrets of the sides the viewer does not play.

        Of such a side: the pending choice becomes ``{"hidden": True}``, and its face-down and
        in-pile order cards (identity and type) leave ``engine.cards``; ``hidden[side]`` keeps
        only their counts ({"placed": {zone: n}, "in_pile": n}). Cards of the open reveal stay."""
        mine = (viewer,) if isinstance(viewer, str) else tuple(viewer or ())
        others = [s for s in SIDES if s not in mine]
        out = copy.deepcopy(state)
        public = set()
        for rev in ((out.get("reveal") or {}).get("cards") or {}).values():
            public.update(rev.get("cards") or [rev.get("card")])
        hidden = {s: {"placed": {z: 0 for z in ZONES}, "in_pile": 0} for s in others}
        kept = []
        for c in out["engine"].get("cards", []):
            if c["owner"] in hidden and c["state"] in ("placed", "in_pile") and c["id"] not in public:
                if c["state"] == "placed":
                    hidden[c["owner"]]["placed"][c["zone"]] += 1
                else:
                    hidden[c["owner"]]["in_pile"] += 1
            else:
                kept.append(c)
        out["engine"]["cards"] = kept
        out["hidden"] = hidden
        out["pending"] = {s: (p if s in mine or not p else dict(HIDDEN))
                          for s, p in (out.get("pending") or {}).items()}
        return out

    def side_name(self, side: str, lang: str) -> str:
        ru, en = side_names(side)
        return en if lang == "en" else ru

    def to_json(self, state: dict) -> dict:
        return copy.deepcopy(state)

    def from_json(self, data: dict) -> dict:
        return copy.deepcopy(data)

    # --- commands ---------------------------------------------------------------------------
    def _apply(self, state: dict, command: dict) -> Outcome:
        kind = command.get("type")
        handler = getattr(self, f"_cmd_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            return refused(_r("unknown", "Неизвестная команда (порядок хода).", "Unknown command (turn sequence)."))
        st = engine_of(state)
        if st.phase == "finished":
            return refused(reason_of("game_over"))
        return handler(state, st, command)

    @staticmethod
    def _with(state: dict, st: GameState, **extra) -> dict:
        out = copy.deepcopy(state)
        out["engine"] = st.to_dict()
        out.update(extra)
        return out

    # orders
    def _cmd_place(self, state, st, c):
        side, ctype, zone = c.get("side"), c.get("card_type"), c.get("zone")
        if side not in SIDES or ctype not in CARD_TYPES or zone not in ZONES:
            raise InputError("place needs a side, a card type and a zone")
        res = engine_turn.place_order(st, side, ctype, zone)
        if not res.ok:
            return _refused(res)
        return accepted(self._with(state, res.state), bilingual(
            "placed", "{side}: карта положена рубашкой вверх, зона {zone} (фаза приказов).",
            "{side}: a card placed face down, zone {zone} (orders phase).", side=side_names(side), zone=ZONE_NAMES[zone]))

    def _cmd_unplace(self, state, st, c):
        side, card_id = c.get("side"), c.get("card")
        card = next((x for x in st.cards if x.id == card_id and x.owner == side), None)
        if st.phase != "orders" or side in st.confirmed or card is None or card.state != "placed":
            return refused(_r("unplace", "Эту карту сейчас нельзя вернуть в стопку (фаза приказов).",
                              "This card cannot go back to the pile now (orders phase)."))
        st = st.copy()
        card = next(x for x in st.cards if x.id == card_id)
        card.state, card.zone, card.placed_turn = "in_pile", None, None
        return accepted(self._with(state, st), bilingual(
            "unplaced", "{side}: одна карта возвращена в стопку (фаза приказов).",
            "{side}: one card taken back to the pile (orders phase).", side=side_names(side)))

    def _cmd_confirm(self, state, st, c):
        side = c.get("side")
        if side not in SIDES:
            raise InputError("confirm needs a side")
        if side in st.confirmed and st.phase == "orders":
            return refused(_r("already", "Приказы этой стороны уже подтверждены (фаза приказов).",
                              "This side's orders are already confirmed (orders phase)."))
        res = engine_turn.confirm_orders(st, side)
        if not res.ok:
            return _refused(res)
        return accepted(self._with(state, res.state), bilingual(
            "confirmed", "{side}: приказы отданы (фаза приказов).", "{side}: orders confirmed (orders phase).",
            side=side_names(side)))

    # initiative
    def _cmd_initiative(self, state, st, c):
        south, north = c.get("south"), c.get("north")
        if not (_die(south) and _die(north)):
            raise InputError("initiative needs one die 1..6 per side")
        res = engine_turn.roll_initiative(st, south, north)
        if not res.ok:
            return _refused(res)
        tag = (" (цифровой бросок)", " (digital roll)") if c.get("source") == "digital" else ("", "")
        return accepted(self._with(state, res.state), _r(
            res.reason.code, f"Инициатива: Юг {south}, Север {north}{tag[0]}. " + res.reason.ru,
            f"Initiative: South {south}, North {north}{tag[1]}. " + res.reason.en))

    def _cmd_zones(self, state, st, c):
        seq = c.get("sequence")
        if not isinstance(seq, list):
            raise InputError("zones needs a sequence")
        res = engine_turn.choose_zone_sequence(st, c.get("side"), seq)
        if not res.ok:
            return _refused(res)
        return accepted(self._with(state, res.state, pending={s: None for s in SIDES}, reveal=None), bilingual(
            "zones_set", "Порядок зон: {zones} (фаза инициативы).", "Zone order: {zones} (initiative phase).",
            zones=(", ".join(ZONE_NAMES[z][0] for z in seq), ", ".join(ZONE_NAMES[z][1] for z in seq))))

    # actions: choose a card, dice, resolution
    def _cmd_choose(self, state, st, c):
        side = c.get("side")
        if st.phase != "actions":
            return _refused(engine_turn.reveal_step(st, {}))
        if state.get("reveal"):
            return refused(_r("revealed", "Карты этого шага уже открыты: введите кубики (фаза действий).",
                              "This step's cards are already revealed: enter the dice (actions phase)."))
        zone = st.current_zone
        if side not in sides_to_reveal(st):
            return refused(reason_of("nothing_to_reveal", side=side))
        if (state.get("pending") or {}).get(side):
            return refused(_r("chosen", "Карта на этот шаг уже выбрана; чтобы выбрать другую, отмените ход "
                                        "(одна карта за шаг, фаза действий).",
                              "A card is already chosen for this step; undo to choose another "
                              "(one card per step, actions phase)."))
        ids = c.get("cards") or ([c["card"]] if c.get("card") else [])
        placed = {x.id: x for x in st.cards if x.owner == side and x.state == "placed" and x.zone == zone}
        if not ids or not all(isinstance(i, str) and i in placed for i in ids):
            return refused(reason_of("card_not_placed", card=", ".join(map(str, ids)) or "-", zone=zone))
        if len(ids) > 2 or len(set(ids)) != len(ids) or (len(ids) == 2 and any(placed[i].type != "form_up" for i in ids)):
            return refused(_r("one_card", "Открывается одна карта, или две «Построиться!» для сбора бегущих "
                                          "(фаза действий, правило бегства).",
                              "Reveal one card, or two Form up cards to rally a routed unit (actions phase, rout rule)."))
        unit = st.unit(c.get("unit") or "")
        if unit is None or unit.owner != side:
            return refused(reason_of("not_own" if unit else "no_unit", unit=c.get("unit") or "-"))
        rev = {"cards": ids} if len(ids) == 2 else {"card": ids[0]}
        rev["unit"] = unit.id
        for key in ("target", "to", "facing", "formation", "direction", "use"):
            if isinstance(c.get(key), str) and c[key]:
                rev[key] = c[key][:40]
        if isinstance(c.get("path"), list) and c["path"]:
            rev["path"] = [str(x) for x in c["path"]]
        kind = "rally" if len(ids) == 2 else placed[ids[0]].type
        bad = choice_problem(st, kind, rev, unit)
        if bad is not None:
            return refused(bad)
        try:
            notes = tuple(x for x in [precheck(st, kind, rev, side, zone)] if x)
        except InputError:
            return refused(_r("incomplete", "Приказ неполон: проверьте отряд, цель и куда он идёт (правила карт приказов).",
                              "The order is incomplete: check the unit, the target and where it goes (order card rules)."))
        out = copy.deepcopy(state)
        out["pending"] = dict(out.get("pending") or {})
        out["pending"][side] = rev
        waiting = [s for s in sides_to_reveal(st) if not out["pending"].get(s)]
        if waiting:
            return accepted(out, bilingual("chosen", "{side}: карта на этот шаг выбрана (рубашкой вверх).",
                                           "{side}: a card is chosen for this step (face down).",
                                           side=side_names(side)), notes=notes)
        out["reveal"] = {"zone": zone, "cards": {s: out["pending"][s] for s in sides_to_reveal(st)}, "dice": {}}
        out["pending"] = {s: None for s in SIDES}
        return self._after_reveal_change(out, _r("revealed", "Карты шага открыты одновременно (фаза действий).",
                                                 "The step's cards are revealed at the same time (actions phase)."), notes)

    def _after_reveal_change(self, out: dict, why: Reason, notes=()) -> Outcome:
        if open_needs(out):
            return accepted(out, why, notes=notes)
        done = _resolve(out)
        if isinstance(done, Reason):
            return refused(done)
        new, summary, changes = done
        return accepted(new, Reason(summary.code, f"{why.ru} {summary.ru}", f"{why.en} {summary.en}"),
                        changes=changes, notes=notes)

    def _cmd_dice(self, state, st, c):
        side, roll, faces = c.get("side"), c.get("roll"), c.get("faces")
        if not state.get("reveal"):
            return refused(_r("no_dice", "Сейчас кубики не нужны (фаза действий).", "No dice are needed now (actions phase)."))
        need = dice_need(state, side, roll)
        if need is None:
            return refused(_r("no_dice", "Сейчас эта сторона не бросает кубики (фаза действий).",
                              "This side has no dice to roll now (actions phase)."))
        if not _faces(faces, need["n"]):
            return refused(_r("bad_dice", f"Нужно {need['n']} куб., каждый от 1 до 6 (правила стрельбы и рукопашной).",
                              f"Enter {need['n']} dice, each 1 to 6 (fire and melee rules)."), n=need["n"])
        source = "digital" if c.get("source") == "digital" else "physical"
        out = copy.deepcopy(state)
        out["reveal"]["dice"][need["key"]] = {"faces": list(faces), "source": source}
        tag = ("цифровой бросок", "digital roll") if source == "digital" else ("кубики со стола", "physical dice")
        text = " ".join(map(str, faces))
        return self._after_reveal_change(out, bilingual("dice", "{side}: {faces} ({tag}).", "{side}: {faces} ({tag}).",
                                                        side=side_names(side), faces=text, tag=tag))

    # the owners' decisions inside a step or at the end of the turn
    def _cmd_retreat_choice(self, state, st, c):
        """The owner picks where its unit falls back (§2.10.1): one of the engine's options."""
        side, uid, sector = c.get("side"), c.get("unit"), c.get("sector")
        need = next((n for n in open_needs(state) if n["roll"] == "retreat" and n["unit"] == uid), None)
        if need is None or need["side"] != side:
            return refused(_r("no_choice", "Сейчас этой стороне не нужно выбирать, куда отходит этот отряд (порядок отступления).",
                              "This side has no retreat to choose for this unit now (retreat procedure)."))
        if sector not in need["options"]:
            return refused(reason_of("bad_choice", unit=str(uid), sector=str(sector)[:10], n=", ".join(need["options"])))
        out = copy.deepcopy(state)
        msg = bilingual("retreat_chosen", "{side}: {unit} отходит в {sector} (выбор владельца, порядок отступления).",
                        "{side}: {unit} falls back to {sector} (the owner's choice, retreat procedure).",
                        side=side_names(side), unit=uid, sector="за край поля" if sector == "off" else sector)
        if out.get("reveal"):
            out["reveal"].setdefault("choices", {})[uid] = sector
            return self._after_reveal_change(out, msg)
        out.setdefault("flight_choices", {})[uid] = sector
        return accepted(out, msg)

    def _cmd_react(self, state, st, c):
        """``counter_charge_timing = reaction``: meet the charge with a face-down Bayonets! card, or not."""
        side, uid, card = c.get("side"), c.get("unit"), c.get("card")
        need = next((n for n in open_needs(state) if n["roll"] == "react" and n["unit"] == uid), None)
        if need is None or need["side"] != side:
            return refused(_r("no_reaction", "Сейчас этой стороне нечем отвечать на атаку (домашнее правило «Когда на атаку можно ответить «В штыки!»»).",
                              "This side has no charge to react to now (house rule “When a charge can be met with Bayonets!”)."))
        zone = st.current_zone
        if card != "none" and not any(x.id == card and x.owner == side and x.state == "placed" and x.zone == zone
                                      and x.type == "bayonets" for x in st.cards):
            return refused(reason_of("card_not_placed", card=str(card)[:40], zone=zone))
        out = copy.deepcopy(state)
        out["reveal"].setdefault("reactions", {})[uid] = card
        msg = (bilingual("reacted", "{side}: {unit} встречает атаку картой «В Штыки!» (встречный бой).",
                         "{side}: {unit} meets the charge with a Bayonets! card (counter-charge).", side=side_names(side), unit=uid)
               if card != "none" else
               bilingual("no_reaction", "{side}: {unit} не встречает атаку (встречный бой).",
                         "{side}: {unit} does not meet the charge (counter-charge).", side=side_names(side), unit=uid))
        return self._after_reveal_change(out, msg)

    # manual correction: proposed by one side, applied when the other agrees (the host may do both);
    # not while a step's cards are face up: the step was planned on the table as it stood
    def _cmd_correct(self, state, st, c):
        side, uid, changes = c.get("side"), c.get("unit"), c.get("set")
        if side not in SIDES:
            raise InputError("correct needs a side")
        if state.get("reveal"):
            return refused(_STEP_OPEN)
        if state.get("correction"):
            return refused(_r("correction_open", "Уже предложено другое исправление: примите или отклоните его (исправление).",
                              "Another correction is waiting: agree to it or drop it first (correction)."))
        res = engine_turn.correct_unit(st, uid if isinstance(uid, str) else "", changes)  # checked, not applied yet
        if not res.ok:
            return _refused(res)
        out = copy.deepcopy(state)
        out["correction"] = {"by": side, "unit": uid, "set": dict(changes)}
        return accepted(out, bilingual(
            "correction_proposed", "{side} предлагает исправить {unit}: {what}. Нужно согласие другого игрока (исправление).",
            "{side} proposes to correct {unit}: {what}. The other player must agree (correction).",
            side=side_names(side), unit=uid, what=changes_text(changes)))

    def _cmd_agree_correction(self, state, st, c):
        side, prop = c.get("side"), state.get("correction")
        if not prop or side not in SIDES or side == prop["by"]:
            return refused(_r("no_correction", "Нет исправления, с которым эта сторона могла бы согласиться (исправление).",
                              "There is no correction for this side to agree to (correction)."))
        if state.get("reveal"):
            return refused(_STEP_OPEN)
        res = engine_turn.correct_unit(st, prop["unit"], prop["set"])
        if not res.ok:
            return _refused(res)
        out = self._with(state, res.state, correction=None)
        return accepted(out, bilingual(
            "corrected", "Исправление вручную (согласны оба): {unit} — {what} (исправление).",
            "Manual correction (both agree): {unit} — {what} (correction).",
            unit=prop["unit"], what=changes_text(prop["set"])), changes=res.changes)

    def _cmd_drop_correction(self, state, st, c):
        if not state.get("correction") or c.get("side") not in SIDES:
            return refused(_r("no_correction", "Нет предложенного исправления (исправление).",
                              "No correction is waiting (correction)."))
        return accepted(dict(copy.deepcopy(state), correction=None), bilingual(
            "correction_dropped", "{side}: исправление отклонено (исправление).", "{side}: the correction is dropped (correction).",
            side=side_names(c["side"])))

    # end of turn
    def _cmd_end_turn(self, state, st, c):
        waiting = open_needs(state)
        if waiting:
            n = waiting[0]
            return refused(bilingual(
                "owner_chooses", "Сначала {side} выбирает, куда бежит {unit} (порядок отступления).",
                "First {side} chooses where {unit} flees (retreat procedure).", side=side_names(n["side"]), unit=n["unit"]))
        choices = dict(state.get("flight_choices") or {})
        choices.update(c.get("flight_choices") or {})
        res = engine_turn.end_turn(st, choices or None)
        if not res.ok:
            return _refused(res)
        ru, en = res.reason.ru, res.reason.en
        w = res.data.get("winner")
        if w:
            ru += " Ничья." if w == "draw" else f" Победа: {side_names(w)[0]}."
            en += " A draw." if w == "draw" else f" Victory: {side_names(w)[1]}."
        extra = {"flight_choices": {}} if "flight_choices" in state else {}  # absent from battles stored before
        return accepted(self._with(state, res.state, **extra), _r("turn_ended", ru, en), changes=res.changes)


CHANGE_WORDS = {"sector": ("сектор", "sector"), "location": ("где", "where"), "blocks": ("фишек", "blocks"),
                "crew": ("прислуга", "crew"), "formation": ("строй", "formation"), "facing": ("фронт", "facing"),
                "flag": ("флаг", "flag")}
VALUE_WORDS = {"board": ("на поле", "on the board"), "reserve": ("в резерве", "in reserve"),
               "destroyed": ("уничтожен", "destroyed"), "deserted": ("дезертировал", "deserted"),
               "up": ("поднят", "up"), "routed": ("лежит (бегство)", "down (routed)"),
               "N": ("север", "north"), "E": ("восток", "east"), "S": ("юг", "south"), "W": ("запад", "west"),
               **FORMATION_NAMES}


def changes_text(changes: dict) -> tuple[str, str]:
    """A correction in words, per language: «строй: линия, флаг: поднят»."""
    out = []
    for i in (0, 1):
        out.append(", ".join(f"{CHANGE_WORDS.get(k, (k, k))[i]}: {VALUE_WORDS.get(v, (v, v))[i] if isinstance(v, str) else v}"
                             for k, v in sorted(changes.items())))
    return out[0], out[1]


STEPPER = GeneralissimusStepper()

__all__ = ["HIDDEN", "SIDES", "STEPPER", "GeneralissimusStepper", "PrepareError", "dice_needs", "engine_of",
           "initial_state", "precheck", "sides_to_reveal"]
