"""Reads of a QMG game: its board, options and table as the engine sees them, and the VP track."""
from __future__ import annotations

from functools import lru_cache

from django.utils.translation import gettext as _

from gameplay.qmg import Board, Piece, Position, load_board
from gameplay.qmg.table import CARD_RULES as ENGINE_CARD_RULES, HAND_SIZE, MAX_DECK, Cards, Options, Table, named_statuses

from tracker.core import rows
from tracker.core.models import Event, Game, GameState
from tracker.core.memo import Memo
from tracker.core.registry import Unavailable

from .models import BoardVariant, CountryCards, Piece as PieceRow, QmgTable
from .variants import PatchError, check_patch


# the create event's "rules": the card engine's level the game is played by (gameplay.qmg.table.CARD_RULES;
# 2: a game created before the guided to_deck costs and Malta's choice; 3: before the placeholder,
# battle-chain and play-condition fixes); none: the old rules, before the engine
CARD_RULES = ENGINE_CARD_RULES
KNOWN_RULES = tuple(range(2, CARD_RULES + 1))


def rules_of(command) -> int | None:
    """The card rules level a create command records, or None (a game from before the card engine)."""
    rules = command.get("rules") if isinstance(command, dict) else None
    return rules if isinstance(rules, int) and not isinstance(rules, bool) and rules in KNOWN_RULES else None


def rules_level(game: Game) -> int | None:
    """The card rules the whole game — replay and new moves alike — is played by, so a stored game replays to
    the position it was stored with; None: created before the card engine (free card steps). Decided per
    game, never per command."""
    key = (game.pk, game.host_token, game.spectator_token)  # a game's create event never changes: read once per process
    if key in _RULES_SEEN:
        return _RULES_SEEN[key]
    create = Event.objects.filter(game=game, kind=Event.CREATE).values_list("command", flat=True).first()
    if create is None:  # being created or imported: today's rules until its log says otherwise
        return CARD_RULES
    return _RULES_SEEN.keep(key, rules_of(create))


_RULES_SEEN = Memo(4096)


def legacy_rules(game: Game) -> bool:
    """Was the game created before the card engine (its create event without ``rules``)?"""
    return rules_level(game) is None


def variant_id_of(game: Game) -> int | None:
    """The game's board variant (None: the printed board), read once per process: it is chosen at creation."""
    key = (game.pk, game.host_token, game.spectator_token)  # random tokens: no other game has them
    variant_id = _VARIANT_OF.get(key, False)
    if variant_id is False:
        found = rows.fetch(QmgTable, "game_id = %s", [game.pk])
        variant_id = _VARIANT_OF.keep(key, found[0].board_variant_id if found else game.qmg.board_variant_id)
    return variant_id


def board_of(game: Game) -> Board:
    variant_id = variant_id_of(game)
    if variant_id is None:
        return load_board()
    patch = BoardVariant.objects.filter(pk=variant_id).values_list("patch", flat=True).first()
    return _variant_board(variant_id, patch or "")


_VARIANT_OF = Memo(4096)


@lru_cache(maxsize=32)
def _variant_board(variant_id: int, patch: str) -> Board:
    """The variant's board, checked as a new patch is (a variant stored before the current bounds, or
    edited in the database, is refused with the reason instead of costing every page view)."""
    try:
        return check_patch(patch).board
    except PatchError as exc:
        raise Unavailable(_("This game's board variant can no longer be used: %(error)s The host can "
                            "correct the variant on the boards page and start a new game on it.") % {"error": exc}) from None


def options_of(game: Game) -> Options:
    return options_from(game.options or {}, rules_level(game) or CARD_RULES)


def _counts(value, lo: int, hi: int) -> dict[str, int]:
    """{country: n} from stored options, keeping only known countries with whole numbers in [lo, hi]."""
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if k in load_board().countries and isinstance(v, int)
            and not isinstance(v, bool) and lo <= v <= hi}


def options_from(o: dict, card_rules: int = CARD_RULES) -> Options:
    """The engine's options from a game's stored options (Air Marshal: 12 dealt, air forces per country)."""
    air = bool(o.get("air_marshal"))
    limits = o.get("air_forces") or (dict(load_board().air_forces_default) if air else {})
    decks = _counts(o.get("decks"), HAND_SIZE + 12, MAX_DECK) if air else {}  # an imported file's values are bounded, not trusted
    return Options(early_victory=bool(o.get("early_victory")), reallocate=bool(o.get("reallocate")),
                   dealt=12 if air else 10, air_marshal=air,
                   air_limits=tuple(sorted((k, int(v)) for k, v in limits.items())) if air else (),
                   prepare_for_war=bool(o.get("prepare_for_war")),
                   decks=tuple(sorted((str(k), int(v)) for k, v in decks.items())), card_rules=card_rules)


def table_of(game: Game, board: Board | None = None) -> Table:
    """The table from the projection models (four queries, tracker.core.rows)."""
    board = board or board_of(game)
    found = rows.fetch(QmgTable, "game_id = %s", [game.pk])
    if not found:
        raise QmgTable.DoesNotExist(f"game {game.pk} has no QMG table")
    t = found[0]
    pieces = [Piece(p.country, p.kind, p.space) for p in rows.fetch(PieceRow, "game_id = %s", [game.pk], "id")]
    cards = {c.country: Cards(c.deck, c.hand, c.discard, c.responses, tuple(c.statuses))
             for c in rows.fetch(CountryCards, "game_id = %s", [game.pk])}
    ordered = tuple((c, cards[c]) for c in board.turn_order)
    # the statuses face up act on supply and scoring: the position carries them, as after a move
    return Table(
        position=Position.of(pieces, statuses=named_statuses(ordered)), cards=ordered,
        round=t.round, turn=t.turn, phase=t.phase, played=t.played or None,
        vp_axis=t.vp_axis, vp_allies=t.vp_allies, winner=game.winner or None,
        end_reason=t.end_reason or None, options=options_of(game), used=tuple(t.used or ()),
        window=t.window or None, window_passes=t.window_passes, attack=t.attack,
    ).with_engine(next((row.state for row in rows.fetch(GameState, "game_id = %s", [game.pk])), None))


def canonical(table: Table) -> dict:
    """The table as data with pieces in a fixed order (the order of placement is not on the board)."""
    d = table.to_dict()
    d["position"]["pieces"] = sorted(d["position"]["pieces"], key=lambda p: (p["country"], p["kind"], p["space"]))
    return d


def vp_series(game: Game) -> list[tuple[int, int, int]]:
    """Team VP after each round's moves so far, [(round, axis, allies), ...] from round 0, filled forward."""
    found = rows.fetch(QmgTable, "game_id = %s", [game.pk])
    return fill_rounds(found[0].vp_rounds if found else game.qmg.vp_rounds)


def fill_rounds(points) -> list[tuple[int, int, int]]:
    per_round = {0: (0, 0), **{int(r): (a, b) for r, a, b in points}}
    series, current = [], (0, 0)
    for r in range(0, max(per_round) + 1):
        current = per_round.get(r, current)
        series.append((r, *current))
    return series
