"""A stranded air force (Air Marshal, card rules 6): the moment an air force stands where its country has no
army or navy, its owner must move it to an adjacent space with one, or it goes (quick reference 001,
«Отступление»). The engine opens a step for it in front of the open card steps — its choices are the adjacent
spaces, «Убрать» and, while the piece it stood with was just attacked, air defence — and nothing else is
accepted until its owner has chosen; with no space to go to and no air defence it is removed at once."""
from __future__ import annotations

from .air import retreat_options
from .commands_base import _r
from .program import AIR_RETREAT
from .reasons import Reason
from .rules import compute_supply
from .state import AIR, Piece
from .tablestate import Table, turn_context

# the commands a stranded air force's owner (or anyone, for their own pieces) may still send while it waits
AIR_STEP_ACTIONS = ("air_retreat", "air_defence")


def air_retreat_on(table: Table) -> bool:
    """Does this game resolve stranded air forces by a step (Air Marshal and card rules 6)?"""
    return table.options.air_marshal and table.options.at_least(6)


def can_defend(table: Table, air: Piece) -> bool:
    """May ``air``'s country still answer the last attack with air defence (its piece there was attacked and
    removed, the defence not used yet)?"""
    hit = table.attack or {}
    return bool(hit) and not hit.get("defended") and hit.get("country") == air.country \
        and hit.get("space") == air.space and table.options.new_card_rules


def air_steps_open(table: Table) -> list[dict]:
    return [st for st in table.pending if st["kind"] == AIR_RETREAT]


def settle_air(board, table: Table) -> tuple[list[dict], list[Reason]]:
    """The operations that bring ``table``'s stranded air forces in line with the rule: a step for each (in front
    of the open card steps), the steps of air forces no longer stranded closed, and an air force with nowhere to
    go (and no air defence) removed at once — with the reason for everyone's log."""
    if not air_retreat_on(table) or table.finished:
        return [], []
    supply = compute_supply(board, table.position, turn_context(table))
    ops: list[dict] = []
    notes: list[Reason] = []
    wanted = []
    for p in sorted(supply.stranded_air()):
        options = retreat_options(board, table.position, p.country, p.space, supply.straits)
        defence = can_defend(table, p)
        if not options and not defence:
            ops.append({"op": "remove", **p.to_dict()})
            c, sp = board.countries[p.country], board.spaces[p.space]
            notes.append(_r("air.retreat_removed", f"Авиация страны {c.ru} в секторе «{sp.ru}» осталась без армии и "
                            f"флота своей страны, а соседнего сектора с ними нет — она снята с поля (Air Marshal: "
                            f"отступление).", f"{c.en}'s air force in {sp.en} is left with no army or navy of its "
                            f"country and no adjacent space has one — it is removed (Air Marshal: air retreat)."))
            continue
        wanted.append({"card": AIR_RETREAT, "kind": AIR_RETREAT, "by": p.country, "space": p.space,
                       "optional": False, "left": 1, **({"defence": True} if defence else {})})
    pending = wanted + [st for st in table.pending if st["kind"] != AIR_RETREAT]
    if pending != list(table.pending):
        ops.append({"op": "pending", "steps": pending})
    return ops, notes


def air_retreat_choices(board, table: Table, step: dict) -> list[dict]:
    """The owner's taps for a stranded air force: air defence (while its piece's attack may still be answered),
    each adjacent space with its country's army or navy, and «Убрать». Keys: action, country, from_space, space
    (the destination; none for air defence and removal), label ({ru, en}), command."""
    country, src = step["by"], step["space"]
    if Piece(country, AIR, src) not in table.position.pieces:
        return []
    supply = compute_supply(board, table.position, turn_context(table))
    out = []
    if step.get("defence"):
        out.append({"action": "air_defence", "country": country, "from_space": src,
                    "label": {"ru": "Применить авиазащиту", "en": "Use air defence"},
                    "command": {"type": "step", "country": country, "action": "air_defence"}})
    for s in retreat_options(board, table.position, country, src, supply.straits):
        sp = board.spaces[s]
        out.append({"action": "air_retreat", "country": country, "from_space": src, "space": s,
                    "label": {"ru": f"Перелететь: {sp.ru}", "en": f"Move to {sp.en}"},
                    "command": {"type": "step", "country": country, "action": "air_retreat", "space": s}})
    out.append({"action": "air_retreat", "country": country, "from_space": src,
                "label": {"ru": "Убрать авиацию", "en": "Remove the air force"},
                "command": {"type": "step", "country": country, "action": "air_retreat"}})
    return out


def air_first_refusal(board, table: Table, command: dict):
    """The reason a command waits while a stranded air force's owner has not chosen (None: it may go ahead)."""
    steps = air_steps_open(table)
    if not steps or not air_retreat_on(table):
        return None
    kind = command.get("type")
    if kind in ("air_retreat", "air_defence", "air_strike"):
        return None
    if kind == "step" and command.get("action") in AIR_STEP_ACTIONS + ("remove",):
        return None
    head = steps[0]
    c, sp = board.countries[head["by"]], board.spaces[head["space"]]
    return _r("air.retreat_first", f"Сначала авиация страны {c.ru} в секторе «{sp.ru}»: она осталась без армии и флота "
              f"и сразу перелетает в соседний сектор с ними или уходит с поля — решает {c.ru} (Air Marshal: "
              f"отступление).", f"First {c.en}'s air force in {sp.en}: left with no army or navy, it moves at once to "
              f"an adjacent space with one or leaves the board — {c.en} decides (Air Marshal: air retreat).")
