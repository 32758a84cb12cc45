"""The Air Marshal expansion's commands: the air step (deploy or move, one action, paid with a card), a
move as a response action, air retreat, air defence (also against a held removal), air strike, and bolster
cards entered by name."""
from __future__ import annotations

from gameplay.common import Outcome, refused

from . import air
from .airretreat import air_steps_open
from .inputs import unknown
from .commands_base import CommandError, _advance, _done, _need_phase, _other, _piece_ops, _r, _refused
from .rules import compute_supply, strait_status
from .state import Piece
from .tablestate import turn_context

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
        raise CommandError("deploy_air needs 'space' (a space id)" if space is None
                           else unknown("space", space, board.spaces))
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
    team = board.team_of(country)
    # card rules 6: the window is open only for a team someone of which is asked; a move as a response action is
    # also allowed in the play step while no window is open (never while it is the other team's turn)
    as_response = table.options.air_marshal and not cmd.get("_legacy") and (
        (table.window is not None and table.window == team)
        or (table.options.at_least(6) and table.window is None and table.phase == "play"
            and country != table.active(board)))
    if not as_response:
        problem = _air_step_problem(board, table, cmd)
        if problem:
            return problem
        country = table.active(board)
    src, dst = cmd.get("from_space"), cmd.get("space")
    for key, value in (("from_space", src), ("space", dst)):
        if value not in board.spaces:
            raise CommandError(f"move_air needs '{key}' (a space id)" if value is None
                               else unknown(key, value, board.spaces))
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
    if src not in board.spaces:
        raise CommandError("air_retreat needs 'from_space' (where the air force stands) and 'space' (where it goes; "
                           "left out: the air force is removed)" if src is None else unknown("from_space", src, board.spaces))
    if dst is not None and dst not in board.spaces:
        raise CommandError(unknown("space", dst, board.spaces))
    verdict = air.air_retreat(board, table.position, cmd["country"], src, dst,
                              compute_supply(board, table.position, turn_context(table)),
                              may_remove=table.options.at_least(6))
    if not verdict.legal:
        return refused(verdict.reason)
    return _done(verdict.reason, tuple(_piece_ops(verdict)))


def _cmd_air_step(board, table, cmd) -> Outcome:
    """A tap on a stranded air force's step (card rules 6): ``air_retreat`` with ``space`` (move there) or without
    (remove it), or ``air_defence`` (while its piece's attack may still be answered)."""
    problem = _need_air(board, table, cmd)
    if problem:
        return problem
    country = cmd["country"]
    step = next((st for st in air_steps_open(table) if st["by"] == country), None)
    if step is None:
        c = board.countries[country]
        return _refused("air.not_stranded", f"У страны {c.ru} нет авиации, которой нужно отступать (Air Marshal: "
                        "отступление).", f"{c.en} has no air force that has to retreat (Air Marshal: air retreat).")
    if cmd.get("action") == "air_defence":
        return _cmd_air_defence(board, table, {**cmd, "type": "air_defence"})
    dst = cmd.get("space") or None
    if dst is not None and dst not in board.spaces:
        raise CommandError(unknown("space", dst, board.spaces))
    return _cmd_air_retreat(board, table, {**cmd, "type": "air_retreat", "from_space": step["space"], "space": dst})


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
        raise CommandError("air_strike needs 'from_space' (where the striking air force stands)" if src is None
                           else unknown("from_space", src, board.spaces))
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
    return _done(_r("bolster.ok", f"{c.ru} {c.verb_ru('играет', 'играют')} с руки карту усиления «{name}»; её действия — шагами ниже.",
                    f"{c.en} plays the bolster card “{name}” from hand; enter its effects as steps."),
                 tuple(pay + [{"op": "used", "card": "bolster"}]))
