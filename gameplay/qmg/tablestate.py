"""The QMG table as a value, and the operations that change it.

``Table`` holds what the physical table shows: round, active country, phase, pieces, card counts
(deck, hand, discard, statuses face up, responses face down), team VP, the end of the game and the
card engine's open steps. ``apply_ops`` folds *operations* (the smallest changes, which an event
stores) into a table, so replaying a game's stored operations rebuilds its state exactly. The
commands that produce operations are in ``gameplay.qmg.table`` (the façade) and the modules it uses.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .board import AXIS, Board
from .cards import default_catalogue
from .rules import ACTION_TYPES
from .state import ARMY, Piece, Position

PHASES = ("play", "air", "supply", "victory", "discard", "draw")  # "air" only with Air Marshal
HAND_SIZE = 7
MAX_DECK = 80  # the most cards a national deck may be given (Options.decks)
# the card engine's rules level (Options.card_rules): 2 — the games created before guided to_deck costs,
# every play_from choice, Malta Submarines' own choice and air defence against a held battle (they replay by
# those rules exactly); 3 — the games created before printed play conditions were checked (a protect condition naming the protected
# piece's space never met, "when you battle a sea/land space" only right after the last battle, a printed
# play condition only limiting the effects); 4 — the games created before the disputed rulings were settled (a
# status's or response's trigger place — trigger_spaces / trigger_where — not checked, a victory-step status
# usable at any time, «Фольксштурм» not waiving the adjacent piece,
# «Автобаны» building armies never taken off); 5 — the games created before a card's steps were resolved lazily
# (an "any order" card's steps offered together, a step's condition judged when its turn comes), a stranded air
# force had to move or go at once, a Build card could be played on one's own supplied piece to trigger a status,
# and the response window asked only the countries that can answer; 6 — today's rules
CARD_RULES = 6
CARD_TYPES = ("build_army", "build_navy", "land_battle", "sea_battle", "status", "response", "event",
              "economic_warfare", "discard_unused", "bombing")  # bombing: Air Marshal only
BASIC_CARD_ACTION = {"build_army": "build_army", "build_navy": "build_navy",
                     "land_battle": "land_battle", "sea_battle": "sea_battle"}
STEP_TYPES = ACTION_TYPES + ("discard_from_deck", "gain_vp", "protect", "discard_status", "discard_response",
                             "play_from", "to_deck", "air_retreat", "air_defence")  # the last two: a stranded air force
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
    # card rules 6: the countries of the answering team that have declined in this turn of the window
    declined: tuple[str, ...] = ()

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
                "protected": [dict(p) for p in self.protected], "last": self.last, "gone": list(self.gone),
                **({"declined": list(self.declined)} if self.declined else {})}

    def with_engine(self, d: dict | None) -> "Table":
        d = d or {}
        return replace(self, pending=tuple(d.get("pending") or ()), hold=d.get("hold"),
                       protected=tuple(d.get("protected") or ()), last=d.get("last"),
                       gone=tuple(d.get("gone") or ()), declined=tuple(d.get("declined") or ()))

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
        t = replace(t, pending=(), hold=None, protected=(), last=None, declined=())
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
    return replace(t, window=op.get("team"), window_passes=op.get("passes", 0),
                   declined=tuple(op.get("declined") or ()))


def _op_attack(t, op):
    return replace(t, attack=op.get("attack"))


def _op_end(t, op):
    return replace(t, winner=op["winner"], end_reason=op["reason"])


_OPS = {"place": _op_place, "remove": _op_remove, "cards": _op_cards, "vp": _op_vp, "step": _op_step,
        "end": _op_end, "used": _op_used, "window": _op_window, "attack": _op_attack, "pending": _op_pending,
        "hold": _op_hold, "protect": _op_protect, "last": _op_last, "gone": _op_gone}
