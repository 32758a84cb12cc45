"""A battle's or a build's operations as the response window sees them: a removal held while the
defender's team could still answer it, pieces a card protects this turn, and the last action (and this
turn's battles) remembered for the cards that answer it."""
from __future__ import annotations

from gameplay.common import Outcome

from .cards import default_catalogue
from .commands_base import RULE_USE_EN, RULE_USE_RU, _other, _piece_ops, _r, _refused, piece_names
from .reasons import Reason
from .rules import Action
from .state import NAVY, Piece
from .tablestate import apply_ops
from .triggers import asked

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
    if table.options.at_least(6) and (table.last or {}).get("spent"):  # the statuses used, each for its event
        last["spent"] = table.last["spent"]
    if hit is not None and _holds(board, table, verdict, action, hit, last):
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
        if table.options.at_least(6):  # card rules 6: the defender's team (or the other team) may answer it
            ops.append({"op": "window", "team": board.team_of(hit.country) if hit else _other(board.team_of(action.country)),
                        "passes": 0})
    ops.append({"op": "last", "last": last})
    return ops


def _holds(board, table, verdict, action, hit: Piece, last: dict) -> bool:
    """Does the removal wait for the response window? Card rules 6: when someone of the defender's team is asked
    (public facts only: a status that saves it, a response of its deck that could, air defence); before: when the
    team holds any face-down response or a status such as Radar."""
    if not table.options.at_least(6):
        return _answerable(board, table, board.team_of(hit.country)) or _protects_now(board, table, hit)
    provisional = apply_ops(table, [{"op": "hold", "hold": {"piece": hit.to_dict(), "by": action.country}},
                                    *[op for op in _piece_ops(verdict, action) if op["op"] == "attack"],
                                    {"op": "last", "last": last}])
    # air defence answers the attack as well after the removal (it puts the piece back): it holds nothing
    return bool(asked(board, provisional, board.team_of(hit.country), air=False))


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
        if table.options.at_least(6) or _answerable(board, table, other):  # card rules 6: the window decides who
            ops.append({"op": "window", "team": other, "passes": 0})
    return ops


MAX_BATTLES = 20  # battles of one turn remembered (a card chain fights a handful)
