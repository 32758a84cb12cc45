"""The whole QMG table as a value, and the turn stepper as pure functions.

``Table`` holds what the physical table shows: round, active country, phase, pieces, card
counts (deck, hand, discard, statuses face up, responses face down), team VP and the end of
the game. ``apply_command(board, table, command)`` checks a player's entry against the rules
and returns a ``gameplay.common.Outcome``: refused with a reason (nothing changes), or accepted
with the new table (``state``) and the list of *operations* it caused (``changes``).
``apply_ops`` folds operations into a table, so replaying the stored operations of a game's
event log rebuilds its state exactly, as does replaying its commands (``stepper.QmgStepper``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from gameplay.common import Outcome, refused

from . import air
from .board import ALLIES, AXIS, Board
from .cards import default_catalogue
from .effects import INSTEAD_OF_PLAY, card_names
from .reasons import Reason
from .rules import (
    ACTION_TYPES, Action, apply_action, compute_supply, home_occupier, immediate_vp, strait_status,
    sudden_victory, sudden_victory_reason, victory_step,
)
from .state import ARMY, Piece, Position

PHASES = ("play", "air", "supply", "victory", "discard", "draw")  # "air" only with Air Marshal
HAND_SIZE = 7
CARD_TYPES = ("build_army", "build_navy", "land_battle", "sea_battle", "status", "response", "event",
              "economic_warfare", "discard_unused")
BASIC_CARD_ACTION = {"build_army": "build_army", "build_navy": "build_navy",
                     "land_battle": "land_battle", "sea_battle": "sea_battle"}
STEP_TYPES = ACTION_TYPES + ("discard_from_deck", "gain_vp")


@dataclass(frozen=True)
class Options:
    early_victory: bool = False  # a team 30+ VP ahead after the US turn wins
    reallocate: bool = False  # «Перераспределение ресурсов»
    dealt: int = 10  # cards dealt at setup (12 with Air Marshal); 7 are kept
    air_marshal: bool = False  # the Air Marshal expansion: air forces and the air step
    air_limits: tuple[tuple[str, int], ...] = ()  # air forces per country (editable per game)

    def to_dict(self) -> dict:
        return {"early_victory": self.early_victory, "reallocate": self.reallocate, "dealt": self.dealt,
                "air_marshal": self.air_marshal, "air_limits": dict(self.air_limits)}

    @classmethod
    def from_dict(cls, data: dict | None) -> "Options":
        data = data or {}
        return cls(bool(data.get("early_victory", False)), bool(data.get("reallocate", False)),
                   int(data.get("dealt", 10)), bool(data.get("air_marshal", False)),
                   tuple(sorted((str(k), int(v)) for k, v in (data.get("air_limits") or {}).items())))

    def air_limit(self, country: str) -> int:
        return dict(self.air_limits).get(country, 0) if self.air_marshal else 0


@dataclass(frozen=True)
class Cards:
    """Card counts of one country; statuses are face up (card ids or type names)."""

    deck: int
    hand: int
    discard: int
    responses: int = 0
    statuses: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"deck": self.deck, "hand": self.hand, "discard": self.discard, "responses": self.responses,
                "statuses": list(self.statuses)}

    @classmethod
    def from_dict(cls, d: dict) -> "Cards":
        return cls(int(d["deck"]), int(d["hand"]), int(d["discard"]), int(d.get("responses", 0)),
                   tuple(d.get("statuses", ())))


@dataclass(frozen=True)
class Table:
    position: Position
    cards: tuple[tuple[str, Cards], ...]
    round: int = 1
    turn: int = 0  # index into board.turn_order
    phase: str = "play"
    played: str | None = None  # the card type played in this play step
    vp_axis: int = 0
    vp_allies: int = 0
    winner: str | None = None
    end_reason: str | None = None
    options: Options = field(default_factory=Options)
    used: tuple[str, ...] = ()  # cards (and "reallocate") used this turn: once-per-turn limits, turn effects
    window: str | None = None  # the team whose turn it is to use a status/response or pass
    window_passes: int = 0  # passes in a row; two close the window
    attack: dict | None = None  # Air Marshal: the last battle that removed a piece (for air defence/strike)

    # --- queries -----------------------------------------------------------------------------
    def active(self, board: Board) -> str:
        return board.turn_order[self.turn]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def cards_of(self, country: str) -> Cards:
        return dict(self.cards)[country]

    def vp(self, team: str) -> int:
        return self.vp_axis if team == AXIS else self.vp_allies

    # --- serialisation -----------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "position": self.position.to_dict(), "cards": {c: k.to_dict() for c, k in self.cards},
            "round": self.round, "turn": self.turn, "phase": self.phase, "played": self.played,
            "vp": {"axis": self.vp_axis, "allies": self.vp_allies}, "winner": self.winner,
            "end_reason": self.end_reason, "options": self.options.to_dict(), "used": list(self.used),
            "window": self.window, "window_passes": self.window_passes, "attack": self.attack,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Table":
        return cls(
            position=Position.from_dict(d["position"]),
            cards=tuple((c, Cards.from_dict(k)) for c, k in d["cards"].items()),
            round=d["round"], turn=d["turn"], phase=d["phase"], played=d.get("played"),
            vp_axis=d["vp"]["axis"], vp_allies=d["vp"]["allies"], winner=d.get("winner"),
            end_reason=d.get("end_reason"), options=Options.from_dict(d.get("options")),
            used=tuple(d.get("used", ())), window=d.get("window"), window_passes=d.get("window_passes", 0),
            attack=d.get("attack"),
        )


def new_table(board: Board, options: Options | None = None) -> Table:
    """Setup: one army of each country at home; each country dealt ``options.dealt`` cards, keeps 7."""
    options = options or Options()
    pieces = [Piece(c, ARMY, board.countries[c].home) for c in board.turn_order]
    cards = tuple(
        (c, Cards(deck=board.countries[c].deck - options.dealt, hand=HAND_SIZE, discard=options.dealt - HAND_SIZE))
        for c in board.turn_order
    )
    return Table(position=Position.of(pieces), cards=cards, options=options)


# ------------------------------------------------------------------------------------------
# Operations: the smallest changes; an event stores the list it caused
# ------------------------------------------------------------------------------------------

def apply_ops(table: Table, ops: list[dict]) -> Table:
    for op in ops:
        table = _OPS[op["op"]](table, op)
    return table


def _op_place(t, op):
    return replace(t, position=t.position.with_piece(Piece(op["country"], op["kind"], op["space"])))


def _op_remove(t, op):
    return replace(t, position=t.position.without_piece(Piece(op["country"], op["kind"], op["space"])))


def _op_cards(t, op):
    """Set a country's counts to the given values (absolute, so replay cannot drift)."""
    cards = []
    for c, k in t.cards:
        if c == op["country"]:
            k = replace(k, **{f: op[f] for f in ("deck", "hand", "discard", "responses") if f in op},
                        **({"statuses": tuple(op["statuses"])} if "statuses" in op else {}))
        cards.append((c, k))
    t = replace(t, cards=tuple(cards))
    if "statuses" in op:  # the engine applies named statuses in play to supply and scoring
        t = replace(t, position=replace(t.position, statuses=_named_statuses(t.cards)))
    return t


def turn_context(table: Table) -> tuple[str, ...]:
    """Cards used this turn, as the effects engine's context (markers like "reallocate" left out)."""
    cat = default_catalogue()
    return tuple(x for x in table.used if cat.get(x) is not None)


def named_statuses(cards) -> tuple[str, ...]:
    """The named status cards face up on the table (what ``Position.statuses`` holds for the rules)."""
    return _named_statuses(cards)


def _named_statuses(cards) -> tuple[str, ...]:
    known = set(default_catalogue().ids)
    return tuple(s for _, k in cards for s in k.statuses if s in known)


def _op_vp(t, op):
    if op["team"] == AXIS:
        return replace(t, vp_axis=t.vp_axis + op["n"])
    return replace(t, vp_allies=t.vp_allies + op["n"])


def _op_step(t, op):
    new_turn = (op["round"], op["turn"]) != (t.round, t.turn)
    return replace(t, round=op["round"], turn=op["turn"], phase=op["phase"], played=op.get("played"),
                   used=() if new_turn else t.used, attack=None if new_turn else t.attack,
                   window=None if new_turn else t.window, window_passes=0 if new_turn else t.window_passes)


def _op_used(t, op):
    return replace(t, used=t.used + (op["card"],))


def _op_window(t, op):
    return replace(t, window=op.get("team"), window_passes=op.get("passes", 0))


def _op_attack(t, op):
    return replace(t, attack=op.get("attack"))


def _op_end(t, op):
    return replace(t, winner=op["winner"], end_reason=op["reason"])


_OPS = {"place": _op_place, "remove": _op_remove, "cards": _op_cards, "vp": _op_vp, "step": _op_step,
        "end": _op_end, "used": _op_used, "window": _op_window, "attack": _op_attack}


# ------------------------------------------------------------------------------------------
# Commands
# ------------------------------------------------------------------------------------------

class CommandError(ValueError):
    """A command that is malformed (not merely illegal): unknown type, missing field, …"""


def _done(reason: Reason, ops=(), notes=()) -> Outcome:
    """Accepted, with the operations it causes; ``apply_command`` adds the new table as ``state``."""
    return Outcome(True, reason, changes=tuple(ops), notes=tuple(notes))


def _r(code: str, ru: str, en: str) -> Reason:
    return Reason(code, ru, en)


def _refused(code, ru, en) -> Outcome:
    return refused(_r(code, ru, en))


_TEXT_FIELDS = ("country", "space", "from_space", "card_id", "card_type", "action", "target_country", "kind", "name")


def apply_command(board: Board, table: Table, command: dict) -> Outcome:
    """Check one entry of a player and return what it changes (or why it is refused)."""
    if not isinstance(command, dict) or command.get("type") not in _COMMANDS:
        raise CommandError(f"unknown command: {command!r}"[:200])
    if table.finished:
        return _refused("game.over", "Игра окончена: ходы больше не принимаются.",
                        "The game is over: no more moves are accepted.")
    for key in _TEXT_FIELDS:  # ids and names are text; anything else is malformed, not merely illegal
        if command.get(key) is not None and not isinstance(command[key], str):
            raise CommandError(f"'{key}' must be text, got {type(command[key]).__name__}")
    country = command.get("country")
    if country is not None and country not in board.countries:
        raise CommandError(f"unknown country: {country!r}")
    outcome = _COMMANDS[command["type"]](board, table, command)
    if not outcome.ok:
        return outcome
    ops = list(outcome.changes)
    new = apply_ops(table, ops)
    notes = list(outcome.notes)
    # strait changes and sudden victory follow any change of pieces
    if any(op["op"] in ("place", "remove") for op in ops):
        notes += _strait_notes(board, table.position, new.position)
        team = sudden_victory(board, new.position)
        if team is not None:
            end = {"op": "end", "winner": team, "reason": "sudden"}
            ops.append(end)
            new = apply_ops(new, [end])
            notes.append(sudden_victory_reason(board, new.position, team))
    return replace(outcome, changes=tuple(ops), state=new, notes=tuple(notes))


def _need_phase(board, table, command, phase) -> Outcome | None:
    active = table.active(board)
    if command.get("country", active) != active:
        c = board.countries[active]
        return _refused("turn.not_active", f"Сейчас ход страны {c.ru} (правило «Порядок хода»).",
                        f"It is {c.en}'s turn (rule “Turn order”).")
    if table.phase != phase:
        return _refused("turn.wrong_phase", f"Сейчас фаза «{PHASE_NAMES[table.phase][0]}», а не «{PHASE_NAMES[phase][0]}» "
                        "(правило «Фазы хода»).",
                        f"This is the {PHASE_NAMES[table.phase][1]} step, not the {PHASE_NAMES[phase][1]} step "
                        "(rule “Turn phases”).")
    return None


PHASE_NAMES = {
    "air": ("Авиация", "air"),
    "play": ("Розыгрыш карты", "play"), "supply": ("Снабжение", "supply"), "victory": ("Победные очки", "victory"),
    "discard": ("Сброс карт", "discard"), "draw": ("Добор карт", "draw"),
}
CARD_TYPE_NAMES = {
    "build_army": ("Создайте армию", "Build Army"), "build_navy": ("Создайте флот", "Build Navy"),
    "land_battle": ("Атака на суше", "Land Battle"), "sea_battle": ("Атака на море", "Sea Battle"),
    "status": ("Статус", "Status"), "response": ("Ответ", "Response"), "event": ("Событие", "Event"),
    "economic_warfare": ("Экономическая война", "Economic Warfare"),
    "discard_unused": ("Сброс без розыгрыша", "Discard unused"),
    "deploy_air": ("Развёртывание авиации", "Deploy Air Force"),
    "bolster": ("Усиление", "Bolster"),
}


def _advance(table: Table, phase: str, played=None) -> dict:
    return {"op": "step", "round": table.round, "turn": table.turn, "phase": phase, "played": played}


def _cmd_play_card(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    country = table.active(board)
    card_type = cmd.get("card_type")
    if card_type not in CARD_TYPES:
        raise CommandError(f"unknown card type: {card_type!r}")
    if table.played:
        return _refused("play.already", "В этом ходу карта уже сыграна: с руки играют одну карту (правило «Как сыграть карту»).",
                        "A card was already played this turn: one card from hand per turn (rule “Playing a card”).")
    cards = table.cards_of(country)
    if cards.hand <= 0:
        return _refused("play.empty_hand", "На руке нет карт — фаза розыгрыша пропускается, очки не теряются (правило «Карты»).",
                        "The hand is empty — the play step is skipped, nothing is lost (rule “Cards”).")
    ops: list[dict] = []
    notes = []
    named = cmd.get("card_id")
    if named:
        problem = _check_named(board, country, named, card_type)
        if problem:
            return problem
    card_id = named or card_type
    if card_type == "status":
        ops.append({"op": "cards", "country": country, "hand": cards.hand - 1,
                    "statuses": list(cards.statuses) + [card_id]})
    elif card_type == "response":
        ops.append({"op": "cards", "country": country, "hand": cards.hand - 1, "responses": cards.responses + 1})
    else:
        ops.append({"op": "cards", "country": country, "hand": cards.hand - 1, "discard": cards.discard + 1})
    action_type = BASIC_CARD_ACTION.get(card_type)
    ru_name, en_name = CARD_TYPE_NAMES[card_type]
    if named and card_type != "response":  # a face-down response stays anonymous
        ru_name, en_name = card_names(named)
    reason = _r("play.ok", f"Сыграна карта «{ru_name}».", f"Card played: {en_name}.")
    if named and card_type in ("event", "economic_warfare"):
        points, lines = immediate_vp(board, table.position, named, country, context=turn_context(table))
        if points:
            ops.append({"op": "vp", "team": board.team_of(country), "n": points, "country": country,
                        "detail_ru": [ln.reason.ru for ln in lines], "detail_en": [ln.reason.en for ln in lines]})
        notes += [ln.reason for ln in lines]
    if action_type:
        if not cmd.get("space"):
            raise CommandError("a Build or Battle card needs a target space")
        action = _action(board, {**cmd, "type": action_type, "country": country})
        verdict, _ = apply_action(board, table.position, action, context=turn_context(table))
        if not verdict.legal:
            return refused(verdict.reason)
        ops += _piece_ops(verdict, action)
        reason = _r("play.ok", f"Сыграна карта «{ru_name}». {verdict.reason.ru}", f"{en_name} card played. {verdict.reason.en}")
        notes += list(verdict.warnings)
    # the phase stays "play": statuses and responses may still be used, then "end_play";
    # the opponents of the active country answer first
    ops.append(_advance(table, "play", played=card_type))
    ops.append({"op": "window", "team": _other(board.team_of(country)), "passes": 0})
    return _done(reason, tuple(ops), notes=tuple(notes))


def _other(team: str) -> str:
    return ALLIES if team == AXIS else AXIS


def _check_named(board, country, card_id, card_type) -> Outcome | None:
    try:
        card = default_catalogue().get(card_id)
    except KeyError:
        card = None
    if card is None:
        raise CommandError(f"unknown card: {card_id!r}")
    if card.country != country:
        c = board.countries[country]
        return _refused("card.other_deck", f"Карта «{card.name_ru}» не из колоды страны {c.ru} (правило «Карты»).",
                        f"“{card.name_en}” is not in {c.en}'s deck (rule “Cards”).")
    if card.type != card_type:
        raise CommandError(f"card {card_id} is a {card.type}, not a {card_type}")
    return None


def _action(board, cmd) -> Action:
    space = cmd.get("space")
    if space not in board.spaces:
        raise CommandError(f"unknown space: {space!r}")
    target = cmd.get("target_country") or None
    if target is not None and target not in board.countries:
        raise CommandError(f"unknown target country: {target!r}")
    kind = cmd.get("kind") or None
    if kind not in (None, "army", "navy"):
        raise CommandError(f"unknown piece kind: {kind!r}")
    return Action(cmd["type"], cmd["country"], space, target, kind)


def _piece_ops(verdict, action: Action | None = None) -> list[dict]:
    ops = ([{"op": "remove", **p.to_dict()} for p in verdict.removes]
           + [{"op": "place", **p.to_dict()} for p in verdict.places])
    if action is not None and action.type in ("land_battle", "sea_battle") and verdict.removes:
        hit = verdict.removes[0]  # remembered for Air Marshal's air defence and air strike
        ops.append({"op": "attack", "attack": {"space": hit.space, "country": hit.country, "kind": hit.kind,
                                               "attacker": action.country, "defended": False}})
    return ops


def _cmd_step(board, table, cmd) -> Outcome:
    """One step of a played card or of a status/response used now (by any country, each
    validated for that country), or removing one's own piece (any time)."""
    action_type = cmd.get("action")
    if action_type not in STEP_TYPES:
        raise CommandError(f"unknown step: {action_type!r}")
    country = cmd.get("country")
    if country is None:
        raise CommandError("a step needs a country")
    if action_type != "remove" and (table.phase != "play" or not table.played) and "bolster" not in table.used:
        return _refused("step.no_card", "Эти шаги выполняют по тексту карты, сыгранной или использованной в фазе "
                        "розыгрыша, после того как карта сыграна (правило «Как сыграть карту»).",
                        "These steps follow the text of a card played or used in the play step, after the card "
                        "is played (rule “Playing a card”).")
    if action_type == "gain_vp":
        n = _int(cmd.get("n"), -10, 20)
        team = board.team_of(country)
        return _done(_r("step.vp", f"Лагерь получает {n} ПО по карте.", f"The team gains {n} VP from the card."),
                     ({"op": "vp", "team": team, "n": n},))
    if action_type == "discard_from_deck":
        target = cmd.get("target_country")
        if target not in board.countries:
            raise CommandError("discard_from_deck needs a target_country")
        return discard_from_deck(board, table, target, _int(cmd.get("n"), 1, 40))
    action = _action(board, {**cmd, "type": action_type})
    verdict, _ = apply_action(board, table.position, action, context=turn_context(table))
    if not verdict.legal:
        return refused(verdict.reason)
    return _done(verdict.reason, tuple(_piece_ops(verdict, action)), notes=verdict.warnings)


def discard_from_deck(board, table, country, n) -> Outcome:
    """Discard n from the deck; from the hand when the deck runs out; 1 VP per card neither has."""
    k = table.cards_of(country)
    from_deck = min(n, k.deck)
    from_hand = min(n - from_deck, k.hand)
    missing = n - from_deck - from_hand
    ops = [{"op": "cards", "country": country, "deck": k.deck - from_deck, "hand": k.hand - from_hand,
            "discard": k.discard + from_deck + from_hand}]
    c = board.countries[country]
    ru = f"{c.ru} сбрасывает {from_deck} из колоды"
    en = f"{c.en} discards {from_deck} from the deck"
    if from_hand:
        ru += f" и {from_hand} с руки (колода пуста)"
        en += f" and {from_hand} from the hand (the deck is empty)"
    if missing:
        ops.append({"op": "vp", "team": c.team, "n": -missing})
        ru += f"; карт больше нет — лагерь теряет {missing} ПО (правило «Карты»)"
        en += f"; no cards left — the team loses {missing} VP (rule “Cards”)"
    return _done(_r("discard.deck", ru + ".", en + "."), tuple(ops))


def _int(value, lo, hi) -> int:
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise CommandError(f"a whole number is needed, got {value!r}") from None
    if not lo <= n <= hi:
        raise CommandError(f"number out of range {lo}..{hi}: {n}")
    return n


def _cmd_end_play(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    if not table.played and table.cards_of(table.active(board)).hand > 0:
        return _refused("play.must_play", "В фазе розыгрыша нужно сыграть или сбросить одну карту; пропустить можно, "
                        "только если рука пуста (правило «Как сыграть карту»).",
                        "In the play step you must play or discard one card; you may skip only with an empty hand "
                        "(rule “Playing a card”).")
    next_phase = "air" if table.options.air_marshal else "supply"
    return _done(_r("play.end", "Фаза розыгрыша завершена.", "Play step finished."),
                 (_advance(table, next_phase, played=table.played), {"op": "window", "team": None}))


def _cmd_supply(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "supply")
    if problem:
        return problem
    country = table.active(board)
    supply = compute_supply(board, table.position, turn_context(table))
    gone = supply.unsupplied_of(country)
    ops = [{"op": "remove", **p.to_dict()} for p in gone]
    ops.append(_advance(table, "victory"))
    names_ru = ", ".join(f"{board.spaces[p.space].ru}" for p in gone)
    names_en = ", ".join(f"{board.spaces[p.space].en}" for p in gone)
    if gone:
        reason = _r("supply.removed", f"Убраны фишки без снабжения: {names_ru}.", f"Unsupplied pieces removed: {names_en}.")
    else:
        reason = _r("supply.none", "Все фишки снабжаются — убирать нечего.", "Every piece is supplied — nothing to remove.")
    return _done(reason, tuple(ops))


def _cmd_score(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "victory")
    if problem:
        return problem
    country = table.active(board)
    result = victory_step(board, table.position, country, context=turn_context(table))
    team = board.team_of(country)
    ops = []
    if result.points:
        ops.append({"op": "vp", "team": team, "n": result.points, "country": country,
                    "detail_ru": result.detail("ru"), "detail_en": result.detail("en")})
    ops.append(_advance(table, "discard"))
    if result.skipped:
        return _done(result.skip_reason, tuple(ops))
    c = board.countries[country]
    return _done(_r("victory.scored", f"{c.ru}: {result.points} ПО — " + ", ".join(result.detail("ru")),
                    f"{c.en}: {result.points} VP — " + ", ".join(result.detail("en"))), tuple(ops))


def _cmd_discard(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "discard")
    if problem:
        return problem
    country = table.active(board)
    k = table.cards_of(country)
    n = _int(cmd.get("n", 0), 0, 99)
    if n > k.hand:
        return _refused("discard.too_many", f"На руке только {k.hand} карт (правило «Фазы хода»: сброс с руки).",
                        f"Only {k.hand} cards in hand (rule “Turn phases”: discard from hand).")
    ops = []
    if n:
        ops.append({"op": "cards", "country": country, "hand": k.hand - n, "discard": k.discard + n})
    ops.append(_advance(table, "draw"))
    return _done(_r("discard.ok", f"Сброшено с руки: {n}.", f"Discarded from hand: {n}."), tuple(ops))


def _cmd_draw(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "draw")
    if problem:
        return problem
    country = table.active(board)
    k = table.cards_of(country)
    n = draw_count(table, country)
    ops = []
    if n:
        ops.append({"op": "cards", "country": country, "hand": k.hand + n, "deck": k.deck - n})
    ops += _next_turn(board, table)
    ru = f"Взято карт: {n}."
    en = f"Cards drawn: {n}."
    if k.deck < HAND_SIZE - k.hand:
        ru += " Колода закончилась."
        en += " The deck has run out."
    return _done(_r("draw.ok", ru, en), tuple(ops))


def draw_count(table: Table, country: str) -> int:
    """Cards ``country`` takes in its draw step: up to a hand of 7, never more than its deck holds."""
    k = table.cards_of(country)
    return max(0, min(HAND_SIZE - k.hand, k.deck))


def _next_turn(board, table) -> list[dict]:
    if table.turn + 1 < len(board.turn_order):
        return [{"op": "step", "round": table.round, "turn": table.turn + 1, "phase": "play", "played": None}]
    # end of the round, after the US turn: the optional early victory, then the 20-round limit
    diff = table.vp_axis - table.vp_allies
    if table.options.early_victory and abs(diff) >= 30:
        return [{"op": "end", "winner": AXIS if diff > 0 else ALLIES, "reason": "early"}]
    if table.round >= board.rounds:
        return [{"op": "end", "winner": AXIS if diff >= 0 else ALLIES, "reason": "rounds"}]  # a tie goes to the Axis
    return [{"op": "step", "round": table.round + 1, "turn": 0, "phase": "play", "played": None}]


def _cmd_use_card(board, table, cmd) -> Outcome:
    """Use a status (it stays) or reveal a face-down response (it goes to the discard pile)."""
    country = cmd.get("country")
    card_id = cmd.get("card_id")
    try:
        card = default_catalogue().get(card_id) if card_id else None
    except KeyError:
        card = None
    if card is None or card.type not in ("status", "response"):
        raise CommandError(f"not a status or response card: {card_id!r}")
    c = board.countries[country]
    if card.country != country:
        return _refused("card.other_deck", f"Карта «{card.name_ru}» не из колоды страны {c.ru}: чужие карты "
                        "использовать нельзя, если в тексте не сказано иное (правило «Карты союзников»).",
                        f"“{card.name_en}” is not {c.en}'s card: you may not use another country's cards unless "
                        "the text says so (rule “Allies' cards”).")
    k = table.cards_of(country)
    ops: list[dict] = []
    if card.type == "status":
        if card_id not in k.statuses:
            return _refused("use.not_in_play", f"Статуса «{card.name_ru}» нет на столе у страны {c.ru}: статус "
                            "сначала разыгрывают в фазе розыгрыша (правило «Статусы»).",
                            f"{c.en} has no “{card.name_en}” status on the table: a status is first played in the "
                            "play step (rule “Statuses”).")
        if card.once_per_turn and card_id in table.used:
            return _refused("use.once_per_turn", f"«{card.name_ru}» используют только один раз за ход (текст карты).",
                            f"“{card.name_en}” may be used only once per turn (card text).")
        instead = card.timing == INSTEAD_OF_PLAY
        if instead:
            if table.active(board) != country or table.phase != "play" or table.played:
                return _refused("use.instead", f"«{card.name_ru}» используют вместо розыгрыша карты с руки — "
                                "только в вашей фазе розыгрыша, пока карта не сыграна (правило «Статусы»).",
                                f"“{card.name_en}” replaces playing a card from hand — only in your own play step, "
                                "before a card is played (rule “Statuses”).")
            ops.append(_advance(table, "play", played="status_instead"))
        reason = _r("use.status", f"{c.ru} использует статус «{card.name_ru}».", f"{c.en} uses the status “{card.name_en}”.")
    else:
        if k.responses <= 0:
            return _refused("use.no_response", f"У страны {c.ru} нет карт ответа на столе: ответ сначала кладут "
                            "в закрытую в фазе розыгрыша (правило «Ответы»).",
                            f"{c.en} has no face-down response on the table: a response is first played face down "
                            "in the play step (rule “Responses”).")
        ops.append({"op": "cards", "country": country, "responses": k.responses - 1, "discard": k.discard + 1})
        reason = _r("use.response", f"{c.ru} раскрывает ответ «{card.name_ru}» и сбрасывает его.",
                    f"{c.en} reveals the response “{card.name_en}” and discards it.")
    ops.append({"op": "used", "card": card_id})
    if table.window is not None:
        ops.append({"op": "window", "team": _other(board.team_of(country)), "passes": 0})
    return _done(reason, tuple(ops))


def _cmd_pass(board, table, cmd) -> Outcome:
    """The team whose turn it is in the response window uses nothing."""
    team = board.team_of(cmd["country"])
    if table.window is None:
        return _refused("window.closed", "Сейчас никто не ждёт ответа: окно ответов закрыто.",
                        "Nobody is waiting for an answer: the response window is closed.")
    if team != table.window:
        return _refused("window.not_yours", "Сейчас очередь другого лагеря решать, использовать ли статус или ответ "
                        "(правило «Использование карт статусов и ответов»).",
                        "It is the other team's turn to use a status or response or pass (rule “Using statuses "
                        "and responses”).")
    passes = table.window_passes + 1
    if passes >= 2:
        op = {"op": "window", "team": None}
        reason = _r("window.done", "Оба лагеря спасовали подряд — ответы закончены.",
                    "Both teams passed in a row — no more answers.")
    else:
        op = {"op": "window", "team": _other(team), "passes": passes}
        reason = _r("window.pass", "Пас. Очередь другого лагеря.", "Pass. The other team's turn.")
    return _done(reason, (op,))


def _cmd_reallocate(board, table, cmd) -> Outcome:
    """Optional rule: discard 4 from hand to take a Build or Battle card from the deck (shown to all)."""
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    country = table.active(board)
    wanted = cmd.get("card_type")
    allowed = tuple(BASIC_CARD_ACTION) + (("deploy_air",) if table.options.air_marshal else ())
    if wanted not in allowed:
        raise CommandError("reallocate fetches a Build Army, Build Navy, Land Battle or Sea Battle card "
                           "(or Deploy Air Force with Air Marshal)")
    k = table.cards_of(country)
    rule_ru, rule_en = "(необязательное правило «Перераспределение ресурсов»)", "(optional rule “Reallocate Resources”)"
    if not table.options.reallocate:
        return _refused("reallocate.off", f"В этой игре правило не используется {rule_ru}.",
                        f"This game does not use the rule {rule_en}.")
    if table.played or "reallocate" in table.used:
        return _refused("reallocate.when", f"Только раз за ход и в начале фазы розыгрыша, до карты {rule_ru}.",
                        f"Only once per turn, at the start of the play step, before a card {rule_en}.")
    if k.hand < 4 or k.deck < 1:
        return _refused("reallocate.cards", f"Нужно 4 карты на руке и карта в колоде {rule_ru}.",
                        f"You need 4 cards in hand and a card in the deck {rule_en}.")
    ru, en = CARD_TYPE_NAMES[wanted]
    return _done(_r("reallocate.ok", f"Сброшено 4 карты с руки; из колоды взята карта «{ru}» (показана всем), "
                    "колода перемешана.", f"4 cards discarded from hand; a {en} card taken from the deck "
                    "(shown to all), the deck shuffled."),
                 ({"op": "cards", "country": country, "hand": k.hand - 3, "discard": k.discard + 4,
                   "deck": k.deck - 1}, {"op": "used", "card": "reallocate"}))


# ------------------------------------------------------------------------------------------
# Air Marshal
# ------------------------------------------------------------------------------------------

def _need_air(board, table, cmd) -> Outcome | None:
    if not table.options.air_marshal:
        return _refused("air.off", "В этой игре дополнение Air Marshal не используется.",
                        "This game does not use the Air Marshal expansion.")
    return None


def _air_step_problem(board, table, cmd) -> Outcome | None:
    """Deploying or moving: the air step of the active country, one action per step."""
    problem = _need_air(board, table, cmd) or _need_phase(board, table, cmd, "air")
    if problem is None and "air_action" in table.used:
        problem = _refused("air.once", "В фазе авиации — одно действие: разместить или переместить (Air Marshal).",
                           "The air step allows one action: deploy or move (Air Marshal).")
    return problem


def _pay_card(board, table, country) -> list[dict] | Outcome:
    k = table.cards_of(country)
    if k.hand <= 0:
        return _refused("air.no_card", "На руке нет карты, чтобы оплатить это действие (Air Marshal).",
                        "No card in hand to pay for this (Air Marshal).")
    return [{"op": "cards", "country": country, "hand": k.hand - 1, "discard": k.discard + 1}]


def _cmd_deploy_air(board, table, cmd) -> Outcome:
    problem = _air_step_problem(board, table, cmd)
    if problem:
        return problem
    country = table.active(board)
    space = cmd.get("space")
    if space not in board.spaces:
        raise CommandError(f"unknown space: {space!r}")
    verdict = air.deploy_air(board, table.position, country, space, table.options.air_limit(country),
                             compute_supply(board, table.position, turn_context(table)))
    if not verdict.legal:
        return refused(verdict.reason)
    pay = _pay_card(board, table, country)
    if isinstance(pay, Outcome):
        return pay
    return _done(verdict.reason, tuple(pay + _piece_ops(verdict) + [{"op": "used", "card": "air_action"}]))


def _cmd_move_air(board, table, cmd) -> Outcome:
    problem = _air_step_problem(board, table, cmd)
    if problem:
        return problem
    country = table.active(board)
    src, dst = cmd.get("from_space"), cmd.get("space")
    if src not in board.spaces or dst not in board.spaces:
        raise CommandError("move_air needs from_space and space")
    verdict = air.move_air(board, table.position, country, src, dst, compute_supply(board, table.position, turn_context(table)))
    if not verdict.legal:
        return refused(verdict.reason)
    pay = _pay_card(board, table, country)
    if isinstance(pay, Outcome):
        return pay
    reason = _r(verdict.reason.code, verdict.reason.ru + " Сброшена одна карта с руки.",
                verdict.reason.en + " One card discarded from hand.")
    return _done(reason, tuple(pay + _piece_ops(verdict) + [{"op": "used", "card": "air_action"}]))


def _cmd_end_air(board, table, cmd) -> Outcome:
    problem = _need_air(board, table, cmd) or _need_phase(board, table, cmd, "air")
    if problem:
        return problem
    return _done(_r("air.end", "Фаза авиации завершена.", "Air step finished."), (_advance(table, "supply"),))


def _cmd_air_retreat(board, table, cmd) -> Outcome:
    problem = _need_air(board, table, cmd)
    if problem:
        return problem
    src, dst = cmd.get("from_space"), cmd.get("space") or None
    if src not in board.spaces or (dst is not None and dst not in board.spaces):
        raise CommandError("air_retreat needs from_space (and space, unless the air force is removed)")
    verdict = air.air_retreat(board, table.position, cmd["country"], src, dst,
                              compute_supply(board, table.position, turn_context(table)))
    if not verdict.legal:
        return refused(verdict.reason)
    return _done(verdict.reason, tuple(_piece_ops(verdict)))


def _cmd_air_defence(board, table, cmd) -> Outcome:
    problem = _need_air(board, table, cmd)
    if problem:
        return problem
    hit = table.attack
    if not hit or hit["defended"] or hit["country"] != cmd["country"]:
        return _refused("air.defence_when", "Авиазащита — сразу после атаки на вашу армию или флот (не уничтожения) "
                        "(Air Marshal: авиазащита).", "Air defence is used right after your army or navy is "
                        "attacked (not eliminated) (Air Marshal: air defence).")
    attacked = Piece(hit["country"], hit["kind"], hit["space"])
    verdict = air.air_defence(board, table.position, attacked)
    if not verdict.legal:
        return refused(verdict.reason)
    return _done(verdict.reason, tuple(_piece_ops(verdict) + [
        {"op": "attack", "attack": {**hit, "defended": True}}]))


def _cmd_air_strike(board, table, cmd) -> Outcome:
    problem = _need_air(board, table, cmd)
    if problem:
        return problem
    hit = table.attack
    if not hit or not hit["defended"] or hit["attacker"] != cmd["country"]:
        return _refused("air.strike_when", "Авианалёт — только в ответ на авиазащиту против вашей атаки "
                        "(Air Marshal: авианалёт).", "An air strike answers an air defence against your attack "
                        "(Air Marshal: air strike).")
    src = cmd.get("from_space")
    if src not in board.spaces:
        raise CommandError("air_strike needs from_space")
    attacked = Piece(hit["country"], hit["kind"], hit["space"])
    verdict = air.air_strike(board, table.position, cmd["country"], src, attacked,
                             strait_status(board, table.position))
    if not verdict.legal:
        return refused(verdict.reason)
    return _done(verdict.reason, tuple(_piece_ops(verdict) + [{"op": "attack", "attack": None}]))


def _cmd_bolster(board, table, cmd) -> Outcome:
    """A bolster card is played straight from hand when its text says, any number per turn; its
    effects are then entered as validated steps. The app does not know the expansion's card texts."""
    problem = _need_air(board, table, cmd)
    if problem:
        return problem
    country = cmd["country"]
    name = str(cmd.get("name") or "").strip()[:80]
    if not name:
        raise CommandError("a bolster card needs the name the player reads on it")
    pay = _pay_card(board, table, country)
    if isinstance(pay, Outcome):
        return pay
    c = board.countries[country]
    return _done(_r("bolster.ok", f"{c.ru} играет с руки карту усиления «{name}»; её действия — шагами ниже.",
                    f"{c.en} plays the bolster card “{name}” from hand; enter its effects as steps."),
                 tuple(pay + [{"op": "used", "card": "bolster"}]))


_COMMANDS = {
    "play_card": _cmd_play_card, "step": _cmd_step, "end_play": _cmd_end_play, "supply": _cmd_supply,
    "score": _cmd_score, "discard": _cmd_discard, "draw": _cmd_draw, "use_card": _cmd_use_card,
    "pass": _cmd_pass, "reallocate": _cmd_reallocate, "deploy_air": _cmd_deploy_air, "move_air": _cmd_move_air,
    "end_air": _cmd_end_air, "air_retreat": _cmd_air_retreat, "air_defence": _cmd_air_defence,
    "air_strike": _cmd_air_strike, "bolster": _cmd_bolster,
}
COMMAND_TYPES = tuple(_COMMANDS)


def _strait_notes(board, before: Position, after: Position) -> list[Reason]:
    old, new = strait_status(board, before), strait_status(board, after)
    notes = []
    for sid, team in new.items():
        if old[sid] != team:
            s = board.straits[sid]
            a, b = (board.spaces[x] for x in s.seas)
            closed_ru, open_ru = ("коалиции", "«оси»") if team == AXIS else ("«оси»", "коалиции")
            closed_en, open_en = ("Allies", "Axis") if team == AXIS else ("Axis", "Allies")
            notes.append(_r("reminder.strait", f"Пролив «{s.ru}» теперь открыт для {open_ru}: для {closed_ru} моря "
                            f"«{a.ru}» и «{b.ru}» больше не соседние.",
                            f"The {s.en} strait is now open for the {open_en}: for the {closed_en}, {a.en} and "
                            f"{b.en} are no longer adjacent."))
    return notes


# ------------------------------------------------------------------------------------------
# Reminders of rules people forget, for the current moment
# ------------------------------------------------------------------------------------------

def reminders(board: Board, table: Table, supply=None) -> list[Reason]:
    if table.finished:
        return []
    out = []
    country = table.active(board)
    c = board.countries[country]
    supply = supply or compute_supply(board, table.position, turn_context(table))
    k = table.cards_of(country)
    if table.phase == "play" and k.hand == 0 and not table.played:
        out.append(_r("reminder.empty_hand", "Рука пуста: пропустите фазу розыгрыша — это ничего не стоит.",
                      "The hand is empty: skip the play step — it costs nothing."))
    if table.phase in ("play", "supply"):
        gone = supply.unsupplied_of(country)
        if gone:
            where_ru = ", ".join(board.spaces[p.space].ru for p in gone)
            where_en = ", ".join(board.spaces[p.space].en for p in gone)
            out.append(_r("reminder.unsupplied", f"Без снабжения ({where_ru}): эти фишки уйдут в фазе снабжения страны {c.ru}.",
                          f"Unsupplied ({where_en}): these pieces leave in {c.en}'s supply step."))
        for p in supply.pieces:
            if p.country == country and supply.pieces[p].code == "supply.navy_condition":
                sp = board.spaces[p.space]
                out.append(_r("reminder.navy", f"У флота в «{sp.ru}» нет армии вашего лагеря на соседней суше.",
                              f"The navy in {sp.en} has no army of its team on adjacent land."))
    if table.phase in ("play", "supply", "victory"):
        occ = home_occupier(board, table.position, country)
        if occ is not None:
            out.append(_r("reminder.home", f"Домашний сектор страны {c.ru} занят противником: в этом ходу очков нет, "
                          "даже за карты.", f"{c.en}'s home space is held by the enemy: no VP this turn, "
                          "not even from cards."))
    if table.options.air_marshal:
        for p in supply.stranded_air():
            sp = board.spaces[p.space]
            oc = board.countries[p.country]
            out.append(_r("reminder.air_retreat", f"Авиация страны {oc.ru} в «{sp.ru}» осталась без армии и флота: "
                          "она сразу перелетает в соседний сектор с ними или уходит с поля.",
                          f"{oc.en}'s air force in {sp.en} has no army or navy with it: it moves at once to an "
                          "adjacent space with one, or leaves the board."))
        hit = table.attack
        if hit and not hit["defended"] and Piece(hit["country"], "air", hit["space"]) in table.position.pieces:
            out.append(_r("reminder.air_defence", "Атакована фишка, рядом с которой её авиация: защитник может "
                          "применить авиазащиту (убрать авиацию вместо фишки).",
                          "An attacked piece has its air force with it: the defender may use air defence "
                          "(remove the air force instead)."))
        elif hit and hit["defended"]:
            out.append(_r("reminder.air_strike", "Защитник применил авиазащиту: атакующий может ответить авианалётом "
                          "авиацией из соседнего сектора.", "The defender used air defence: the attacker may answer "
                          "with an air strike from an adjacent space."))
        if table.phase == "air":
            out.append(_r("reminder.air_cost", "Фаза авиации: размещение требует карты «Развёртывание авиации», "
                          "перемещение стоит любой карты с руки.", "Air step: deploying needs a Deploy Air Force "
                          "card; moving costs any card from your hand."))
    if k.deck == 0:
        out.append(_r("reminder.deck_empty", "Колода пуста: сбросы из колоды теперь идут с руки, а без карт стоят ПО.",
                      "The deck is empty: discards from the deck now come from the hand, and without cards they cost VP."))
    out.append(_r("reminder.remove_own", "Свою фишку можно убрать с поля в любой момент, даже в чужой ход.",
                  "You may remove your own piece at any time, even in another country's turn."))
    return out
