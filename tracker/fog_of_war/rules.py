"""The Fog of War adapter for ``tracker.jsongames``: wraps the pure engine ``gameplay.fog_of_war``.

The stored state is one JSON value::

    {"engine": <GameState.to_dict()>, "ledger": bool,
     "battles": [public battle records, newest last], "intel": [public intel records],
     "intel_seen": {"axis": [...], "allies": [...]},   # private to the spy
     "supply_answers": {province: bool}}               # the players' answers while there is no map

Every command is deterministic: any random pick (quagmire halving, intel cards, shuffles) is either
written into the command by the view (``quagmire_choice``, ``seed``) or refused. ``apply`` never
draws randomness of its own, so ``replay_state`` rebuilds the stored state exactly.
"""
from __future__ import annotations

import random
from dataclasses import replace

from gameplay.fog_of_war import actions as act
from gameplay.fog_of_war import year_end as ye
from gameplay.fog_of_war.board import SIDES, BoardMap, MapError, other
from gameplay.fog_of_war.cards import Card, parse_card, placeholders
from gameplay.fog_of_war.config import FowSettings
from gameplay.fog_of_war.intel import intel as do_intel
from gameplay.fog_of_war.state import GameState, ProvinceState, new_game
from gameplay.fog_of_war.texts import Result
from gameplay.qmg.reasons import Reason

from tracker import jsongames

SIDE_NAMES = {"axis": ("Ось", "Axis"), "allies": ("Союзники", "Allies")}
OUTCOME_NAMES = {"victory": ("Победа", "Victory"), "quagmire": ("Упорные бои", "Quagmire"),
                 "defeat": ("Поражение", "Defeat"), "rout": ("Разгром", "Rout")}
MAX_BATTLES = 12

# year-end checklist: (engine 'done' key, command type); 3.5 and 3.6 run once per side
YEAR_END_ORDER = ("3.1", "3.2", "3.3", "3.5", "3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "then")
YE_COMMANDS = {"ye_score_vp": "3.1", "ye_split_wins": "3.2", "ye_refresh_intel": "3.3", "ye_spend": "3.5",
               "ye_recall": "3.6", "ye_balkans": "3.7", "ye_usa": "3.8", "ye_ussr": "3.9", "ye_new_decks": "3.10",
               "ye_advance": "3.11", "ye_reinforcements": "3.12", "ye_start_year": "then"}


class BadCommand(ValueError):
    """Malformed command (not a rules refusal)."""


class RevealMissing(BadCommand):
    """Ledger mode: the typed card values do not match the stack (how many are needed)."""

    def __init__(self, stack: str, need: int, got: int):
        super().__init__(stack)
        self.stack, self.need, self.got = stack, need, got

    def reason(self) -> Reason:
        what = {"reveal_attack": ("атаки", "attack"), "reveal_defence": ("обороны", "defence"),
                "reveal_neutral": ("нейтральных карт", "neutral cards")}[self.stack]
        return R("reveal", f"Введите значения всех карт {what[0]} при вскрытии: нужно {self.need}, введено {self.got} (§2.5, режим учёта).",
                 f"Type the values of every {what[1]} card at reveal: {self.need} needed, {self.got} given (§2.5, ledger mode).")


def R(code: str, ru: str, en: str) -> Reason:  # noqa: N802 - short constructor
    return Reason(f"fow.{code}", ru, en)


def side_ru(side):
    return SIDE_NAMES.get(side, (side, side))[0]


def side_en(side):
    return SIDE_NAMES.get(side, (side, side))[1]


def province_name(st: GameState, key: str, lang: str) -> str:
    p = st.pdef(key) if key in st.provinces else None
    if p is None:
        return key
    return (p.name_en if lang == "en" else p.name_ru) or p.name_en or p.name_ru or key


def card_code(c: Card) -> str:
    """Short text of a card's values (shown only where the card is known to the viewer)."""
    if c.category == "unknown":
        return "?"
    if c.category == "zero":
        return "Z"
    letter = {"land": "L", "naval": "N", "fort": "F", "air": "A"}[c.category]
    v = c.land if c.category in ("land", "fort") else c.sea if c.category == "naval" else (c.land or c.sea or 0)
    return f"{letter}{v}"


def card_record(c: Card) -> dict:
    return {"id": c.id, "code": card_code(c), "name": c.name}


# --------------------------------------------------------------------------------------------
# New game
# --------------------------------------------------------------------------------------------

def parse_card_list(text: str, owner: str, prefix: str, rng: random.Random) -> list[Card] | None:
    """A side's cards typed as shorthand (``L3 L3 N2 F1 Z``) or a plain count (ledger mode).

    Ids are opaque and assigned in a random order, so an id never tells a card's value.
    Returns ``None`` for an empty text. Raises ``ValueError`` on bad input.
    """
    text = (text or "").replace(",", " ").strip()
    if not text:
        return None
    if text.isdigit():
        return placeholders(owner, int(text), prefix)
    specs = text.split()
    cards = [parse_card(s, owner, "x") for s in specs]
    order = list(range(len(cards)))
    rng.shuffle(order)
    return [replace(cards[i], id=f"{prefix}-{n}") for n, i in enumerate(order, 1)]


def initial_state(*, settings: dict, axis_cards: list[Card], allies_cards: list[Card], neutral_cards: list[Card],
                  board: dict | None = None, preplace: list[str] = (), seed: int = 0) -> dict:
    """Run the setup (spec §1.4) and wrap it. ``preplace`` lists up to 3 provinces (step 1.9)."""
    cfg = FowSettings.from_dict(settings)
    bmap = BoardMap.from_dict(board) if board else None
    pre = {}
    for prov, card in zip(preplace, allies_cards):
        pre[prov] = card.id
    st = new_game(axis_cards, allies_cards, neutral_cards, settings=cfg, board=bmap, preplace=pre or None,
                  rng=random.Random(seed), shuffle=True)
    ledger = any(c.category == "unknown" for c in axis_cards + allies_cards)
    return {"engine": st.to_dict(), "ledger": ledger, "battles": [], "intel": [],
            "intel_seen": {"axis": [], "allies": []}, "supply_answers": {}}


# --------------------------------------------------------------------------------------------
# Helpers for the views: preview a battle, complete a command with random picks
# --------------------------------------------------------------------------------------------

def engine(state: dict) -> GameState:
    return GameState.from_dict(state["engine"])


def _reveal(st: GameState, side: str, command: dict) -> dict[str, Card]:
    """Ledger mode: typed values (in stack order) for every card of unknown value in the battle."""
    slot, quag = command.get("slot"), command.get("province") if command["type"] == "resolve_quagmire" else None
    s = st.sides[side]
    if quag:
        prov = st.provinces[quag]
        att = prov.quagmire_cards[side]
        dfn = prov.quagmire_cards[other(side)] + prov.defence[other(side)]
    else:
        op = s.op(slot)
        if op is None:
            return {}
        prov = st.provinces[op.target]
        att, dfn = op.cards, prov.defence[other(side)]
    out = {}
    for stack, key, owner in ((att, "reveal_attack", side), (dfn, "reveal_defence", other(side)),
                              (prov.neutral_cards, "reveal_neutral", "neutral")):
        unknown = [c for c in stack if c.category == "unknown"]
        typed = list(command.get(key) or [])
        if not unknown:
            continue
        if len(typed) != len(unknown):
            raise RevealMissing(key, len(unknown), len(typed))
        for c, spec in zip(unknown, typed):
            out[c.id] = replace(parse_card(spec, owner, c.id), id=c.id, face_up=c.face_up,
                                known_to_opponent=c.known_to_opponent)
    return out


def _battle_kwargs(st: GameState, side: str, command: dict) -> dict:
    kw = {"use_superiority": bool(command.get("use_superiority")), "reveal": _reveal(st, side, command),
          "wins_choice": command.get("wins_choice"), "quagmire_choice": command.get("quagmire_choice"),
          "climate": command.get("climate") or None, "rng": random.Random(int(command.get("seed", 0)))}
    return kw


def run_battle(st: GameState, command: dict) -> Result:
    side = command["side"]
    kw = _battle_kwargs(st, side, command)
    if command["type"] == "resolve_quagmire":
        return act.resolve_quagmire(st, side, command["province"], **kw)
    amph = command.get("amphibious")
    return act.launch_operation(st, side, command["slot"], command.get("origin", ""),
                                amphibious=None if amph in (None, "") else bool(amph), **kw)


def battle_stacks(state: dict, command: dict) -> dict | None:
    """For a legal battle command: the counted cards (ids) per role after the reveal, and the outcome."""
    st = engine(state)
    try:
        res = run_battle(st, {**command, "quagmire_choice": None, "seed": 0})
    except (BadCommand, KeyError, ValueError, TypeError):
        return None
    if not res.legal:
        return None
    br = res.data["battle"]
    return {"outcome": br.outcome, "attack": [c.id for c in br.attack], "defence": [c.id for c in br.defence],
            "neutral": [c.id for c in br.neutral]}


def complete_battle_command(state: dict, command: dict, rng: random.Random) -> dict:
    """Write the random quagmire halving into the command (unless the table gave its own choice)."""
    command = dict(command)
    command.setdefault("seed", rng.randrange(2 ** 31))
    if command.get("quagmire_choice"):
        return command
    stacks = battle_stacks(state, command)
    if stacks and stacks["outcome"] == "quagmire":
        from gameplay.fog_of_war.battle import halving_count

        att, dfn, neu = stacks["attack"], stacks["defence"], stacks["neutral"]
        k_att = halving_count(len(att))
        k_def = halving_count(len(dfn) + len(neu))
        n_own = min(k_def, len(dfn))
        command["quagmire_choice"] = {"attacker": rng.sample(att, k_att),
                                      "defender": rng.sample(dfn, n_own) + rng.sample(neu, k_def - n_own)}
    return command


def year_end_next(st: GameState) -> tuple[str, str | None] | None:
    """The next year-end step: (key, side) — side for the per-side steps 3.5 and 3.6."""
    if st.phase != "year_end":
        return None
    done = st.year_end.get("done", [])
    order = list(YEAR_END_ORDER)
    if st.settings.reinforcement_timing == "before_production":
        order.remove("3.12")
        order.insert(order.index("3.5"), "3.12")
    first = other(st.superiority)
    for key in order:
        if key in ("3.5", "3.6"):
            for side in (first, st.superiority):
                if f"{key}:{side}" not in done:
                    return key, side
        elif key not in done:
            return key, None
    return None


# --------------------------------------------------------------------------------------------
# The adapter
# --------------------------------------------------------------------------------------------

class FogOfWarRules(jsongames.JsonRules):
    kind = "fog_of_war"
    sides = SIDES

    def side_name(self, side: str, lang: str) -> str:
        return side_en(side) if lang == "en" else side_ru(side)

    def acting_side(self, state: dict, command: dict) -> str | None:
        return command.get("side") or None

    def apply(self, state: dict, command: dict) -> jsongames.Step:
        try:
            st = engine(state)
            kind = command.get("type")
            handler = getattr(self, f"_do_{kind}", None) if isinstance(kind, str) else None
            if handler is None:
                return jsongames.Step(False, R("unknown", "Неизвестная команда.", "Unknown command."))
            if command.get("side") not in (None, *SIDES):
                raise BadCommand("side")
            new = {**state, "battles": list(state.get("battles", [])), "intel": list(state.get("intel", [])),
                   "intel_seen": {s: list(v) for s, v in state.get("intel_seen", {"axis": [], "allies": []}).items()},
                   "supply_answers": dict(state.get("supply_answers", {}))}
            out = handler(st, new, command)
        except RevealMissing as exc:
            return jsongames.Step(False, exc.reason())
        except (BadCommand, KeyError, ValueError, TypeError, AttributeError, IndexError) as exc:
            return jsongames.Step(False, R("invalid", f"Неверный ввод ({exc}).", f"Invalid input ({exc})."))
        if isinstance(out, Result):  # an engine refusal, with its rule and RU/EN reason
            rule = f" ({out.rule})" if out.rule else ""
            return jsongames.Step(False, Reason(out.code, out.reason_ru + rule, out.reason_en + rule))
        if isinstance(out, Reason):
            return jsongames.Step(False, out)
        res_state, summary = out
        new["engine"] = res_state.to_dict()
        return jsongames.Step(True, summary, new)

    # --- turn ------------------------------------------------------------------------------
    def _do_start_turn(self, st, new, c):
        if c["side"] != st.active_side:
            return R("not_your_turn", f"Сейчас ход: {side_ru(st.active_side)}.", f"It is the {side_en(st.active_side)} turn.")
        if st.turn_started:
            return R("already_rotated", "Колесо в этом ходу уже повёрнуто.", "The wheel has already been rotated this turn.")
        r = act.start_turn(st)
        if not r.legal:
            return r
        s = c["side"]
        exp = r.data["expired"]
        ru = f"{side_ru(s)}: колесо повёрнуто, на NEW OP — {r.data['pointer']}."
        en = f"{side_en(s)}: wheel rotated, {r.data['pointer']} at NEW OP."
        if exp:
            ru += f" Отменены просроченные операции: {', '.join(exp)}."
            en += f" Expired operations cancelled: {', '.join(exp)}."
        return r.state, R("start_turn", ru, en)

    def _need_rotation(self, st, c):
        if c["side"] == st.active_side and st.phase == "turn" and not st.turn_started and not st.winner:
            return R("rotate_first", "Сначала поверните колесо операций (начало хода).",
                     "Rotate the operations wheel first (start of the turn).")
        return None

    def _cards(self, c) -> list[str]:
        ids = c.get("cards")
        if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
            raise BadCommand("cards")
        return ids

    def _do_defend(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = act.defend(st, c["side"], c["province"], self._cards(c))
        if not r.legal:
            return r
        n = len(c["cards"])
        return r.state, R("defend", f"{side_ru(c['side'])}: {n} карт(ы) в оборону «{province_name(st, c['province'], 'ru')}».",
                          f"{side_en(c['side'])}: {n} card(s) defend {province_name(st, c['province'], 'en')}.")

    def _do_new_op(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = act.new_operation(st, c["side"], c["target"], self._cards(c), replace=bool(c.get("replace")))
        if not r.legal:
            return r
        n = len(c["cards"])
        # the target stays secret until launch: the public summary names only the slot
        return r.state, R("new_op", f"{side_ru(c['side'])}: новая операция {r.data['slot']} ({n} карт(ы)).",
                          f"{side_en(c['side'])}: new operation {r.data['slot']} ({n} card(s)).")

    def _do_cancel_op(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = act.cancel_operation(st, c["side"], c["slot"])
        if not r.legal:
            return r
        return r.state, R("cancel_op", f"{side_ru(c['side'])}: операция {c['slot']} отменена.",
                          f"{side_en(c['side'])}: operation {c['slot']} cancelled.")

    def _do_reinforce_op(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = act.reinforce_operation(st, c["side"], c["slot"], self._cards(c))
        if not r.legal:
            return r
        n = len(c["cards"])
        return r.state, R("reinforce_op", f"{side_ru(c['side'])}: операция {c['slot']} усилена ({n}).",
                          f"{side_en(c['side'])}: operation {c['slot']} reinforced ({n}).")

    def _do_reinforce_quagmire(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = act.reinforce_quagmire(st, c["side"], c["province"], self._cards(c))
        if not r.legal:
            return r
        ru_p, en_p = province_name(st, c["province"], "ru"), province_name(st, c["province"], "en")
        ru, en = f"{side_ru(c['side'])}: упорные бои в «{ru_p}» усилены.", f"{side_en(c['side'])}: quagmire in {en_p} reinforced."
        if r.data.get("must_resolve"):
            ru += " Бой нужно разрешить до конца хода."
            en += " The battle must be resolved before the turn ends."
        return r.state, R("reinforce_quagmire", ru, en)

    def _supply_answer(self, st, new, c):
        """No map: the players answer whether the origin is supplied; the answer is recorded."""
        if st.board is not None or c["type"] != "launch":
            return None
        ans = c.get("origin_supplied")
        if ans is None:
            return R("ask_supply", "Карты поля нет: подтвердите, снабжается ли исходная провинция (§2.9).",
                     "No board map: confirm whether the origin province is supplied (§2.9).")
        new["supply_answers"][c["origin"]] = bool(ans)
        if not ans:
            return R("origin_unsupplied_answer", "По ответу игроков исходная провинция без снабжения — атака невозможна (§2.9 / B-17).",
                     "By the players' answer the origin is not supplied — no attack from there (§2.9 / B-17).")
        return None

    def _do_launch(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        if st.sides[c["side"]].op(c.get("slot")) is None:
            return R("no_op", "Такой операции нет.", "There is no such operation.")
        bad = self._supply_answer(st, new, c)
        if bad:
            return bad
        op = st.sides[c["side"]].op(c["slot"])
        target = op.target
        r = run_battle(st, c)
        if not r.legal:
            return r
        return self._record_battle(st, r, new, c, target)

    def _do_resolve_quagmire(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = run_battle(st, c)
        if not r.legal:
            return r
        return self._record_battle(st, r, new, c, c["province"])

    def _record_battle(self, st, r, new, c, target):
        br, flow = r.data["battle"], r.data["flow"]
        side = c["side"]
        rec = {
            "turn": st.turn_no, "year": st.year, "attacker": side, "target": target, "origin": c.get("origin", ""),
            "from_quagmire": c["type"] == "resolve_quagmire", "outcome": br.outcome, "a": br.a, "d": br.d,
            "instant": br.instant, "breakdown": br.breakdown, "superiority_used": br.superiority_used,
            "cards": {"attack": [card_record(x) for x in br.attack], "defence": [card_record(x) for x in br.defence],
                      "neutral": [card_record(x) for x in br.neutral],
                      "attack_discarded": [card_record(x) for x in br.attack_discarded],
                      "defence_discarded": [card_record(x) for x in br.defence_discarded]},
            "flow": {role: {pile: [card_record(x) for x in cards] for pile, cards in piles.items()}
                     for role, piles in flow.items()},
            "events": [{k: v for k, v in e.items()} for e in r.data.get("events", [])],
        }
        new["battles"] = (new["battles"] + [rec])[-MAX_BATTLES:]
        o = OUTCOME_NAMES[br.outcome]
        ru_t, en_t = province_name(st, target, "ru"), province_name(st, target, "en")
        ru = f"{side_ru(side)} атакует «{ru_t}»: A {br.a} против D {br.d} — {o[0]}."
        en = f"{side_en(side)} attacks {en_t}: A {br.a} against D {br.d} — {o[1]}."
        if r.state.winner:
            ru += f" Игра окончена: побеждает {side_ru(r.state.winner)}."
            en += f" Game over: the {side_en(r.state.winner)} win."
        return r.state, R("battle", ru, en)

    def _do_intel(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        target = c.get("target")
        if not isinstance(target, dict):
            raise BadCommand("target")
        rounds = int(c.get("counter_rounds", 0))
        if rounds < 0 or rounds > 20:
            raise BadCommand("counter_rounds")
        r = do_intel(st, c["side"], target, end_of_turn=bool(c.get("end_of_turn")), counter_rounds=rounds,
                     rng=random.Random(int(c.get("seed", 0))))
        if not r.legal:
            return r
        spy = c["side"]
        label_ru, label_en = self._target_label(st, target, "ru"), self._target_label(st, target, "en")
        rec = {"turn": st.turn_no, "spy": spy, "target": target, "label_ru": label_ru, "label_en": label_en,
               "result": r.data["result"], "paid": r.data["paid"], "n": r.data["n"], "k": r.data["k"]}
        new["intel"] = (new["intel"] + [rec])[-30:]
        if r.data["result"] == "success":
            seen = [card_record(x) if isinstance(x, Card) else {"id": str(x), "code": str(x), "name": ""}
                    for x in r.data["seen"]]
            new["intel_seen"][spy] = (new["intel_seen"][spy] + [{**rec, "seen": seen}])[-30:]
            ru = f"{side_ru(spy)}: разведка «{label_ru}» удалась — видно {r.data['k']} из {r.data['n']}."
            en = f"{side_en(spy)}: intel on {label_en} succeeded — {r.data['k']} of {r.data['n']} seen."
        else:
            ru = f"{side_ru(spy)}: разведка «{label_ru}» сорвана контрразведкой."
            en = f"{side_en(spy)}: intel on {label_en} was cancelled by counter-intel."
        return r.state, R("intel", ru, en)

    def _target_label(self, st, target, lang):
        kind = target.get("kind")
        if kind == "op":
            return ("operation " if lang == "en" else "операция ") + str(target.get("slot"))
        if kind == "objectives":
            return "objectives by Morocco" if lang == "en" else "цели у Марокко"
        name = province_name(st, target.get("province", ""), lang)
        what = {"defence": ("оборона", "defence"), "neutral": ("нейтральные карты", "neutral cards"),
                "quagmire": ("упорные бои", "quagmire")}.get(kind, (kind, kind))
        return f"{what[1 if lang == 'en' else 0]}: {name}"

    def _do_end_turn(self, st, new, c):
        bad = self._need_rotation(st, c)
        if bad:
            return bad
        r = act.end_turn(st, c["side"])
        if not r.legal:
            return r
        s = c["side"]
        ru, en = f"{side_ru(s)}: ход окончен, взято {r.data['drawn']}.", f"{side_en(s)}: turn ended, {r.data['drawn']} drawn."
        if r.data["winter_now"]:
            ru += " Колода кончилась: жетон года перевёрнут на зиму."
            en += " A deck ran out: the year token turns to winter."
        if r.data["year_end"]:
            ru += " Обе колоды пусты: конец года."
            en += " Both decks are empty: year end."
        return r.state, R("end_turn", ru, en)

    # --- map ----------------------------------------------------------------------------------
    def _do_set_map(self, st, new, c):
        try:
            board = BoardMap.from_dict(c["map"])
        except MapError as exc:
            return R("bad_map", f"Карта не принята: {exc}", f"The map was not accepted: {exc}")
        missing = [k for k in st.provinces if k not in board.provinces and (
            st.provinces[k].control != "neutral" or st.provinces[k].defence["axis"] or st.provinces[k].defence["allies"]
            or st.provinces[k].neutral_cards)]
        if missing:
            return R("map_missing", f"В карте нет провинций, которые уже в игре: {', '.join(missing)}.",
                     f"The map lacks provinces already in play: {', '.join(missing)}.")
        st = st.copy()
        st.board = board
        for k, p in board.provinces.items():
            if k not in st.provinces:
                st.provinces[k] = ProvinceState(k, control=p.start_control)
                for s in SIDES:
                    if p.start_control != s and k not in st.sides[s].province_deck and k not in st.sides[s].in_front:
                        st.sides[s].province_deck.append(k)
        for k in [k for k in st.provinces if k not in board.provinces]:
            del st.provinces[k]
            for s in SIDES:
                if k in st.sides[s].province_deck:
                    st.sides[s].province_deck.remove(k)
        st.refresh_supply()
        n = len(board.provinces)
        return st, R("set_map", f"Карта поля введена: {n} провинций; снабжение теперь считается.",
                     f"Board map entered: {n} provinces; supply is now computed.")

    def _do_set_control(self, st, new, c):
        """Manual override (spec: every automatic step can be overridden by hand; logged)."""
        from gameplay.fog_of_war.events import transfer_province

        key, to = c["province"], c["control"]
        if key not in st.provinces or to not in (*SIDES, "neutral"):
            raise BadCommand("province/control")
        st = st.copy()
        if to == "neutral":
            old = st.provinces[key].control
            if old in st.sides and key in st.sides[old].in_front:
                st.sides[old].in_front.remove(key)
                st.sides[old].province_deck.append(key)
            st.provinces[key].control = "neutral"
        else:
            transfer_province(st, key, to)
        st.refresh_supply()
        return st, R("set_control", f"Вручную: «{province_name(st, key, 'ru')}» — {side_ru(to) if to in SIDES else 'нейтральна'}.",
                     f"By hand: {province_name(st, key, 'en')} — {side_en(to) if to in SIDES else 'neutral'}.")

    # --- year end -------------------------------------------------------------------------------
    def _ye_check(self, st, c):
        nxt = year_end_next(st)
        want = YE_COMMANDS[c["type"]]
        if nxt is None or st.phase != "year_end":
            return R("ye_not_now", "Сейчас не конец года.", "It is not the year end now.")
        key, side = nxt
        if key != want or (side and c.get("side") != side):
            who_ru = f" ({side_ru(side)})" if side else ""
            who_en = f" ({side_en(side)})" if side else ""
            return R("ye_order", f"Шаги конца года идут по порядку: сейчас шаг {key}{who_ru}.",
                     f"The year-end steps go in order: now step {key}{who_en}.")
        return None

    def _ye(self, st, c, fn, ru, en):
        bad = self._ye_check(st, c)
        if bad:
            return bad
        r = fn()
        if not r.legal:
            return r
        return r.state, R(c["type"], ru(r), en(r))

    def _do_ye_score_vp(self, st, new, c):
        gain = c.get("vp_gain")
        gain = None if gain in (None, "") else int(gain)
        return self._ye(st, c, lambda: ye.score_vp(st, gain),
                        lambda r: f"3.1: Ось получает {r.data['vp_gain']} ПО, всего {r.data['vp']}." + (" Победа Оси (70 ПО)!" if r.data["axis_wins"] else ""),
                        lambda r: f"3.1: the Axis scores {r.data['vp_gain']} VP, {r.data['vp']} in all." + (" The Axis wins (70 VP)!" if r.data["axis_wins"] else ""))

    def _do_ye_split_wins(self, st, new, c):
        seed = int(c.get("seed", 0))
        return self._ye(st, c, lambda: ye.split_wins(st, rng=random.Random(seed)),
                        lambda r: "3.2: стопки побед разделены: " + ", ".join(f"{side_ru(s)} {v['discard']} в сброс / {v['losses']} в потери" for s, v in r.data["counts"].items()) + ".",
                        lambda r: "3.2: wins piles split: " + ", ".join(f"{side_en(s)} {v['discard']} to discard / {v['losses']} to losses" for s, v in r.data["counts"].items()) + ".")

    def _do_ye_refresh_intel(self, st, new, c):
        return self._ye(st, c, lambda: ye.refresh_intel(st), lambda r: "3.3: жетоны разведки восстановлены.",
                        lambda r: "3.3: intel tokens refreshed.")

    def _do_ye_spend(self, st, new, c):
        side = c["side"]
        s = st.sides[side]
        n_losses = int(c.get("losses", 0))
        if n_losses < 0 or n_losses > len(s.losses):
            return R("losses_count", f"В стопке потерь только {len(s.losses)} карт.", f"The losses pile holds only {len(s.losses)} cards.")
        ids = [x.id for x in s.losses[:n_losses]] if "losses_ids" not in c else list(c["losses_ids"])
        res = c.get("resources")
        res = None if res in (None, "") else int(res)
        return self._ye(st, c, lambda: ye.spend_production(st, side, losses_to_discard=ids, level=int(c.get("level", 0)),
                                                           intel_pairs=int(c.get("intel_pairs", 0)), vp=int(c.get("vp", 0)), resources=res),
                        lambda r: f"3.5: {side_ru(side)} — ОП {r.data['pp']}, потрачено {r.data['spent']}, сгорело {r.data['lost']}." + (" Победа Оси (70 ПО)!" if r.data["axis_wins"] else ""),
                        lambda r: f"3.5: {side_en(side)} — {r.data['pp']} PP, {r.data['spent']} spent, {r.data['lost']} lost." + (" The Axis wins (70 VP)!" if r.data["axis_wins"] else ""))

    def _do_ye_recall(self, st, new, c):
        side = c["side"]
        provinces = {k: [x.id for x in st.provinces[k].defence[side]] for k in c.get("provinces", []) if k in st.provinces}
        for k in c.get("provinces", []):
            if k not in st.provinces:
                raise BadCommand("province")
        cancel = [x for x in c.get("cancel", [])]
        return self._ye(st, c, lambda: ye.recall(st, side, provinces=provinces, cancel=cancel),
                        lambda r: f"3.6: {side_ru(side)} — отозваны карты из {len(provinces)} провинций, отменено операций: {len(r.data['cancelled'])}.",
                        lambda r: f"3.6: {side_en(side)} — cards recalled from {len(provinces)} province(s), {len(r.data['cancelled'])} operation(s) cancelled.")

    def _do_ye_balkans(self, st, new, c):
        return self._ye(st, c, lambda: ye.balkans_step(st),
                        lambda r: "3.7: Балканы — " + {"allies": "к Союзникам.", "axis": "под контролем Оси.", None: "в этом году ничего.", "unknown": "нет на карте."}[r.data["balkans"]],
                        lambda r: "3.7: Balkans — " + {"allies": "to the Allies.", "axis": "Axis control.", None: "nothing this year.", "unknown": "not on the map."}[r.data["balkans"]])

    def _do_ye_usa(self, st, new, c):
        return self._ye(st, c, lambda: ye.usa_step(st),
                        lambda r: "3.8: США " + ("вступают в войну." if r.data["usa_cards"] is not None else "— в этом году ничего."),
                        lambda r: "3.8: USA " + ("enters the war." if r.data["usa_cards"] is not None else "— nothing this year."))

    def _do_ye_ussr(self, st, new, c):
        return self._ye(st, c, lambda: ye.ussr_step(st),
                        lambda r: "3.9: СССР " + ("вступает в войну." if r.data["ussr_provinces"] is not None else "— в этом году ничего."),
                        lambda r: "3.9: USSR " + ("enters the war." if r.data["ussr_provinces"] is not None else "— nothing this year."))

    def _do_ye_new_decks(self, st, new, c):
        seed = int(c.get("seed", 0))
        return self._ye(st, c, lambda: ye.new_decks(st, rng=random.Random(seed)),
                        lambda r: "3.10: новые колоды, взято " + ", ".join(f"{side_ru(s)} {n}" for s, n in r.data["drawn"].items()) + ".",
                        lambda r: "3.10: new decks, drawn " + ", ".join(f"{side_en(s)} {n}" for s, n in r.data["drawn"].items()) + ".")

    def _do_ye_advance(self, st, new, c):
        objectives = [p for p in c.get("objectives", []) if p] or None
        return self._ye(st, c, lambda: ye.advance_year(st, objectives),
                        lambda r: (f"3.11: наступает {r.data['year']} год." if "year" in r.data else f"3.11: конец игры по тайным целям — побеждает {side_ru(r.data['winner'])}."),
                        lambda r: (f"3.11: the year {r.data['year']} begins." if "year" in r.data else f"3.11: game over by the objectives — the {side_en(r.data['winner'])} win."))

    def _do_ye_reinforcements(self, st, new, c):
        cards = {}
        for side in SIDES:
            text = str(c.get(side, "") or "").strip()
            rng = random.Random(int(c.get("seed", 0)))
            cards[side] = parse_card_list(text, side, f"{side[:2]}-r{st.year}-{len(st.year_end.get('done', []))}", rng) or []
        return self._ye(st, c, lambda: ye.add_reinforcements(st, cards),
                        lambda r: "3.12: подкрепления в потери: " + ", ".join(f"{side_ru(s)} {len(v)}" for s, v in cards.items()) + ".",
                        lambda r: "3.12: reinforcements into losses: " + ", ".join(f"{side_en(s)} {len(v)}" for s, v in cards.items()) + ".")

    def _do_ye_start_year(self, st, new, c):
        return self._ye(st, c, lambda: ye.start_new_year(st),
                        lambda r: f"Новый год: первым ходит {side_ru(r.data['first'])} (больше карт в колоде).",
                        lambda r: f"New year: the {side_en(r.data['first'])} play first (more cards in the deck).")


RULES = jsongames.register(FogOfWarRules())
