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

from . import air, program
from .board import ALLIES, AXIS, Board
from .cards import default_catalogue
from .effects import INSTEAD_OF_PLAY, card_names, condition_holds, describe_condition
from .reasons import Reason
from .rules import (
    ACTION_TYPES, Action, apply_action, compute_supply, home_occupier, immediate_vp, strait_status,
    sudden_victory, sudden_victory_reason, victory_step,
)
from .state import ARMY, NAVY, Piece, Position

PHASES = ("play", "air", "supply", "victory", "discard", "draw")  # "air" only with Air Marshal
HAND_SIZE = 7
MAX_DECK = 80  # the most cards a national deck may be given (Options.decks)
# the card engine's rules level (Options.card_rules): 2 — the games created before guided to_deck costs,
# every play_from choice, Malta Submarines' own choice and air defence against a held battle (they replay by
# those rules exactly); 3 — the games created before issue 22 (a protect condition naming the protected
# piece's space never met, "when you battle a sea/land space" only right after the last battle, a printed
# play condition only limiting the effects); 4 — today's rules
CARD_RULES = 4
CARD_TYPES = ("build_army", "build_navy", "land_battle", "sea_battle", "status", "response", "event",
              "economic_warfare", "discard_unused", "bombing")  # bombing: Air Marshal only
BASIC_CARD_ACTION = {"build_army": "build_army", "build_navy": "build_navy",
                     "land_battle": "land_battle", "sea_battle": "sea_battle"}
STEP_TYPES = ACTION_TYPES + ("discard_from_deck", "gain_vp", "protect", "discard_status", "discard_response",
                             "play_from", "to_deck")
FREE_STEP_TYPES = ACTION_TYPES + ("discard_from_deck", "gain_vp")  # what an unnamed card's steps may enter


@dataclass(frozen=True)
class Options:
    early_victory: bool = False  # a team 30+ VP ahead after the US turn wins
    reallocate: bool = False  # «Перераспределение ресурсов»
    dealt: int = 10  # cards dealt at setup (12 with Air Marshal); 7 are kept
    air_marshal: bool = False  # the Air Marshal expansion: air forces and the air step
    air_limits: tuple[tuple[str, int], ...] = ()  # air forces per country (editable per game)
    prepare_for_war: bool = False  # 001's optional «Подготовка к войне»: one status or response each before round 1
    # cards per national deck when the club's decks differ from the board's (the Air Marshal expansion adds
    # cards the seeds do not count): (country, size) pairs; empty = the board's own sizes
    decks: tuple[tuple[str, int], ...] = ()
    card_rules: int = CARD_RULES  # the card engine's rules level (CARD_RULES; 2: a game stored before it)

    def __post_init__(self):
        for country, size in self.decks:
            if isinstance(size, bool) or not isinstance(size, int) or not HAND_SIZE + self.dealt <= size <= MAX_DECK:
                raise ValueError(f"deck size of {country} must be a whole number {HAND_SIZE + self.dealt}..{MAX_DECK}")

    def to_dict(self) -> dict:
        return {"early_victory": self.early_victory, "reallocate": self.reallocate, "dealt": self.dealt,
                "air_marshal": self.air_marshal, "air_limits": dict(self.air_limits),
                **({"prepare_for_war": True} if self.prepare_for_war else {}),
                **({"decks": dict(self.decks)} if self.decks else {}),
                **({"card_rules": self.card_rules} if self.card_rules != CARD_RULES else {})}

    @classmethod
    def from_dict(cls, data: dict | None) -> "Options":
        data = data or {}
        return cls(bool(data.get("early_victory", False)), bool(data.get("reallocate", False)),
                   int(data.get("dealt", 10)), bool(data.get("air_marshal", False)),
                   tuple(sorted((str(k), int(v)) for k, v in (data.get("air_limits") or {}).items())),
                   bool(data.get("prepare_for_war", False)),
                   tuple(sorted((str(k), int(v)) for k, v in (data.get("decks") or {}).items())),
                   int(data.get("card_rules", CARD_RULES)))

    def at_least(self, level: int) -> bool:
        """Is the game played by card rules ``level`` or later (a stored game keeps the level it was created with)?"""
        return self.card_rules >= level

    @property
    def new_card_rules(self) -> bool:
        """Today's card rules (level 3+): False for a game stored by the rules before them (level 2)."""
        return self.card_rules >= 3

    def air_limit(self, country: str) -> int:
        return dict(self.air_limits).get(country, 0) if self.air_marshal else 0

    def deck_size(self, board: Board, country: str) -> int:
        """Cards in ``country``'s whole deck: the club's own count when given (7 + dealt .. 80), else the board's."""
        return dict(self.decks).get(country, board.countries[country].deck)


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
    # the card engine (gameplay/qmg/program.py): open steps of the card resolving now, a removal that
    # waits for the response window, pieces a card protects this turn, the last action a card may
    # answer, and the named cards gone to a discard pile (copies per deck)
    pending: tuple[dict, ...] = ()
    hold: dict | None = None
    protected: tuple[dict, ...] = ()
    last: dict | None = None
    gone: tuple[str, ...] = ()

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
            **self.engine_dict(),
        }

    def engine_dict(self) -> dict:
        """The card engine's part of the table (kept next to the mirror models as JSON)."""
        return {"pending": [dict(s) for s in self.pending], "hold": self.hold,
                "protected": [dict(p) for p in self.protected], "last": self.last, "gone": list(self.gone)}

    def with_engine(self, d: dict | None) -> "Table":
        d = d or {}
        return replace(self, pending=tuple(d.get("pending") or ()), hold=d.get("hold"),
                       protected=tuple(d.get("protected") or ()), last=d.get("last"),
                       gone=tuple(d.get("gone") or ()))

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
        ).with_engine(d)


def new_table(board: Board, options: Options | None = None) -> Table:
    """Setup: one army of each country at home; each country dealt ``options.dealt`` cards, keeps 7."""
    options = options or Options()
    pieces = [Piece(c, ARMY, board.countries[c].home) for c in board.turn_order]
    cards = tuple(
        (c, Cards(deck=options.deck_size(board, c) - options.dealt, hand=HAND_SIZE, discard=options.dealt - HAND_SIZE))
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
    t = replace(t, round=op["round"], turn=op["turn"], phase=op["phase"], played=op.get("played"),
                used=() if new_turn else t.used, attack=None if new_turn else t.attack,
                window=None if new_turn else t.window, window_passes=0 if new_turn else t.window_passes)
    if new_turn:
        t = replace(t, pending=(), hold=None, protected=(), last=None)
    return t


def _op_pending(t, op):
    return replace(t, pending=tuple(op.get("steps") or ()))


def _op_hold(t, op):
    return replace(t, hold=op.get("hold"))


def _op_protect(t, op):
    return replace(t, protected=t.protected + (dict(op["piece"]),))


def _op_last(t, op):
    return replace(t, last=op.get("last"))


def _op_gone(t, op):
    """A named card to a discard pile, or (``back``) one copy taken back out of it."""
    if op.get("back"):
        gone = list(t.gone)
        if op["card"] in gone:
            gone.remove(op["card"])
        return replace(t, gone=tuple(gone))
    return replace(t, gone=t.gone + (op["card"],))


def _op_used(t, op):
    return replace(t, used=t.used + (op["card"],))


def _op_window(t, op):
    return replace(t, window=op.get("team"), window_passes=op.get("passes", 0))


def _op_attack(t, op):
    return replace(t, attack=op.get("attack"))


def _op_end(t, op):
    return replace(t, winner=op["winner"], end_reason=op["reason"])


_OPS = {"place": _op_place, "remove": _op_remove, "cards": _op_cards, "vp": _op_vp, "step": _op_step,
        "end": _op_end, "used": _op_used, "window": _op_window, "attack": _op_attack, "pending": _op_pending,
        "hold": _op_hold, "protect": _op_protect, "last": _op_last, "gone": _op_gone}


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


def apply_command(board: Board, table: Table, command: dict, legacy: bool = False) -> Outcome:
    """Check one entry of a player and return what it changes (or why it is refused).

    ``legacy``: the rules of games stored before the card engine (free card steps, the window closed
    by ``end_play``): used only to replay such a game's log (``stepper.QmgStepper.replay``)."""
    if not isinstance(command, dict) or not isinstance(command.get("type"), str) or command["type"] not in _COMMANDS:
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
    outcome = _COMMANDS[command["type"]](board, table, {**command, "_legacy": True} if legacy else command)
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
    "bombing": ("Бомбардировка", "Bombing"),
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
    if card_type == "bombing" and not table.options.air_marshal:
        return _refused("air.off", "Карты «Бомбардировка» есть только в дополнении Air Marshal, а в этой игре его нет.",
                        "Bombing cards belong to the Air Marshal expansion, which this game does not use.")
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
    card = default_catalogue().get(named) if named else None
    if card is not None and not cmd.get("_legacy") and _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    if card is not None and not cmd.get("_legacy"):
        problem = play_condition_refusal(board, table, card, country)
        if problem:
            return problem
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
        if cmd.get("_legacy"):
            ops += _piece_ops(verdict, action)
        elif action_type in ("land_battle", "sea_battle"):
            if verdict.removes and _is_protected(table, verdict.removes[0]):
                return _protected_refusal(board, verdict.removes[0])
            ops += _battle_ops(board, table, verdict, action)  # the attack remembered, held or not
            if not table.options.new_card_rules:  # card rules 2: a held battle forgot the attack
                if any(op["op"] == "hold" for op in ops):
                    ops.append({"op": "attack", "attack": None})
                else:
                    ops += [op for op in _piece_ops(verdict, action) if op["op"] == "attack"]
        else:
            ops += [op for op in _place_ops(board, table, verdict, "build", country) if op["op"] != "window"]
        # the log is everyone's: it says what happened, in the third person; the verdict addressed to
        # the player ("your supplied army…") is a note for the phone that tapped
        moved_ru, moved_en = pieces_moved(board, verdict)
        if any(op["op"] == "hold" for op in ops):  # the removal waits for the defender's answer
            r, e = piece_names(board, verdict.removes)
            moved_ru = f" — под ударом: {r}; удаление ждёт ответа противника"
            moved_en = f" — under attack: {e}; the removal waits for the opponents' answer"
        c = board.countries[country]
        reason = _r("play.ok", f"{c.ru}: сыграна карта «{ru_name}»{moved_ru}.", f"{c.en}: {en_name} card played{moved_en}.")
        held_now = any(op["op"] == "hold" for op in ops)
        notes += [_held_note(board, verdict) if held_now else verdict.reason, *verdict.warnings]
    # the phase stays "play": statuses and responses may still be used, then "end_play";
    # the opponents of the active country answer first
    ops.append(_advance(table, "play", played=card_type))
    held = next((op["hold"] for op in ops if op["op"] == "hold"), None)
    # the opponents of the active country answer first (the defender, when a removal is held)
    ops.append({"op": "window", "team": board.team_of(held["piece"]["country"]) if held
                else _other(board.team_of(country)), "passes": 0})
    if cmd.get("_legacy"):
        return _done(reason, tuple(ops), notes=tuple(notes))
    if card is not None and card_type in ("event", "economic_warfare"):
        ops.append({"op": "gone", "card": card.id})  # discarded before its text takes effect
        ops.append({"op": "used", "card": card.id})  # this turn's card is known: no free steps
        if card_type == "economic_warfare":
            ops.append({"op": "last", "last": {"by": country, "ew": card.id}})
        after = apply_ops(table, ops)
        more, more_notes = run_pending(board, after, program.compile_card(
            board, after.position, card, country, after.last, alternatives=table.options.new_card_rules,
            per_piece=table.options.at_least(4)))
        ops += more
        notes += more_notes
    else:  # an unnamed event is entered by hand, each board action checked (``_unnamed_play``)
        ops.append({"op": "pending", "steps": []})
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


def play_condition_refusal(board, table, card, country) -> Outcome | None:
    """A card whose printed play condition («можно сыграть, только если…», ``play_requires``) is not met is
    refused: nothing is discarded and the card stays in hand (it may still be discarded unused). Card rules
    ≤3: no such check (the condition only limited the card's effects)."""
    cond = card.play_requires
    if cond is None or not table.options.at_least(4):
        return None
    supply = compute_supply(board, table.position, turn_context(table))
    if condition_holds(board, table.position.pieces, cond, country, supply):
        return None
    need_ru, need_en = describe_condition(board, cond, country)
    return _refused("play.condition", f"«{card.name_ru}» можно сыграть, только если выполнено условие карты: "
                    f"{need_ru}; сейчас это не так — карта остаётся на руке (текст карты; {RULE_PLAY_RU}).",
                    f"“{card.name_en}” may be played only when its condition holds: it {need_en}; it does not "
                    f"now — the card stays in hand (card text; {RULE_PLAY_EN}).")


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


PIECE_RU = {"army": "армия", "navy": "флот", "air": "авиация"}


def piece_names(board, pieces) -> tuple[str, str]:
    """Pieces named for everyone's log: kind, whose, where (no case to agree: the country in brackets)."""
    ru = ", ".join(f"{PIECE_RU.get(p.kind, p.kind)} ({board.countries[p.country].ru}) в секторе «{board.spaces[p.space].ru}»"
                   for p in pieces)
    en = ", ".join(f"{board.countries[p.country].en} {p.kind} in {board.spaces[p.space].en}" for p in pieces)
    return ru, en


def pieces_moved(board, verdict) -> tuple[str, str]:
    """" — removed: …; placed: …" for a log line (empty when the action moved nothing)."""
    ru, en = "", ""
    if verdict.removes:
        r, e = piece_names(board, verdict.removes)
        ru, en = ru + f" — убрана: {r}", en + f" — removed: {e}"
    if verdict.places:
        r, e = piece_names(board, verdict.places)
        ru, en = ru + f" — поставлена: {r}", en + f" — placed: {e}"
    return ru, en


def _piece_ops(verdict, action: Action | None = None) -> list[dict]:
    ops = ([{"op": "remove", **p.to_dict()} for p in verdict.removes]
           + [{"op": "place", **p.to_dict()} for p in verdict.places])
    if action is not None and action.type in ("land_battle", "sea_battle") and verdict.removes:
        hit = verdict.removes[0]  # remembered for Air Marshal's air defence and air strike
        ops.append({"op": "attack", "attack": {"space": hit.space, "country": hit.country, "kind": hit.kind,
                                               "attacker": action.country, "defended": False}})
    return ops


def _legacy_step(board, table, cmd) -> Outcome:
    """The old, free step (games stored before the card engine, and a card's guided manual step):
    one board action validated by the generic rules only, or removing one's own piece (any time)."""
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
    if action_type not in FREE_STEP_TYPES:
        return _refused("step.not_free", "Этот шаг делают только по тексту названной карты, когда движок его "
                        "предлагает; здесь вводят лишь действия на поле, сброс из колоды и ПО (правило «Как "
                        "сыграть карту»).", "This step is made only by a named card's text, when the engine offers "
                        "it; here only board actions, discards from a deck and VP are entered (rule “Playing a "
                        "card”).")
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
    return _done(_step_summary(board, action, verdict), tuple(_piece_ops(verdict, action)),
                 notes=(verdict.reason, *verdict.warnings))


STEP_WORDS = {
    "build_army": ("создание армии", "build army"), "build_navy": ("создание флота", "build navy"),
    "recruit_army": ("найм армии", "recruit army"), "recruit_navy": ("найм флота", "recruit navy"),
    "land_battle": ("атака на суше", "land battle"), "sea_battle": ("атака на море", "sea battle"),
    "eliminate": ("уничтожение", "eliminate"), "remove": ("своя фишка снята с поля", "own piece removed"),
}


def _step_summary(board, action: Action, verdict) -> Reason:
    """A step for everyone's log, in the third person (the verdict to the player is a note)."""
    c = board.countries[action.country]
    ru, en = STEP_WORDS.get(action.type, (action.type, action.type))
    moved_ru, moved_en = pieces_moved(board, verdict)
    return _r(verdict.reason.code, f"{c.ru}: {ru}{moved_ru}.", f"{c.en}: {en}{moved_en}.")


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


def _legacy_end_play(board, table, cmd) -> Outcome:
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
    names_ru, names_en = piece_names(board, gone)
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


def _legacy_use_card(board, table, cmd) -> Outcome:
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


def _legacy_pass(board, table, cmd) -> Outcome:
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
    """In the air step (one action), or — per 001, a move is also a response action — in the response
    window when it is the mover's team's turn (any country of that team, for its own air force)."""
    country = cmd.get("country") or table.active(board)
    as_response = (table.options.air_marshal and table.window is not None
                   and table.window == board.team_of(country) and not cmd.get("_legacy"))
    if not as_response:
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
    if as_response:  # a response action: the other team's turn to answer
        return _done(reason, tuple(pay + _piece_ops(verdict) + [
            {"op": "window", "team": _other(board.team_of(country)), "passes": 0}]))
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
    # card rules 2: a held battle was not remembered, so air defence knew nothing of its removal
    held = table.options.new_card_rules and bool(table.hold) and table.hold["piece"] == attacked.to_dict()
    if table.options.new_card_rules and not held and attacked in table.position.pieces:
        return _refused("air.defence_kept", "Атакованная фишка осталась на поле (её защитила карта) — авиазащита "
                        "не нужна (Air Marshal: авиазащита).", "The attacked piece is still on the board (a card "
                        "protected it) — there is nothing for air defence to save (Air Marshal: air defence).")
    verdict = air.air_defence(board, table.position, attacked)
    if not verdict.legal:
        return refused(verdict.reason)
    ops = _piece_ops(verdict) + [{"op": "attack", "attack": {**hit, "defended": True}}]
    if held:  # the removal waiting for the response window is answered: the air force goes instead
        ops = [op for op in ops if op["op"] != "place"] + [{"op": "hold", "hold": None}]
        if table.window is not None:  # a response action: the attacker's team may answer (air strike)
            ops.append({"op": "window", "team": _other(board.team_of(attacked.country)), "passes": 0})
    return _done(verdict.reason, tuple(ops))


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


# ------------------------------------------------------------------------------------------
# The card engine: a played or used card's steps, one at a time (gameplay/qmg/program.py)
# ------------------------------------------------------------------------------------------

RULE_PLAY_RU, RULE_PLAY_EN = "правило «Как сыграть карту»", "rule “Playing a card”"
RULE_USE_RU, RULE_USE_EN = "правило «Использование карт статусов и ответов»", "rule “Using statuses and responses”"


def _card_title(card_id: str | None) -> tuple[str, str]:
    card = default_catalogue().get(card_id or "")
    if card is not None:
        return card.name_ru, card.name_en
    if card_id in CARD_TYPE_NAMES:
        return CARD_TYPE_NAMES[card_id]
    return ("карта", "card")


def _answerable(board, table, team: str) -> bool:
    """Does ``team`` hold something that may answer now (a face-down response)?"""
    return any(k.responses > 0 for c, k in table.cards if board.team_of(c) == team)


def _protects_now(board, table, piece: Piece) -> bool:
    """A status in play of the piece's owner that may save it from this removal (e.g. «Радар»)."""
    cat = default_catalogue()
    for sid in table.cards_of(piece.country).statuses:
        card = cat.get(sid)
        if card is not None and card.timing == "when_your_navy_would_be_removed" and piece.kind == NAVY:
            return True
    return False


def _is_protected(table, piece: Piece) -> bool:
    return {"country": piece.country, "kind": piece.kind, "space": piece.space} in [dict(p) for p in table.protected]


def _protected_refusal(board, piece: Piece) -> Outcome:
    c, sp = board.countries[piece.country], board.spaces[piece.space]
    return _refused("card.protected", f"Фишку страны {c.ru} в «{sp.ru}» в этом ходу убрать нельзя: её защищает "
                    "сыгранная карта (текст карты: «в этом ходу не убирайте»).",
                    f"{c.en}'s piece in {sp.en} cannot be removed this turn: a card protects it (card text: "
                    "“do not remove … this turn”).")


def _battle_ops(board, table, verdict, action: Action) -> list[dict]:
    """A battle's removal, or — when the defender's team could answer it — the removal held until the
    response window is resolved; the last battle remembered for the cards that answer it."""
    ops: list[dict] = []
    hit = verdict.removes[0] if verdict.removes else None
    last = {"battled": action.space, "domain": "land" if action.type == "land_battle" else "sea",
            "by": action.country, "hit": hit.to_dict() if hit else None}
    if table.options.at_least(4):  # every battle of this turn's card and its follow-ups (``battle_context``)
        last["battles"] = [*((table.last or {}).get("battles") or ()),
                           {"space": action.space, "domain": last["domain"], "by": action.country}][-MAX_BATTLES:]
    if hit is not None and (_answerable(board, table, board.team_of(hit.country)) or _protects_now(board, table, hit)):
        ops.append({"op": "hold", "hold": {"piece": hit.to_dict(), "by": action.country}})
        ops.append({"op": "window", "team": board.team_of(hit.country), "passes": 0})
        # the attack is remembered as when the piece is removed at once: Air Marshal's air defence may answer
        # it while the removal waits (and the attacker's air strike may answer that); card rules 2: not
        if table.options.new_card_rules:
            ops += [op for op in _piece_ops(verdict, action) if op["op"] == "attack"]
    else:
        ops += _piece_ops(verdict, action)
        if hit is not None:
            last["removed"] = hit.to_dict()
    ops.append({"op": "last", "last": last})
    return ops


def _held_note(board, verdict) -> Reason:
    """The battle's note when its removal waits for the response window (the piece is not removed yet)."""
    r, e = piece_names(board, verdict.removes)
    return _r("battle.held_note", f"Атака разрешена: под ударом {r}. Фишка пока на поле — удаление ждёт окна "
              f"ответов: противник может сыграть ответ или спасовать ({RULE_USE_RU}).",
              f"The battle is legal: {e} is under attack. The piece stays for now — its removal waits for the "
              f"response window: the opponents may answer or pass ({RULE_USE_EN}).")


def _attack_over(table) -> list[dict]:
    """A held removal cancelled by a card: the attacked piece stays, so air defence has nothing to answer."""
    hit, held = table.attack or {}, (table.hold or {}).get("piece") or {}
    if table.options.new_card_rules and hit and all(hit.get(k) == held.get(k) for k in ("country", "kind", "space")):
        return [{"op": "attack", "attack": None}]
    return []


def _place_ops(board, table, verdict, how: str, by: str) -> list[dict]:
    ops = _piece_ops(verdict)
    if verdict.places:
        p = verdict.places[0]
        ops.append({"op": "last", "last": {**(table.last or {}), "placed": {**p.to_dict(), "how": how}, "by": by}})
        other = _other(board.team_of(p.country))
        if _answerable(board, table, other):
            ops.append({"op": "window", "team": other, "passes": 0})
    return ops


def _choice_ops(board, table, step: dict, cand: dict) -> tuple[list[dict], list[Reason], Reason] | Outcome:
    """Apply one legal choice of ``step``: (operations, notes, reason) or a refusal."""
    kind = step["kind"]
    ctx = turn_context(table)
    if kind in ("build", "recruit"):
        action = Action(cand["action"], cand["country"], cand["space"])
        verdict, _ = apply_action(board, table.position, action, context=ctx)
        if not verdict.legal:
            return refused(verdict.reason)
        return _place_ops(board, table, verdict, kind, step["by"]), list(verdict.warnings), verdict.reason
    if kind == "battle":
        action = Action(cand["action"], step["by"], cand["space"], step.get("target_country"))
        verdict, _ = apply_action(board, table.position, action, context=ctx)
        if not verdict.legal:
            return refused(verdict.reason)
        if verdict.removes and _is_protected(table, verdict.removes[0]):
            return _protected_refusal(board, verdict.removes[0])
        ops = _battle_ops(board, table, verdict, action)
        if any(op["op"] == "hold" for op in ops):
            r, e = piece_names(board, verdict.removes)
            return ops, [_held_note(board, verdict), *verdict.warnings], _r(
                "battle.held", f"Атака: под ударом {r}; удаление ждёт ответа противника ({RULE_USE_RU}).",
                f"Battle: {e} is under attack; the removal waits for the opponents' answer ({RULE_USE_EN}).")
        return ops, list(verdict.warnings), verdict.reason
    if kind == "eliminate":
        piece = Piece(cand["country"], cand["kind"], cand["space"])
        if _is_protected(table, piece):
            return _protected_refusal(board, piece)
        c, sp = board.countries[piece.country], board.spaces[piece.space]
        last = {**(table.last or {}), "removed": piece.to_dict()}
        return ([{"op": "remove", **piece.to_dict()}, {"op": "last", "last": last}], [],
                _r("card.eliminated", f"Уничтожена фишка страны {c.ru} в «{sp.ru}».",
                   f"{c.en}'s piece in {sp.en} is eliminated."))
    if kind == "protect":
        piece = {"country": cand["country"], "kind": cand["kind"], "space": cand["space"]}
        c, sp = board.countries[cand["country"]], board.spaces[cand["space"]]
        ops = [{"op": "protect", "piece": piece}]
        if table.hold and table.hold["piece"] == piece:
            ops += [{"op": "hold", "hold": None}, *_attack_over(table)]
        return (ops, [], _r("card.protect", f"Фишку страны {c.ru} в «{sp.ru}» в этом ходу не убирают.",
                            f"{c.en}'s piece in {sp.en} is not removed this turn."))
    if kind == "discard" and cand.get("action") == "eliminate":  # the card's alternative: one's own piece removed
        piece = Piece(cand["country"], cand["kind"], cand["space"])
        if _is_protected(table, piece):
            return _protected_refusal(board, piece)
        c, sp = board.countries[piece.country], board.spaces[piece.space]
        ru, en = _card_title(step["card"])
        last = {**(table.last or {}), "removed": piece.to_dict()}
        return ([{"op": "remove", **piece.to_dict()}, {"op": "last", "last": last}], [],
                _r("card.alternative", f"«{ru}»: {c.ru} вместо сброса карт убирает "
                   f"{'свой флот' if piece.kind == NAVY else 'свою армию'} из сектора «{sp.ru}» (текст карты).", f"“{en}”: instead of discarding, {c.en} removes its "
                   f"{piece.kind} from {sp.en} (card text)."))
    if kind == "discard":
        target = cand["target_country"]
        out = discard_from_deck(board, table, target, int(step.get("n", 1)))
        ops = list(out.changes)
        played = default_catalogue().get(step["card"])
        if played is not None and played.type == "economic_warfare":  # remembered for a card that cancels it
            k = table.cards_of(target)
            lost = -sum(op["n"] for op in ops if op["op"] == "vp")
            hits = {**((table.last or {}).get("ew_hits") or {}),
                    target: {"deck": k.deck, "hand": k.hand, "discard": k.discard, "vp": lost}}
            ops.append({"op": "last", "last": {**(table.last or {}), "ew": played.id,
                                               "by": step.get("player", step["by"]), "ew_hits": hits}})
        return ops, [], out.reason
    if kind == "discard_status" and not cand.get("card_id"):
        kind = "discard_response"
    if kind == "discard_status":
        target = cand["target_country"]
        k = table.cards_of(target)
        sid = cand.get("card_id")
        if sid not in k.statuses:
            return _refused("card.no_status", "Такого статуса у этой страны на столе нет (текст карты).",
                            "That country has no such status on the table (card text).")
        rest = list(k.statuses)
        rest.remove(sid)
        ru, en = _card_title(sid)
        # to its owner's discard pile: one copy gone (a one-copy status cannot come back into play twice)
        ops = [{"op": "cards", "country": target, "statuses": rest, "discard": k.discard + 1}]
        if table.options.new_card_rules:  # card rules 2: the copy was not counted as gone
            ops.append({"op": "gone", "card": sid})
        return (ops, [],
                _r("card.status_discarded", f"Статус «{ru}» сброшен.", f"The status “{en}” is discarded."))
    if kind == "discard_response":
        target = cand["target_country"]
        k = table.cards_of(target)
        return ([{"op": "cards", "country": target, "responses": k.responses - 1, "discard": k.discard + 1}], [],
                _r("card.response_discarded", "Закрытый ответ сброшен не глядя.", "A face-down response is discarded unseen."))
    raise CommandError(f"not a step with choices: {kind}")


def _auto_choice(board, table, step, cands) -> dict | None:
    """The one choice a mechanical step leaves (the engine applies it), or None (the player taps)."""
    kind = step["kind"]
    if kind == "manual":
        return None
    if kind in ("discard", "discard_response"):
        if kind == "discard_response" and table.cards_of(step["targets"][0]).responses <= 0:
            return None
        return cands[0] if len(cands) == 1 else None
    if kind == "discard_status":
        return None
    if step.get("optional") or kind == "protect":
        return None
    return cands[0] if len(cands) == 1 else None


def run_pending(board, table, steps) -> tuple[list[dict], list[Reason]]:
    """Open ``steps`` (in front of those already open): mechanical steps at the head are applied by
    the engine, steps with nothing left to do close; the rest wait for the player (one ``pending`` op)."""
    ops: list[dict] = []
    notes: list[Reason] = []
    steps = [dict(x) for x in steps]
    current = table
    while steps:
        head = steps[0]
        if current.finished:
            break
        cands = _step_targets(board, current, head)
        if head["kind"] == "discard_response" and current.cards_of(head["targets"][0]).responses <= 0:
            cands = []

        if head.get("all") and cands:
            for cand in cands:
                piece = Piece(cand["country"], cand["kind"], cand["space"])
                if not _is_protected(current, piece):
                    more = [{"op": "remove", **piece.to_dict()}]
                    ops += more
                    current = apply_ops(current, more)
            steps.pop(0)
            continue
        if head["kind"] not in ("manual", "play_from") and not cands:
            ru, en = _card_title(head["card"])
            notes.append(_r("card.step_void", f"«{ru}»: для этого шага сейчас нет допустимой цели — он пропущен "
                            "(правило «Как сыграть карту»: действия карты не зависят друг от друга).",
                            f"“{en}”: this step has no legal target now — it is skipped (rule “Playing a card”: "
                            "a card's actions do not depend on each other)."))
            steps.pop(0)
            continue
        choice = _auto_choice(board, current, head, cands)
        if choice is None:
            break
        done = _choice_ops(board, current, head, choice)
        if isinstance(done, Outcome):
            break
        more, extra, reason = done
        ops += more
        notes += extra + [reason]
        current = apply_ops(current, more)
        if head.get("left", 1) > 1:
            steps[0] = {**head, "left": head["left"] - 1}
        else:
            steps.pop(0)
    ops.append({"op": "pending", "steps": steps})
    return ops, notes


def _step_targets(board, table, step) -> list[dict]:
    found = program.targets(board, table.position, step, table.protected, turn_context(table))
    if step["kind"] == "discard_status":
        out = [{**t, "card_id": sid} for t in found for sid in dict.fromkeys(table.cards_of(t["target_country"]).statuses)]
        if step.get("responses"):  # «Мэджик»: a status or a face-down response
            out += [{**t, "action": "discard_response"} for t in found
                    if table.cards_of(t["target_country"]).responses > 0]
        return out
    return found


def step_choices(board: Board, table: Table) -> list[dict]:
    """The legal choices of the first open step (what the phone offers), each with the command that
    makes it; a "may" step also offers ``skip``."""
    if not table.pending or table.hold:
        return []
    head = table.pending[0]
    if head["kind"] == "play_from":
        return play_from_choices(board, table, head)
    if head["kind"] == "manual":
        return guided_choices(board, table, head)
    out = []
    for cand in _step_targets(board, table, head):
        action = cand.get("action") if cand.get("action") in STEP_TYPES else _STEP_ACTION[head["kind"]]
        command = {"type": "step", "country": head["by"], "action": action}
        for key in ("space", "kind", "card_id"):
            if cand.get(key):
                command[key] = cand[key]
        who = cand.get("target_country") or cand.get("country")
        if who and who != head["by"]:
            command["target_country"] = who
        out.append({**cand, "command": command})
    return out


_STEP_ACTION = {"discard": "discard_from_deck", "discard_status": "discard_status",
                "discard_response": "discard_response", "protect": "protect", "eliminate": "eliminate"}


def pending_view(board: Board, table: Table, lang: str = "ru") -> list[dict]:
    """The open steps, first first, as the page and ``qmg_play`` show them."""
    out = []
    for i, st in enumerate(table.pending):
        item = {"card": st["card"], "kind": st["kind"], "by": st["by"], "optional": bool(st.get("optional")),
                "left": st.get("left", 1), "text": program.describe(board, st, lang)}
        if st.get("spaces") is not None:
            item["spaces"] = list(st["spaces"])
        if st.get("note"):
            item["note"] = st["note"]
        if i == 0:
            item["choices"] = [{k: v for k, v in c.items() if k != "command"} for c in step_choices(board, table)]
        out.append(item)
    return out


def _cmd_step(board, table, cmd) -> Outcome:
    """One step of the card being resolved: only the card's legal choices are accepted."""
    action_type = cmd.get("action")
    if action_type not in STEP_TYPES:
        raise CommandError(f"unknown step: {action_type!r}")
    country = cmd.get("country")
    if country is None:
        raise CommandError("a step needs a country")
    if cmd.get("_legacy"):
        return _legacy_step(board, table, cmd)
    if action_type == "remove":
        out = _legacy_step(board, table, cmd)
        if out.ok and table.hold and any(op["op"] == "remove" and {k: op[k] for k in ("country", "kind", "space")}
                                         == table.hold["piece"] for op in out.changes):
            out = replace(out, changes=out.changes + ({"op": "hold", "hold": None},))
        return out
    if table.hold:
        return _refused("window.hold", "Сначала ответы: удаление фишки ждёт, пока оба лагеря не спасуют или не "
                        f"сыграют защиту ({RULE_USE_RU}).",
                        f"Answers first: the removal waits until both teams pass or one protects ({RULE_USE_EN}).")
    ru, en = _card_title(_last_card(table) or table.played)
    if not table.pending and _unnamed_play(table):
        return _legacy_step(board, table, cmd)
    if not table.pending:
        if table.played == "discard_unused":
            return _refused("step.discarded", "Карта сброшена без розыгрыша — её текст не действует "
                            f"({RULE_PLAY_RU}).", f"The card was discarded unused — its text has no effect ({RULE_PLAY_EN}).")
        return _refused("step.no_card", f"У карты «{ru}» больше нет шагов: ничего сверх текста карты сделать нельзя "
                        f"({RULE_PLAY_RU}).", f"“{en}” has no step left: nothing beyond the card's text may be done "
                        f"({RULE_PLAY_EN}).")
    for i, st in enumerate(table.pending):
        if i > 0 and not table.pending[i - 1].get("optional"):
            break
        if st["by"] != country:
            continue
        if st["kind"] == "manual":
            problem = _guided_refusal(board, table, st, country, cmd)
            if problem:
                return problem
            if action_type == "to_deck":
                return _to_deck(board, table, i, country, cmd)
            out = _legacy_step(board, table, cmd)
            if out.ok and action_type == "discard_from_deck" and table.options.new_card_rules \
                    and "discard_from_deck" in GUIDED_ACTIONS.get(st["card"], {}):
                # the card's own deck discard entered by hand: remembered, so its to_deck does not charge it again
                steps = list(table.pending)
                steps[i] = {**st, "paid": int(st.get("paid", 0)) + _int(cmd.get("n"), 1, 40)}
                out = replace(out, changes=out.changes + ({"op": "pending", "steps": steps},))
            return out
        if st["kind"] == "play_from":
            if action_type != "play_from":
                continue
            return _play_from(board, table, i, cmd)
        cands = _step_targets(board, table, st)
        choice = {"action": action_type, "space": cmd.get("space"), "kind": cmd.get("kind"),
                  "card_id": cmd.get("card_id")}
        if st["kind"] in ("build", "recruit"):
            choice["country"] = cmd.get("target_country") or country
        elif st["kind"] in ("eliminate", "protect"):
            choice["country"] = cmd.get("target_country")
        elif st["kind"] == "discard" and st.get("alternative"):  # the target chooses: its discard or its piece
            if action_type == "eliminate":
                found = [c for c in cands if c.get("action") == "eliminate" and c["space"] == cmd.get("space")
                         and c["kind"] == (cmd.get("kind") or c["kind"])
                         and c["country"] == (cmd.get("target_country") or country)]
            else:
                found = [c for c in cands if action_type == "discard_from_deck" and "action" not in c
                         and c["target_country"] == (cmd.get("target_country") or country)]
            if found:
                return _apply_step(board, table, i, found[0])
            continue
        elif st["kind"] in ("discard", "discard_status", "discard_response"):
            choice = {"target_country": cmd.get("target_country"), "card_id": cmd.get("card_id"),
                      "action": _STEP_ACTION[st["kind"]]}
            if action_type != choice["action"] and not (st.get("responses") and action_type == "discard_response"):
                continue
            found = [c for c in cands if c["target_country"] == choice["target_country"]
                     and (c.get("action", choice["action"]) == action_type)
                     and (action_type != "discard_status" or c.get("card_id") == choice["card_id"])]
            if found:
                return _apply_step(board, table, i, found[0])
            continue
        found = [c for c in cands if program.matches(st, choice, c) and c.get("action") == action_type]
        if found:
            return _apply_step(board, table, i, found[0])
    for p in table.protected:
        if p["space"] == cmd.get("space") and action_type in ("land_battle", "sea_battle", "eliminate"):
            return _protected_refusal(board, Piece(p["country"], p["kind"], p["space"]))
    head = table.pending[0]
    c_ru, c_en = _card_title(head["card"])
    return _refused("step.not_on_card", f"Карта «{c_ru}» этого не позволяет. Сейчас её шаг: "
                    f"{program.describe(board, head, 'ru')} ({RULE_PLAY_RU}: выполняется только текст карты).",
                    f"“{c_en}” does not allow that. Its step now: {program.describe(board, head, 'en')} "
                    f"({RULE_PLAY_EN}: only the card's text is carried out).")


# What each guided card's text lets its manual step enter (besides removing one's own piece, always allowed):
# action -> limits. ``own``: own pieces only; ``kinds``: piece kinds; ``spaces``: where; ``piles``/``n``: to_deck's
# pile and most cards; discard_from_deck: own deck, at most ``n``. Nothing else (no VP, no other board action).
GUIDED_ACTIONS: dict[str, dict[str, dict]] = {
    "ger_volkssturm": {"land_battle": {"spaces": ("germany",)}},
    "ger_superior_planning": {},  # looking at and reordering the top of the deck changes no count
    "ger_autobahn": {"build_army": {"own": True}},
    # to_deck's ``played``: the card moved is this turn's played card; ``card``: this named card itself;
    # ``cost``: paid by the engine when the card is moved (as ``_pay_cost``: the rulebook's fallbacks)
    "uk_rationing": {"to_deck": {"piles": ("discard",), "n": 1, "played": True, "cost": {"own_hand": 1}}},
    "su_women_conscripts": {"to_deck": {"piles": ("discard",), "n": 1, "played": True}},
    "su_trans_siberian_railroad": {"build_army": {"own": True}, "build_navy": {"own": True}},
    "us_rosie_the_riveter": {"to_deck": {"piles": ("hand",), "n": 2}},
    "us_lend_lease": {"discard_from_deck": {"n": 3},
                      "to_deck": {"piles": ("discard",), "n": 1, "card": "us_lend_lease", "cost": {"own_deck": 3}}},
    "us_theater_shift": {"build_army": {"own": True}, "build_navy": {"own": True}},
}
GUIDED_WORDS = {"to_deck": ("карты в колоду", "cards into the deck"),
                "discard_from_deck": ("сброс из своей колоды", "discards from one's own deck"),
                **STEP_WORDS}


def _guided_refusal(board, table, step: dict, country: str, cmd: dict) -> Outcome | None:
    """A guided manual step takes only what its card's text allows (``GUIDED_ACTIONS``); its own deck
    discard (Lend Lease: the top 3) at most ``n`` in all, however many entries it is split into."""
    allowed = GUIDED_ACTIONS.get(step["card"])
    if allowed is None:
        return None
    action = cmd.get("action")
    limits = allowed.get(action)
    if limits is not None and action == "discard_from_deck" and table.options.new_card_rules \
            and cmd.get("target_country") == country:
        paid = int(step.get("paid", 0))
        if paid + _int(cmd.get("n"), 1, 40) > limits["n"]:
            ru, en = _card_title(step["card"])
            return _refused("guided.paid", f"«{ru}»: по тексту карты из своей колоды сбрасывают {limits['n']} "
                            f"верхние карты, не больше; уже сброшено {paid} ({RULE_PLAY_RU}: выполняется только "
                            f"текст карты).", f"“{en}”: the card discards the top {limits['n']} cards of your own "
                            f"deck, no more; {paid} already discarded ({RULE_PLAY_EN}: only the card's text is "
                            f"carried out).")
    ok = limits is not None
    if ok and limits.get("own") and (cmd.get("target_country") or country) != country:
        ok = False
    if ok and "spaces" in limits and cmd.get("space") not in limits["spaces"]:
        ok = False
    if ok and action == "to_deck":
        ok = (cmd.get("name") or "hand") in limits["piles"] and _int(cmd.get("n"), 0, 3) <= limits["n"]
    if ok and action == "discard_from_deck":
        ok = cmd.get("target_country") == country and _int(cmd.get("n"), 1, 40) <= limits["n"]
    if ok:
        return None
    ru, en = _card_title(step["card"])
    can_ru = ", ".join(GUIDED_WORDS.get(a, (a, a))[0] for a in allowed) or "ничего на поле и в стопках"
    can_en = ", ".join(GUIDED_WORDS.get(a, (a, a))[1] for a in allowed) or "nothing on the board or in the piles"
    return _refused("guided.not_on_card", f"Карта «{ru}» этого не позволяет: по её тексту можно только {can_ru} "
                    f"(и снять свою фишку) — затем «Готово» ({RULE_PLAY_RU}: выполняется только текст карты).",
                    f"“{en}” does not allow that: its text allows only {can_en} (and removing one's own piece) — "
                    f"then Done ({RULE_PLAY_EN}: only the card's text is carried out).")


PLAY_FROM_RULE = ("правило «Как сыграть карту»: карта, сыгранная по тексту другой карты",
                  "rule “Playing a card”: a card played by another card's text")


PLAY_FROM_TYPES = tuple(BASIC_CARD_ACTION) + ("status", "response", "event", "economic_warfare")
PILES = {"own_deck": "deck", "own_discard": "discard", "hand": "hand"}


def play_from_choices(board: Board, table: Table, step: dict) -> list[dict]:
    """Every card a ``play_from`` step may play now, each with its command: a basic card by type; a
    status, event or Economic Warfare card by id (its copies respected; from the discard pile any named
    card of which a copy is not in play — the pile holds cards the engine cannot name, and its owner may
    look through it); a response face down, anonymous (no ``card_id``), offered only when one of the
    country's responses may be there. Keys: action, country, card_type, card_id (None for a basic card or a
    face-down response), source (own_deck, own_discard, hand), response_ids (the face-down response only:
    the ids of the country's response cards that may go face down, for its owner's phone), command."""
    by = step["by"]
    source = step.get("source", "hand")
    pile = PILES.get(source, "hand")
    if getattr(table.cards_of(by), pile) <= 0:
        return []
    allowed = step.get("card_types")
    types = PLAY_FROM_TYPES if allowed in (None, "any") else [t for t in PLAY_FROM_TYPES if t in allowed]
    cat = default_catalogue()
    out: list[dict] = []

    def offer(card_type, card_id=None, **more):
        command = {"type": "step", "country": by, "action": "play_from", "card_type": card_type}
        if card_id:
            command["card_id"] = card_id
        out.append({"action": "play_from", "country": by, "card_type": card_type, "card_id": card_id,
                    "source": source, **more, "command": command})

    for t in types:
        if t in BASIC_CARD_ACTION:
            offer(t)
        elif t == "response":
            ids = [card.id for card in cat.by_type(t, by) if _may_take(table, card, pile)]
            if ids:
                offer(t, response_ids=ids)
        else:
            for card in cat.by_type(t, by):
                if card.id != step["card"] and _may_take(table, card, pile) \
                        and play_condition_refusal(board, table, card, by) is None:
                    offer(t, card.id)
    return out[:program.MAX_CANDIDATES]


def _may_take(table, card, pile: str) -> bool:
    """May a copy of this named card be taken from ``pile`` now? From the deck or the hand only while a
    copy is neither in play nor known discarded. From the discard pile (card rules 3) while a copy is not in
    play as a status: the pile also holds the cards the engine cannot name (setup, hand and deck discards),
    and its owner may look through it; card rules 2: a copy known to be there (``gone``) or one left."""
    if pile == "discard":
        if table.options.new_card_rules:
            return card.copies - sum(k.statuses.count(card.id) for _, k in table.cards) > 0
        return card.id in table.gone or _copies_left(table, card) > 0
    return _copies_left(table, card) > 0


def _play_from(board, table, index: int, cmd) -> Outcome:
    """A card played from the deck, the discard pile or the hand because another card says so: the counts
    move (the card comes out of its pile and goes where a played card goes), then its own steps open."""
    step = table.pending[index]
    by = step["by"]
    card_type = cmd.get("card_type")
    allowed = step.get("card_types")
    ru, en = _card_title(step["card"])
    if card_type not in CARD_TYPES or card_type in ("discard_unused", "bombing") or (
            allowed != "any" and card_type not in allowed):
        names = "любую" if allowed == "any" else ", ".join(CARD_TYPE_NAMES[t][0] for t in allowed)
        names_en = "any" if allowed == "any" else ", ".join(CARD_TYPE_NAMES[t][1] for t in allowed)
        return _refused("play_from.type", f"«{ru}» позволяет сыграть только: {names} ({PLAY_FROM_RULE[0]}).",
                        f"“{en}” lets you play only: {names_en} ({PLAY_FROM_RULE[1]}).")
    if card_type == "response":  # face down: its identity stays in its owner's private list, never in the log
        if cmd.get("card_id"):
            raise CommandError("a response is played face down: send it without card_id (the owner's private "
                               "list keeps its name)")
        card = None
    else:
        card = default_catalogue().get(cmd.get("card_id") or "")
        if card is None and cmd.get("card_id"):
            raise CommandError(f"unknown card: {cmd.get('card_id')!r}")
        if card is None:
            basic = default_catalogue().by_type(card_type, by)
            card = basic[0] if card_type in BASIC_CARD_ACTION and basic else None
        if card is None:
            c = board.countries[by]
            return _refused("play_from.name", f"«{ru}»: назовите карту — статус, событие или «Экономическая война» "
                            f"из колоды страны {c.ru} ({PLAY_FROM_RULE[0]}).", f"“{en}”: name the card — a "
                            f"status, event or Economic Warfare card of {c.en}'s deck ({PLAY_FROM_RULE[1]}).")
        if card.country != by or card.type != card_type:
            c = board.countries[by]
            return _refused("play_from.other_card", f"«{ru}»: «{card.name_ru}» — не карта «"
                            f"{CARD_TYPE_NAMES[card_type][0]}» из колоды страны {c.ru} ({PLAY_FROM_RULE[0]}).",
                            f"“{en}”: “{card.name_en}” is not a {CARD_TYPE_NAMES[card_type][1]} card of "
                            f"{c.en}'s deck ({PLAY_FROM_RULE[1]}).")
    new_rules = table.options.new_card_rules  # card rules 2: none of the refusals below but the copies'
    if new_rules and card is not None and card.id == step["card"]:
        return _refused("play_from.itself", f"«{ru}» не может сыграть саму себя: по её тексту играют другую карту "
                        f"({PLAY_FROM_RULE[0]}).", f"“{en}” cannot play itself: its text plays another card "
                        f"({PLAY_FROM_RULE[1]}).")
    if card is not None:  # a card played through another card's text keeps its own play condition
        problem = play_condition_refusal(board, table, card, by)
        if problem:
            return problem
    pile = PILES[step.get("source", "hand")]
    # a card taken back from the discard pile is one of its copies already gone there
    from_discard = card is not None and pile == "discard" and card.id in table.gone
    k = table.cards_of(by)
    if getattr(k, pile) <= 0:
        return _refused("play_from.empty", f"«{ru}»: в этой стопке нет карт ({PLAY_FROM_RULE[0]}).",
                        f"“{en}”: that pile is empty ({PLAY_FROM_RULE[1]}).")
    if new_rules and card is not None and card_type not in BASIC_CARD_ACTION and pile == "discard" \
            and not from_discard and not _may_take(table, card, pile):
        return _refused("play_from.not_in_discard", f"«{ru}»: карты «{card.name_ru}» нет в вашей стопке сброса — "
                        f"все её экземпляры в игре ({PLAY_FROM_RULE[0]}).", f"“{en}”: “{card.name_en}” is not in "
                        f"your discard pile — every copy of it is in play ({PLAY_FROM_RULE[1]}).")
    if card is not None and card_type not in BASIC_CARD_ACTION and _copies_left(table, card) <= 0 \
            and not from_discard:
        return _copies_refusal(card)
    if new_rules and card_type == "response" and not any(_may_take(table, r, pile)
                                           for r in default_catalogue().by_type("response", by)):
        c = board.countries[by]
        return _refused("play_from.no_response", f"«{ru}»: ни одной карты ответа страны {c.ru} не может быть в этой "
                        f"стопке ({PLAY_FROM_RULE[0]}).", f"“{en}”: none of {c.en}'s response cards can be in that "
                        f"pile ({PLAY_FROM_RULE[1]}).")
    counts = {"deck": k.deck, "hand": k.hand, "discard": k.discard}
    counts[pile] -= 1
    change = {"op": "cards", "country": by, **counts}
    if card_type == "status":
        change["statuses"] = list(k.statuses) + [card.id]
    elif card_type == "response":
        change["responses"] = k.responses + 1
    else:
        change["discard"] = counts["discard"] + 1
    ops: list[dict] = [change]
    if from_discard:
        ops.append({"op": "gone", "card": card.id, "back": True})
    if card_type in ("event", "economic_warfare"):
        ops.append({"op": "gone", "card": card.id})
    if step.get("then") == "draw_1" and counts["deck"] > 0:
        ops.append({"op": "cards", "country": by, "deck": counts["deck"] - 1, "hand": counts["hand"] + 1})
    after = apply_ops(table, ops)
    follow: list[dict] = []
    if card_type in BASIC_CARD_ACTION:
        kind, extra = {"build_army": ("build", {"countries": [by], "piece": ARMY}),
                       "build_navy": ("build", {"countries": [by], "piece": NAVY}),
                       "land_battle": ("battle", {"domain": "land"}),
                       "sea_battle": ("battle", {"domain": "sea"})}[card_type]
        follow.append({"card": card.id, "kind": kind, "by": by, "spaces": None, "optional": True, "left": 1, **extra})
    elif card_type in ("event", "economic_warfare"):
        follow = program.compile_card(board, after.position, card, by, after.last,
                                      alternatives=table.options.new_card_rules,
                                      per_piece=table.options.at_least(4))
    rest = follow + list(table.pending[index + 1:])  # "may" steps before it are passed over
    more, notes = run_pending(board, after, rest)
    c_ru, c_en = (card.name_ru, card.name_en) if card_type != "response" else CARD_TYPE_NAMES["response"]
    reason = _r("play_from.ok", f"«{ru}»: сыграна карта «{c_ru}».", f"“{en}”: the card “{c_en}” is played.")
    return _done(reason, tuple(ops + more), notes=tuple(notes))


def guided_choices(board: Board, table: Table, step: dict) -> list[dict]:
    """The taps that complete a guided manual step's card moves (``GUIDED_ACTIONS``' ``to_deck``): one per
    number of cards and pile, each with its command. Keys: action ("to_deck"), country, card (the guided
    card), n, pile ("hand" or "discard"), card_id (the named card moved, when known, else None), cost (what
    the engine charges with it: {"own_hand": n} or {"own_deck": n}, or None), command. Board actions stay
    with the generic step form."""
    limits = (GUIDED_ACTIONS.get(step["card"]) or {}).get("to_deck")
    if not limits:
        return []
    by = step["by"]
    k = table.cards_of(by)
    new_rules = table.options.new_card_rules  # card rules 2: no cost charged, no running total
    room = limits["n"] - (int(step.get("moved", 0)) if new_rules else 0)
    moved_id = _to_deck_card(table, limits)
    if limits.get("card") and moved_id is None:
        return []  # the card to put back is not in the discard pile
    out = []
    for pile in limits["piles"]:
        for n in range(1, room + 1):
            if getattr(k, pile) < n:
                break
            out.append({"action": "to_deck", "country": by, "card": step["card"], "n": n, "pile": pile,
                        "card_id": moved_id, "cost": limits.get("cost") if new_rules else None,
                        "command": {"type": "step", "country": by, "action": "to_deck", "n": n, "name": pile}})
    return out


def _last_card(table) -> str | None:
    """The named card played or used last this turn (its steps are the ones that ran), or None."""
    cat = default_catalogue()
    return next((x for x in reversed(table.used) if cat.get(x) is not None), None)


def _turn_card(table) -> str | None:
    """The named card played from hand this turn (the last one of the played type), or None."""
    cat = default_catalogue()
    for x in reversed(table.used):
        card = cat.get(x)
        if card is not None and card.type == table.played:
            return card.id
    return None


def _to_deck_card(table, limits) -> str | None:
    """The named card a guided to_deck moves from the discard pile (known to be there), or None."""
    if limits.get("card"):
        return limits["card"] if limits["card"] in table.gone else None
    if limits.get("played"):
        played = _turn_card(table)
        return played if played in table.gone else None
    return None


def _to_deck(board, table, index: int, country, cmd) -> Outcome:
    """A guided step of a card that puts cards back into the deck (Rosie the Riveter, Women Conscripts,
    Rationing, Lend Lease): ``n`` cards from the hand or the discard pile, so the counts stay true; the
    card's own cost is charged with it (Rationing: 1 from the hand; Lend Lease: the top 3 of the deck,
    unless already entered), and a named card taken back from the discard pile leaves ``gone``.
    Card rules 2 (a game stored before these): ``_to_deck_v2``."""
    step = table.pending[index]
    n = _int(cmd.get("n"), 0, 3)
    pile = cmd.get("name") or "hand"
    if pile not in ("hand", "discard"):
        raise CommandError("to_deck takes name 'hand' or 'discard'")
    if not table.options.new_card_rules:
        return _to_deck_v2(table, country, n, pile)
    limits = (GUIDED_ACTIONS.get(step["card"]) or {}).get("to_deck") or {}
    ru, en = _card_title(step["card"])
    moved = int(step.get("moved", 0))
    if limits and moved + n > limits["n"]:
        return _refused("to_deck.limit", f"«{ru}»: по тексту карты в колоду кладут не больше {limits['n']}; уже "
                        f"положено {moved} ({RULE_PLAY_RU}: выполняется только текст карты).",
                        f"“{en}”: the card puts at most {limits['n']} into the deck; {moved} already put "
                        f"({RULE_PLAY_EN}: only the card's text is carried out).")
    k = table.cards_of(country)
    if getattr(k, pile) < n:
        return _refused("to_deck.count", f"«{ru}»: в этой стопке только {getattr(k, pile)} карт (текст карты).",
                        f"“{en}”: that pile holds only {getattr(k, pile)} cards (card text).")
    ops: list[dict] = []
    cost = dict(limits.get("cost") or {}) if n else {}
    if cost.get("own_deck"):
        cost["own_deck"] = max(0, int(cost["own_deck"]) - int(step.get("paid", 0)))
    if any(cost.values()):
        ops += _pay_cost(board, table, country, cost)
    after = apply_ops(table, ops)
    k = after.cards_of(country)
    ops.append({"op": "cards", "country": country, "deck": k.deck + n, pile: getattr(k, pile) - n})
    moved_id = _to_deck_card(table, limits) if n and pile == "discard" else None
    if moved_id:
        ops.append({"op": "gone", "card": moved_id, "back": True})
    steps = list(table.pending)
    steps[index] = {**step, "moved": moved + n, **({"paid": int(step.get("paid", 0)) + cost["own_deck"]}
                                                    if cost.get("own_deck") else {})}
    ops.append({"op": "pending", "steps": steps})
    ru_text, en_text = f"«{ru}»: в колоду положено карт: {n}", f"“{en}”: cards put into the deck: {n}"
    if moved_id:
        m_ru, m_en = _card_title(moved_id)
        ru_text += f" («{m_ru}»)"
        en_text += f" (“{m_en}”)"
    if cost.get("own_hand"):
        ru_text += f"; цена — {cost['own_hand']} карта с руки в сброс"
        en_text += f"; the cost: {cost['own_hand']} card from the hand discarded"
    if cost.get("own_deck"):
        ru_text += f"; цена — {cost['own_deck']} верхние карты колоды в сброс"
        en_text += f"; the cost: the top {cost['own_deck']} cards of the deck discarded"
    return _done(_r("to_deck.ok", ru_text + ".", en_text + "."), tuple(ops))


def _to_deck_v2(table, country, n: int, pile: str) -> Outcome:
    """to_deck by card rules 2: ``n`` cards from the pile into the deck — no cost charged, no total limit
    per step, a named card not taken out of ``gone`` (so a stored game replays as it was played)."""
    k = table.cards_of(country)
    if getattr(k, pile) < n:
        return _refused("to_deck.count", f"В этой стопке только {getattr(k, pile)} карт (текст карты).",
                        f"That pile holds only {getattr(k, pile)} cards (card text).")
    counts = {"deck": k.deck + n, pile: getattr(k, pile) - n}
    return _done(_r("to_deck.ok", f"В колоду возвращено карт: {n}.", f"Cards put back into the deck: {n}."),
                 ({"op": "cards", "country": country, **counts},))


def _apply_step(board, table, index: int, cand: dict) -> Outcome:
    step = table.pending[index]
    done = _choice_ops(board, table, step, cand)
    if isinstance(done, Outcome):
        return done
    ops, notes, reason = done
    rest = list(table.pending[index:])
    if step.get("left", 1) > 1:
        rest[0] = {**step, "left": step["left"] - 1}
    else:
        rest.pop(0)
    after = apply_ops(table, ops)
    more, more_notes = run_pending(board, after, rest) if not after.hold else ([{"op": "pending", "steps": rest}], [])
    return _done(reason, tuple(ops + more), notes=tuple(notes + more_notes))


def _unnamed_play(table) -> bool:
    """This turn's event (economic warfare, bombing) was played without its name, or a bolster card was
    played: the engine cannot know the text, so its board actions are entered one by one, each checked
    by the rules (the guided manual way; also how games stored before the card engine were played)."""
    if "bolster" in table.used:
        return True
    if table.phase != "play" or table.played not in ("event", "economic_warfare", "bombing"):
        return False
    cat = default_catalogue()
    return not any((c := cat.get(x)) is not None and c.type == table.played for x in table.used)


def free_steps_allowed(table: Table, legacy: bool = False) -> bool:
    """May board actions be entered freely (each checked by the rules)? Only for a card the engine cannot
    read (played without its name, a bolster card) or a card's guided manual step; in a game kept under the
    old rules (``legacy``), after any card played, as those rules allowed."""
    if legacy:
        return table.phase == "play" and bool(table.played) or "bolster" in table.used
    if table.pending:
        return table.pending[0]["kind"] == "manual"
    return _unnamed_play(table)


def _cmd_skip(board, table, cmd) -> Outcome:
    """Close the first open step: a "may" step, a guided manual step, or one with no legal target."""
    country = cmd.get("country")
    if not table.pending:
        return _refused("skip.nothing", f"Открытых шагов карты нет — пропускать нечего ({RULE_PLAY_RU}).",
                        f"No card step is open — there is nothing to skip ({RULE_PLAY_EN}).")
    head = table.pending[0]
    if head["by"] != country:
        c = board.countries[head["by"]]
        return _refused("skip.not_yours", f"Этот шаг выполняет страна {c.ru} ({RULE_PLAY_RU}).",
                        f"This step is {c.en}'s ({RULE_PLAY_EN}).")
    if table.hold:
        return _refused("window.hold", f"Сначала ответы: удаление фишки ждёт окна ответов ({RULE_USE_RU}).",
                        f"Answers first: the removal waits for the response window ({RULE_USE_EN}).")
    ru, en = _card_title(head["card"])
    if not (head.get("optional") or head["kind"] == "manual") and _step_targets(board, table, head):
        return _refused("skip.mandatory", f"«{ru}»: этот шаг обязателен, пока есть допустимая цель (текст карты "
                        f"не говорит «можете»; {RULE_PLAY_RU}).", f"“{en}”: this step is mandatory while it has a "
                        f"legal target (the card does not say “may”; {RULE_PLAY_EN}).")
    more, notes = run_pending(board, table, list(table.pending[1:]))
    return _done(_r("skip.ok", f"«{ru}»: шаг пропущен.", f"“{en}”: step skipped."), tuple(more), notes=tuple(notes))


def _cmd_end_play(board, table, cmd) -> Outcome:
    if cmd.get("_legacy"):
        out = _legacy_end_play(board, table, cmd)
        if out.ok and table.hold:
            out = replace(out, changes=({"op": "remove", **table.hold["piece"]}, {"op": "hold", "hold": None})
                          + out.changes)
        return replace(out, changes=out.changes + ({"op": "pending", "steps": []},)) if out.ok else out
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    opponents = _other(board.team_of(table.active(board)))
    if table.hold or (table.window == opponents and _answerable(board, table, opponents)):
        return _refused("window.open", "Окно ответов ещё открыто, а у противника есть закрытые ответы: фаза "
                        f"заканчивается, только когда оба лагеря спасуют подряд ({RULE_USE_RU}).",
                        "The response window is still open and the opponents hold face-down responses: the step "
                        f"ends only after both teams pass in a row ({RULE_USE_EN}).")
    for st in table.pending:
        if st["kind"] != "manual" and not st.get("optional") and _step_targets(board, table, st):
            ru, en = _card_title(st["card"])
            return _refused("play.steps_open", f"«{ru}»: обязательный шаг ещё не выполнен — "
                            f"{program.describe(board, st, 'ru')} ({RULE_PLAY_RU}).",
                            f"“{en}”: a mandatory step is still open — {program.describe(board, st, 'en')} "
                            f"({RULE_PLAY_EN}).")
        break
    out = _legacy_end_play(board, table, cmd)
    if not out.ok:
        return out
    return replace(out, changes=out.changes + ({"op": "pending", "steps": []},))


def _cmd_pass(board, table, cmd) -> Outcome:
    out = _legacy_pass(board, table, cmd)
    if not out.ok or cmd.get("_legacy"):
        return out
    closes = any(op["op"] == "window" and op.get("team") is None for op in out.changes)
    if closes and table.hold:  # nobody protected it: the held removal happens now
        piece = table.hold["piece"]
        last = {**(table.last or {}), "removed": dict(piece)}
        after = apply_ops(table, [{"op": "remove", **piece}, {"op": "hold", "hold": None}])
        more, notes = run_pending(board, after, list(table.pending))
        c, sp = board.countries[piece["country"]], board.spaces[piece["space"]]
        reason = _r("window.removed", f"Оба лагеря спасовали — фишка страны {c.ru} в «{sp.ru}» убрана.",
                    f"Both teams passed — {c.en}'s piece in {sp.en} is removed.")
        return _done(reason, out.changes + ({"op": "remove", **piece}, {"op": "hold", "hold": None},
                                            {"op": "last", "last": last}) + tuple(more), notes=tuple(notes))
    return out


# when a status or response may be used: (what must have just happened, in words)
_TRIGGERS = {
    "when_you_battle_land": ("вы только что атаковали сектор суши", "you have just battled a land space"),
    "when_you_play_land_battle": ("вы только что атаковали сектор суши", "you have just battled a land space"),
    "when_you_battle_sea": ("вы только что атаковали сектор моря", "you have just battled a sea space"),
    "when_you_build_army": ("вы только что создали армию", "you have just built an army"),
    "when_you_play_build_army": ("вы только что создали армию", "you have just built an army"),
    "when_you_build_navy": ("вы только что создали флот", "you have just built a navy"),
    "when_axis_builds_or_recruits_army": ("армия «оси» только что создана или нанята",
                                          "an Axis army has just been built or recruited"),
    "when_allies_build_or_recruit_navy": ("флот коалиции только что создан или нанят",
                                          "an Allied navy has just been built or recruited"),
    "when_german_army_removed": ("немецкую армию только что убрали", "a German army has just been removed"),
    "when_your_navy_would_be_removed": ("ваш флот сейчас должны убрать", "your navy is about to be removed"),
    "when_axis_army_battled": ("армию «оси» только что атаковали", "an Axis army has just been battled"),
    "when_you_play_economic_warfare": ("вы только что сыграли «Экономическую войну»",
                                       "you have just played Economic Warfare"),
    "when_targeted_by_economic_warfare": ("против вас только что сыграли «Экономическую войну»",
                                          "Economic Warfare has just been played against you"),
    "after_you_play_card": ("вы только что сыграли карту", "you have just played a card"),
    "discard_phase": ("идёт ваша фаза сброса", "it is your discard step"),
    "start_of_turn": ("начало вашего хода, карта ещё не сыграна", "the start of your turn, before a card is played"),
}


MAX_BATTLES = 20  # battles of one turn remembered (a card chain fights a handful)
_BATTLE_TIMINGS = {"when_you_battle_land": "land", "when_you_play_land_battle": "land", "when_you_battle_sea": "sea"}


def battle_context(table, card, country) -> dict | None:
    """What a card used "when you battle a land (sea) space" answers: the last battle of that kind that
    ``country`` fought this turn — by its played card or any card that followed from it (card rules 4: a
    response such as «Транспортировка на эсминцах» may still answer the sea battle after «Внезапная атака»'s
    land battle, as the rulebook's example 2 does). None: no such battle (or card rules ≤3, or not such a card)."""
    domain = _BATTLE_TIMINGS.get(card.timing)
    if domain is None or not table.options.at_least(4):
        return None
    last = table.last or {}
    battles = last.get("battles") or ([{"space": last["battled"], "domain": last.get("domain"), "by": last.get("by")}]
                                      if last.get("battled") else [])
    for b in reversed(battles):
        if b.get("by") == country and b.get("domain") == domain:
            return {**last, "battled": b["space"], "domain": domain, "by": country}
    return None


def _trigger_happened(board, table, card, country) -> bool:
    if card.timing in _BATTLE_TIMINGS and table.options.at_least(4):
        return battle_context(table, card, country) is not None
    last = table.last or {}
    team = board.team_of(country)
    placed = last.get("placed") or {}
    removed = last.get("removed") or {}
    hit = last.get("hit") or {}
    active = table.active(board)
    t = card.timing
    if t in ("when_you_battle_land", "when_you_play_land_battle"):
        return last.get("by") == country and last.get("domain") == "land" and bool(last.get("battled"))
    if t == "when_you_battle_sea":
        return last.get("by") == country and last.get("domain") == "sea" and bool(last.get("battled"))
    if t in ("when_you_build_army", "when_you_play_build_army"):
        return placed.get("country") == country and placed.get("kind") == ARMY and placed.get("how") == "build"
    if t == "when_you_build_navy":
        return placed.get("country") == country and placed.get("kind") == NAVY and placed.get("how") == "build"
    if t == "when_axis_builds_or_recruits_army":
        return bool(placed) and board.team_of(placed["country"]) == AXIS and placed["kind"] == ARMY
    if t == "when_allies_build_or_recruit_navy":
        return bool(placed) and board.team_of(placed["country"]) == ALLIES and placed["kind"] == NAVY
    if t == "when_german_army_removed":
        return removed.get("country") == "germany" and removed.get("kind") == ARMY
    if t == "when_your_navy_would_be_removed":
        held = (table.hold or {}).get("piece") or {}
        return held.get("country") == country and held.get("kind") == NAVY
    if t == "when_axis_army_battled":
        return bool(hit) and board.team_of(hit["country"]) == AXIS and hit["kind"] == ARMY
    if t == "when_you_play_economic_warfare":
        return active == country and table.played == "economic_warfare"
    if t == "when_targeted_by_economic_warfare":
        return table.played == "economic_warfare" and board.team_of(active) != team
    if t == "after_you_play_card":
        return active == country and table.played not in (None, "discard_unused")
    if t == "discard_phase":
        return active == country and table.phase == "discard"
    if t == "start_of_turn":
        return active == country and table.phase == "play" and not table.played
    return True


def _pay_cost(board, table, country, cost) -> list[dict]:
    """A card's cost, paid before its effect: the top of your deck (the hand when the deck is empty) or
    cards from your hand (the deck when the hand is empty); 1 VP per card neither has."""
    if not cost:
        return []
    if cost.get("own_deck"):
        return list(discard_from_deck(board, table, country, int(cost["own_deck"])).changes)
    n = int(cost.get("own_hand", 0))
    k = table.cards_of(country)
    from_hand = min(n, k.hand)
    from_deck = min(n - from_hand, k.deck)
    missing = n - from_hand - from_deck
    ops = [{"op": "cards", "country": country, "hand": k.hand - from_hand, "deck": k.deck - from_deck,
            "discard": k.discard + from_hand + from_deck}]
    if missing:
        ops.append({"op": "vp", "team": board.team_of(country), "n": -missing})
    return ops


def _card_cost(card):
    for e in card.effects:
        if e.get("cost"):
            return e["cost"]
    return None


def _copies_left(table, card) -> int:
    in_play = sum(k.statuses.count(card.id) for _, k in table.cards)
    return card.copies - in_play - table.gone.count(card.id)


def _copies_refusal(card) -> Outcome:
    return _refused("card.copies", f"«{card.name_ru}»: в колоде {card.copies} экз., и все уже в игре или в сбросе "
                    "(правило «Карты»: состав колоды).", f"“{card.name_en}”: the deck holds {card.copies} "
                    "cop(ies), all already in play or discarded (rule “Cards”: deck composition).")


def is_face_down_play(command: dict) -> bool:
    """Does this command put a response face down (its identity private: out of the public log)?"""
    return isinstance(command, dict) and command.get("card_type") == "response" and (
        command.get("type") in ("play_card", "prepare")
        or (command.get("type") == "step" and command.get("action") == "play_from"))


def face_down_refusal(table: Table, country: str, card_id, face_down) -> Reason | None:
    """Why a reveal (``use_card``) of this response is refused by its owner's private list of face-down
    responses (``face_down``: the ids the owner put face down by name), or None. The table holds only the
    count; a face-down card played without its name may be any response, so then any is accepted. The web
    table (the owner's private notes) and ``qmg_play`` (``responses_by_id``) both ask this."""
    card = default_catalogue().get(card_id) if isinstance(card_id, str) else None
    if card is None or card.type != "response" or card.country != country:
        return None
    face_down = list(face_down or ())
    count = table.cards_of(country).responses
    if card_id in face_down or count > len(face_down):
        return None
    return Reason("use.not_face_down", f"Ответа «{card.name_ru}» нет среди закрытых карт этой страны на столе "
                  f"({RULE_USE_RU}).", f"“{card.name_en}” is not among this country's face-down responses "
                  f"({RULE_USE_EN}).")


def _cmd_use_card(board, table, cmd) -> Outcome:
    """Use a status (it stays) or reveal a face-down response (it goes to the discard pile): its trigger
    must have happened, its cost is paid first, then its steps open (protections may cancel a held removal)."""
    if cmd.get("_legacy"):
        return _legacy_use_card(board, table, cmd)
    country = cmd.get("country")
    card = default_catalogue().get(cmd.get("card_id") or "")
    if card is None or card.type not in ("status", "response"):
        raise CommandError(f"not a status or response card: {cmd.get('card_id')!r}")
    team = board.team_of(country)
    out = _legacy_use_card(board, table, cmd)
    if not out.ok:
        return out
    if table.window is not None and table.window != team and _answerable(board, table, table.window):
        return _refused("window.not_yours", "Сейчас очередь другого лагеря отвечать: лагеря используют карты по "
                        f"очереди, начиная с противника сыгравшего ({RULE_USE_RU}).",
                        f"It is the other team's turn to answer: teams take turns, the player's opponents first "
                        f"({RULE_USE_EN}).")
    if card.country == country and card.type == "response" and table.cards_of(country).responses > 0 \
            and _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    if card.country == country and card.timing not in (None, "any_time", "always", "victory_phase",
                                                       INSTEAD_OF_PLAY) and not _trigger_happened(board, table, card, country):
        ru, en = _TRIGGERS.get(card.timing, ("условие карты", "the card's condition"))
        return _refused("use.no_trigger", f"«{card.name_ru}» можно использовать, только когда {ru}; этого не было "
                        f"(текст карты; {RULE_USE_RU}).", f"“{card.name_en}” may be used only when {en}; that has "
                        f"not happened (card text; {RULE_USE_EN}).")
    ops = list(out.changes)
    if card.type == "response":
        ops.append({"op": "gone", "card": card.id})
    ops += _pay_cost(board, apply_ops(table, ops), country, _card_cost(card))  # discarded before it acts
    cancel = card.effects_of("cancel_card")
    if cancel:  # «Опытные пилоты»: the Economic Warfare card just played against you is ignored
        flt = cancel[0].get("card_filter") or {}
        last = table.last or {}
        ew = default_catalogue().get(last.get("ew") or "")
        hit = (last.get("ew_hits") or {}).get(flt.get("target") or country)
        stems = [x for x in (flt.get("title_stem"), flt.get("title_stem_ru")) if x]
        if ew is None or hit is None or ew.type != flt.get("type", ew.type) or not any(
                st.casefold() in name.casefold() for st in stems for name in (ew.name_en, ew.name_ru)):
            return _refused("use.no_trigger", f"«{card.name_ru}» отменяет только подходящую карту «Экономической "
                            f"войны», только что сыгранную против вас; такой не было (текст карты; {RULE_USE_RU}).",
                            f"“{card.name_en}” cancels only a matching Economic Warfare card just played against "
                            f"you; there was none (card text; {RULE_USE_EN}).")
        now = apply_ops(table, ops).cards_of(country)
        ops.append({"op": "cards", "country": country, "deck": hit["deck"], "hand": hit["hand"],
                    "discard": hit["discard"] + (now.discard - table.cards_of(country).discard)})
        if hit.get("vp"):
            ops.append({"op": "vp", "team": board.team_of(country), "n": hit["vp"]})
    after = apply_ops(table, ops)
    steps = program.compile_card(board, after.position, card, country,
                                 battle_context(table, card, country) or table.last,
                                 alternatives=table.options.new_card_rules, per_piece=table.options.at_least(4))
    notes: list[Reason] = []
    held = table.hold
    if held is not None:
        for st in steps:
            if st["kind"] == "protect" and any(c["country"] == held["piece"]["country"] and c["space"] == held["piece"]["space"]
                                               and c["kind"] == held["piece"]["kind"]
                                               for c in _step_targets(board, after, st)):
                ops += [{"op": "protect", "piece": dict(held["piece"])}, {"op": "hold", "hold": None},
                        *_attack_over(table)]
                steps = []
                break
        if card.timing == "when_your_navy_would_be_removed":
            ops += [{"op": "hold", "hold": None}, *_attack_over(table)]  # saved from this removal only
            steps = []
    if card.type == "response" and steps and all(s["kind"] == "eliminate" for s in steps) \
            and not any(_step_targets(board, after, s) for s in steps):
        return _refused("use.no_trigger", f"«{card.name_ru}»: того, на что отвечает карта, не было — уничтожать "
                        f"нечего (текст карты; {RULE_USE_RU}).", f"“{card.name_en}”: what the card answers has not "
                        f"happened — there is nothing to eliminate (card text; {RULE_USE_EN}).")
    after = apply_ops(table, ops)
    more, more_notes = run_pending(board, after, steps + list(after.pending))
    return _done(out.reason, tuple(ops + more), notes=tuple(notes + more_notes))


def _cmd_prepare(board, table, cmd) -> Outcome:
    """001's optional rule «Подготовка к войне»: before the first round each country may take one status
    or response from its deck and play it (a status face up by id; a response face down, anonymous)."""
    country = cmd.get("country")
    rule_ru, rule_en = "необязательное правило «Подготовка к войне»", "optional rule “Preparing for war”"
    if not table.options.prepare_for_war:
        return _refused("prepare.off", f"В этой игре не используется {rule_ru}.", f"This game does not use the {rule_en}.")
    if not _before_round_1(board, table):
        return _refused("prepare.when", f"Только до начала первого раунда ({rule_ru}).",
                        f"Only before the first round starts ({rule_en}).")
    if f"prepare:{country}" in table.used:
        return _refused("prepare.once", f"Одна карта на страну ({rule_ru}).", f"One card per country ({rule_en}).")
    k = table.cards_of(country)
    if k.deck <= 0:
        return _refused("prepare.deck", f"Колода пуста ({rule_ru}).", f"The deck is empty ({rule_en}).")
    card_type = cmd.get("card_type")
    ops: list[dict] = [{"op": "used", "card": f"prepare:{country}"}]
    if card_type == "response":
        c = board.countries[country]
        if table.options.new_card_rules and not any(_copies_left(table, r) > 0
                                                    for r in default_catalogue().by_type("response", country)):
            return _refused("prepare.no_response", f"В колоде страны {c.ru} нет карт ответа ({rule_ru}).",
                            f"{c.en}'s deck holds no response card ({rule_en}).")
        ops.insert(0, {"op": "cards", "country": country, "deck": k.deck - 1, "responses": k.responses + 1})
        return _done(_r("prepare.response", f"{c.ru} кладёт из колоды закрытый ответ ({rule_ru}).",
                        f"{c.en} puts a face-down response from its deck on the table ({rule_en})."), tuple(ops))
    card = default_catalogue().get(cmd.get("card_id") or "")
    if card_type != "status" or card is None or card.type != "status":
        raise CommandError("prepare takes card_type status with its card_id, or card_type response")
    if card.country != country:
        return _check_named(board, country, card.id, "status")
    if _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    ops.insert(0, {"op": "cards", "country": country, "deck": k.deck - 1, "statuses": list(k.statuses) + [card.id]})
    return _done(_r("prepare.status", f"Из колоды сыгран статус «{card.name_ru}» ({rule_ru}).",
                    f"The status “{card.name_en}” is played from the deck ({rule_en})."), tuple(ops))


def _before_round_1(board, table) -> bool:
    """Has the first round not begun yet (the setup table, nothing played)?"""
    return (table.round, table.turn, table.phase) == (1, 0, "play") and not table.played and \
        table.position.pieces == new_table(board, table.options).position.pieces


def prepare_choices(board: Board, table: Table, country: str) -> list[dict]:
    """The «Подготовка к войне» taps open to ``country`` now (001's optional rule), each with its command:
    one per status card id of its deck that may still be put in play, and one face-down response
    (anonymous: no card_id; the owner's phone keeps which one) when its deck has responses left. Empty
    when the option is off, the country has prepared already, its deck is empty or round 1 has begun.
    Keys: action ("prepare"), country, card_type ("status" or "response"), card_id (None for the response),
    response_ids (the response only: the ids of the country's response cards that may still go face down,
    for its owner's phone), command."""
    if not table.options.prepare_for_war or country not in board.countries or table.finished \
            or f"prepare:{country}" in table.used or table.cards_of(country).deck <= 0 \
            or not _before_round_1(board, table):
        return []
    cat = default_catalogue()
    out = []
    for card in cat.by_type("status", country):
        if _copies_left(table, card) > 0:
            out.append({"action": "prepare", "country": country, "card_type": "status", "card_id": card.id,
                        "command": {"type": "prepare", "country": country, "card_type": "status",
                                    "card_id": card.id}})
    ids = [card.id for card in cat.by_type("response", country) if _copies_left(table, card) > 0]
    if ids:  # never cut off by the statuses' bound
        out = out[:program.MAX_CANDIDATES - 1]
        out.append({"action": "prepare", "country": country, "card_type": "response", "card_id": None,
                    "response_ids": ids, "command": {"type": "prepare", "country": country, "card_type": "response"}})
    return out[:program.MAX_CANDIDATES]


_COMMANDS = {
    "play_card": _cmd_play_card, "step": _cmd_step, "end_play": _cmd_end_play, "supply": _cmd_supply,
    "score": _cmd_score, "discard": _cmd_discard, "draw": _cmd_draw, "use_card": _cmd_use_card,
    "pass": _cmd_pass, "reallocate": _cmd_reallocate, "deploy_air": _cmd_deploy_air, "move_air": _cmd_move_air,
    "end_air": _cmd_end_air, "air_retreat": _cmd_air_retreat, "air_defence": _cmd_air_defence,
    "air_strike": _cmd_air_strike, "bolster": _cmd_bolster, "skip": _cmd_skip,
    "prepare": _cmd_prepare,
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
            out.append(_r("reminder.home", f"Домашний сектор страны {c.ru} занят противником: фаза победных очков "
                          "пропускается целиком, даже очки статусов. Карты, дающие очки сразу в фазе розыгрыша "
                          "(«Разграбление», «Субмарины»), очки всё равно приносят.",
                          f"{c.en}'s home space is held by the enemy: the victory step is skipped entirely, status "
                          "points included. Cards that score at once in the play step (Plunder, Submarines) still "
                          "score."))
            out.append(_r("reminder.ew_home", "Экономическая война действует на страну и при занятом домашнем "
                          "секторе.", "Economic Warfare hits a country even while its home space is occupied."))
    if table.phase == "play":
        closed = [board.straits[sid] for sid, team in strait_status(board, table.position).items()
                  if team != c.team]
        if closed:
            out.append(_r("reminder.straits", "Проливы, закрытые для вашего лагеря: " + ", ".join(
                f"«{s.ru}» ({' – '.join(board.spaces[x].ru for x in s.seas)})" for s in closed) + ".",
                "Straits closed to your team: " + ", ".join(
                f"{s.en} ({' – '.join(board.spaces[x].en for x in s.seas)})" for s in closed) + "."))
        for team in (AXIS, ALLIES):
            held = [h for owner, h in board.homes().items() if board.team_of(owner) != team
                    and home_occupier(board, table.position, owner) is not None]
            if len(held) == 1:
                t_ru, t_en = ("«Ось»", "The Axis") if team == AXIS else ("Коалиция", "The Allies")
                out.append(_r("reminder.one_home", f"{t_ru} уже держит один вражеский домашний сектор "
                              f"(«{board.spaces[held[0]].ru}»): второй — и игра сразу окончена.",
                              f"{t_en} already hold one enemy home space ({board.spaces[held[0]].en}): "
                              "a second one ends the game at once."))
        if table.played or table.pending:
            out.append(_r("reminder.discard_first", "Использованная карта уходит в сброс до того, как подействует "
                          "её текст; стоимость карты тоже платится заранее.",
                          "A used card is discarded before its text takes effect; its cost is paid first too."))
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
    if k.hand == 0 and table.phase != "draw":
        out.append(_r("reminder.hand_empty_discard", "Рука пуста: сброс «с руки» по карте берётся из колоды.",
                      "The hand is empty: a discard “from the hand” a card asks for comes from the deck."))
    if k.deck == 0:
        out.append(_r("reminder.deck_empty", "Колода пуста: сбросы из колоды теперь идут с руки, а без карт стоят ПО.",
                      "The deck is empty: discards from the deck now come from the hand, and without cards they cost VP."))
    out.append(_r("reminder.remove_own", "Свою фишку можно убрать с поля в любой момент, даже в чужой ход.",
                  "You may remove your own piece at any time, even in another country's turn."))
    return out
