"""A scenario run through the engine: ``run_scenario(data) -> dict`` (behind ``manage.py qmg_play``).

A scenario is a table set up by hand plus a list of commands in the engine's own vocabulary (the
dicts ``table.apply_command`` takes, exactly what the web table sends). Every command goes through
``QmgStepper.apply`` — the web table's code path — and the answer tells, per command, whether it
was applied, why (Russian and English), and which card steps are open after it. The schema is in
docs/qmg-engine.md ("Card rulings: manage.py qmg_play").

Face-down responses are listed by id (their owner's private list, as on the owner's phone): a
reveal (``use_card``) of a response that is not in that list is refused, a ``play_card`` of a
response with a ``card_id`` puts the id into the list and sends the engine an anonymous card.
"""
from __future__ import annotations

from .board import Board, load_board
from .cards import default_catalogue
from .inputs import a_an, listed, one_of, unknown
from .state import Position, PositionError, validate_position
from .stepper import QmgStepper
from .table import (
    CARD_RULES, PHASES, CommandError, Cards, Options, Table, face_down_refusal, is_face_down_play, named_statuses, pending_view,
    step_choices,
)

MAX_COMMANDS = 500
MAX_PIECES = 120
MAX_COUNT = 60
_TOP_KEYS = {"options", "pieces", "cards", "round", "active", "phase", "vp", "commands"}
# a rulings-corpus file (gameplay/qmg/rulings/README.md) is a scenario with these keys too; a run ignores them
RULING_KEYS = {"title", "summary", "cites", "rules_on", "expect_table"}
COMMAND_RULING_KEYS = {"expect", "why"}  # per command: what the corpus expects of it and the rule it rests on
_CARD_KEYS = {"deck", "hand", "discard", "hand_ids", "statuses", "responses"}
_OPTION_KEYS = {"early_victory", "reallocate", "air_marshal", "air_limits", "prepare_for_war", "card_rules"}


def _int(value, where, lo=0, hi=MAX_COUNT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise PositionError(f"{where} must be a whole number {lo}..{hi}")
    return value


def _object(data: dict, key: str) -> dict:
    """An optional JSON object of the scenario (absent or null: empty); anything else is bad input."""
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise PositionError(f"'{key}' must be a JSON object, got {type(value).__name__}")
    return value


def _ids(value, where, country, card_type) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_COUNT:
        raise PositionError(f"{where} must be a list of at most {MAX_COUNT} card ids")
    cat = default_catalogue()
    for cid in value:
        card = cat.get(cid) if isinstance(cid, str) else None
        if card is None:
            raise PositionError(f"{where}: " + unknown("card id", cid, [c.id for c in cat.by_country(country)
                                                                   if not card_type or c.type == card_type] or cat.ids))
        if card.country != country:
            raise PositionError(f"{where}: {cid} is in {card.country}'s deck, not {country}'s (list it under "
                                f"cards.{card.country})")
        if card_type and card.type != card_type:
            raise PositionError(f"{where}: {cid} is {a_an(card.type)} card; {where.rsplit('.', 1)[-1]} takes "
                                f"{card_type} cards only")
    return value


def setup_table(board: Board, data: dict) -> tuple[Table, dict[str, list[str]], dict[str, list[str]]]:
    """The table a scenario describes, the known hand ids and the face-down responses by id."""
    if not isinstance(data, dict):
        raise PositionError("the scenario must be a JSON object")
    extra = set(data) - _TOP_KEYS - RULING_KEYS
    if extra:
        raise PositionError(f"unknown key(s): {', '.join(sorted(extra))} — accepted: "
                            f"{listed(sorted(_TOP_KEYS | RULING_KEYS))}")
    raw_opts = _object(data, "options")
    if set(raw_opts) - _OPTION_KEYS:
        raise PositionError(f"'options' is an object with keys among {', '.join(sorted(_OPTION_KEYS))}")
    air = bool(raw_opts.get("air_marshal"))
    limits = raw_opts.get("air_limits")
    if limits is None:
        limits = dict(board.air_forces_default) if air else {}
    if not isinstance(limits, dict) or any(k not in board.countries for k in limits):
        raise PositionError(f"'options.air_limits' maps country ids ({listed(board.turn_order)}) to numbers")
    options = Options(early_victory=bool(raw_opts.get("early_victory")), reallocate=bool(raw_opts.get("reallocate")),
                      dealt=12 if air else 10, air_marshal=air,
                      air_limits=tuple(sorted((k, _int(v, f"air_limits.{k}", 0, 9)) for k, v in limits.items()))
                      if air else (), prepare_for_war=bool(raw_opts.get("prepare_for_war")),
                      card_rules=_int(raw_opts.get("card_rules", CARD_RULES), "options.card_rules", 2, CARD_RULES))
    pieces = data.get("pieces", [])
    if not isinstance(pieces, list) or len(pieces) > MAX_PIECES:
        raise PositionError(f"'pieces' must be a list of at most {MAX_PIECES} pieces")
    if pieces and not all(isinstance(p, dict) for p in pieces):
        raise PositionError("each piece is an object {country, kind, space}")
    position = Position.from_dict({"pieces": pieces})
    if not air and any(p.kind == "air" for p in position.pieces):
        raise PositionError("a piece of kind 'air' (an air force) needs Air Marshal: "
                            "\"options\": {\"air_marshal\": true}")
    validate_position(board, position, dict(options.air_limits) if air else None)
    raw_cards = data.get("cards", {})
    if raw_cards is None:
        raw_cards = {}
    if not isinstance(raw_cards, dict) or set(raw_cards) - set(board.countries):
        wrong = sorted(set(raw_cards) - set(board.countries)) if isinstance(raw_cards, dict) else []
        raise PositionError(("'cards': " + unknown("country", wrong[0], board.turn_order)) if wrong else
                            f"'cards' maps country ids ({listed(board.turn_order)}) to their counts")
    cat = default_catalogue()
    cards, hands, responses = [], {}, {}
    for c in board.turn_order:
        raw = raw_cards.get(c, {})
        if raw is None:
            raw = {}
        if not isinstance(raw, dict) or set(raw) - _CARD_KEYS:
            raise PositionError(f"cards.{c}: an object with keys among {', '.join(sorted(_CARD_KEYS))}")
        deck_size = board.countries[c].deck
        statuses = _ids(raw.get("statuses", []), f"cards.{c}.statuses", c, "status")
        resp = _ids(raw.get("responses", []), f"cards.{c}.responses", c, "response")
        hand_ids = _ids(raw.get("hand_ids", []), f"cards.{c}.hand_ids", c, None)
        for cid in set(statuses + resp + hand_ids):
            if (statuses + resp + hand_ids).count(cid) > cat[cid].copies:
                raise PositionError(f"cards.{c}: more copies of {cid} than the deck holds ({cat[cid].copies})")
        hand = _int(raw.get("hand", 7), f"cards.{c}.hand")
        if len(hand_ids) > hand:
            raise PositionError(f"cards.{c}: more known hand ids than cards in hand")
        deck = _int(raw.get("deck", max(0, deck_size - 10)), f"cards.{c}.deck")
        discard = _int(raw.get("discard", 3), f"cards.{c}.discard")
        cards.append((c, Cards(deck, hand, discard, len(resp), tuple(statuses))))
        hands[c], responses[c] = list(hand_ids), list(resp)
    active = data.get("active", board.turn_order[0])
    if not isinstance(active, str) or active not in board.countries:
        raise PositionError(unknown("active country", active, board.turn_order))
    phase = data.get("phase", "play")
    phases = [p for p in PHASES if air or p != "air"]
    if phase == "air" and not air:
        raise PositionError("phase 'air' exists only with Air Marshal (\"options\": {\"air_marshal\": true}) — "
                            f"accepted here: {listed(phases)}")
    if not isinstance(phase, str) or phase not in phases:
        raise PositionError(one_of("phase", phase, phases))
    vp = _object(data, "vp")
    if set(vp) - {"axis", "allies"}:
        raise PositionError("'vp' is an object {axis, allies}")
    table = Table(position=Position.of(position.pieces, statuses=named_statuses(tuple(cards))), cards=tuple(cards),
                  round=_int(data.get("round", 1), "round", 1, board.rounds), turn=board.turn_order.index(active),
                  phase=phase, vp_axis=_int(vp.get("axis", 0), "vp.axis", -999, 999),
                  vp_allies=_int(vp.get("allies", 0), "vp.allies", -999, 999), options=options)
    return table, hands, responses


def state_view(board: Board, table: Table, responses: dict[str, list[str]], lang: str = "ru") -> dict:
    return {
        "pieces": sorted((p.to_dict() for p in table.position.pieces),
                         key=lambda p: (p["country"], p["kind"], p["space"])),
        "cards": {c: {"deck": k.deck, "hand": k.hand, "discard": k.discard, "responses": k.responses,
                      "statuses": list(k.statuses), "responses_by_id": list(responses.get(c, []))}
                  for c, k in table.cards},
        "vp": {"axis": table.vp_axis, "allies": table.vp_allies},
        "round": table.round, "active": table.active(board), "phase": table.phase, "played": table.played,
        "window": table.window, "protected": [dict(p) for p in table.protected],
        "held_removal": table.hold, "pending": pending_view(board, table, lang),
        "winner": table.winner, "end_reason": table.end_reason,
    }


def run_scenario(data: dict, board: Board | None = None, lang: str = "ru") -> dict:
    """Run a scenario; PositionError (a ValueError) on bad input."""
    board = board or load_board()
    table, hands, responses = setup_table(board, data)
    commands = data.get("commands", [])
    if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
        raise PositionError(f"'commands' must be a list of at most {MAX_COMMANDS} commands")
    stepper = QmgStepper(board, table.options)
    results = []
    for i, raw in enumerate(commands, 1):
        if not isinstance(raw, dict):
            raise PositionError(f"command #{i} must be a JSON object")
        command = {k: v for k, v in raw.items() if k not in COMMAND_RULING_KEYS}
        secret = None
        private_refusal = None
        try:
            country = stepper.acting_side(table, command)
            if country not in board.countries:
                raise CommandError(unknown("country", country, board.turn_order))
            if is_face_down_play(command) and command.get("card_id"):
                secret = command.pop("card_id")  # a face-down response stays anonymous, as on the web
                card = default_catalogue().get(secret) if isinstance(secret, str) else None
                if card is None or card.country != country or card.type != "response":
                    raise CommandError(f"{secret!r} is not one of {country}'s responses — accepted: " + listed(
                        c.id for c in default_catalogue().by_type("response", country)))
            if command.get("type") == "use_card":  # the same check as the web table's (owner's private list)
                private_refusal = face_down_refusal(table, country, command.get("card_id"), responses[country])
            if private_refusal:
                results.append({"applied": False, "code": private_refusal.code,
                                "reason": {"ru": private_refusal.ru, "en": private_refusal.en},
                                "pending": pending_view(board, table, lang)})
                continue
            out = stepper.apply(table, stepper.prepare(table, command, None))
        except CommandError as exc:
            raise PositionError(f"command #{i}: {exc}") from None
        entry = {"applied": out.ok, "code": out.reason.code, "reason": {"ru": out.reason.ru, "en": out.reason.en}}
        if out.notes:
            entry["notes"] = [{"code": n.code, "ru": n.ru, "en": n.en} for n in out.notes]
        if out.ok:
            table = out.state
            played = command.get("card_id")
            if command.get("type") == "play_card" and played in hands.get(country, []):
                hands[country].remove(played)
            if secret:
                responses[country].append(secret)
            if command.get("type") == "use_card" and command.get("card_id") in responses.get(country, []):
                responses[country].remove(command["card_id"])
            for c, k in table.cards:  # discarded blind (Blue Division, Magic): none left face down, none listed
                if k.responses == 0:
                    responses[c] = []
        entry["pending"] = pending_view(board, table, lang)
        results.append(entry)
    return {"commands": results, "state": state_view(board, table, responses, lang),
            "choices": [c["command"] for c in step_choices(board, table)]}
