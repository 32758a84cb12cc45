"""Battle commands of the stepper (§2.5-2.8): launch an operation, resolve a quagmire again.

Ledger mode: every card of unknown value in the battle gets the value typed at reveal
(``reveal_attack`` / ``reveal_defence`` / ``reveal_neutral``, in stack order). A quagmire's random
halving is drawn by ``draw_quagmire_losses`` before the command is applied (``prepare``), so the
stored command holds it (``quagmire_choice``) and a replay gives the same losses.
"""
from __future__ import annotations

import random
from dataclasses import replace

from gameplay.common import Outcome

from . import actions as act
from .battle import QUAGMIRE, halving_count
from .board import other
from .cards import Card, parse_card
from .commands_base import (MAX_BATTLES, R, BadCommand, RevealMissing, card_record, done, need_rotation, no,
                            province_name, side_en, side_ru)
from .state import GameState
from .texts import OUTCOME_NAMES

BATTLE_COMMANDS = ("launch", "resolve_quagmire")
REVEAL_KEYS = ("reveal_attack", "reveal_defence", "reveal_neutral")


def _battle_piles(st: GameState, side: str, command: dict) -> tuple[list[Card], list[Card], list[Card]] | None:
    """The attack, the defender's own and the neutral stacks of the battle a command fights (None: no such battle)."""
    s, dfd = st.sides[side], other(side)
    if command["type"] == "resolve_quagmire":
        prov = st.provinces.get(command.get("province"))
        if prov is None:
            return None
        return prov.quagmire_cards[side], prov.quagmire_cards[dfd] + prov.defence[dfd], prov.neutral_cards
    op = s.op(command.get("slot"))
    if op is None:
        return None
    prov = st.provinces[op.target]
    return op.cards, prov.defence[dfd], prov.neutral_cards


def table_stacks(st: GameState, side: str, command: dict) -> tuple[list[str], list[str]]:
    """Card ids of the attack stack and of the defender's stack (own, then neutral) in their order on the
    table, for a battle command naming its ``slot`` or ``province``: the table's positions 1, 2, ... ."""
    piles = _battle_piles(st, side, command)
    if piles is None:
        return [], []
    att, dfn, neu = piles
    return [c.id for c in att], [c.id for c in dfn + neu]


def _reveal(st: GameState, side: str, command: dict) -> dict[str, Card]:
    """Ledger mode: typed values (in stack order) for every card of unknown value in the battle."""
    piles = _battle_piles(st, side, command)
    if piles is None:
        return {}
    owners = (side, other(side), "neutral")
    out = {}
    for stack, key, owner in zip(piles, REVEAL_KEYS, owners):
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


def run_battle(st: GameState, command: dict) -> Outcome:
    """The engine's battle for a launch or resolve_quagmire command (deterministic: the seed is in the command)."""
    side = command["side"]
    kw = {"use_superiority": bool(command.get("use_superiority")), "reveal": _reveal(st, side, command),
          "wins_choice": command.get("wins_choice"), "quagmire_choice": command.get("quagmire_choice"),
          "climate": command.get("climate") or None, "rng": random.Random(int(command.get("seed", 0)))}
    if command["type"] == "resolve_quagmire":
        return act.resolve_quagmire(st, side, command["province"], **kw)
    amph = command.get("amphibious")
    return act.launch_operation(st, side, command["slot"], command.get("origin", ""),
                                amphibious=None if amph in (None, "") else bool(amph),
                                mark=command.get("wheel_mark") or None, **kw)


def counted_stacks(st: GameState, command: dict) -> dict | None:
    """For a legal battle command: the outcome and the ids of the cards that count, per role (after the reveal)."""
    try:
        res = run_battle(st, {**command, "quagmire_choice": None, "seed": 0})
    except (BadCommand, KeyError, ValueError, TypeError):
        return None
    if not res.ok:
        return None
    br = res.data["battle"]
    return {"outcome": br.outcome, "attack": [c.id for c in br.attack], "defence": [c.id for c in br.defence],
            "neutral": [c.id for c in br.neutral]}


def draw_quagmire_losses(st: GameState, command: dict, rng: random.Random) -> dict | None:
    """§2.7 Quagmire: the random halving of both sides (the defender's own cards before neutral ones, B-22),
    or None when the command's battle is no quagmire."""
    stacks = counted_stacks(st, command)
    if not stacks or stacks["outcome"] != QUAGMIRE:
        return None
    att, dfn, neu = stacks["attack"], stacks["defence"], stacks["neutral"]
    k_att = halving_count(len(att))
    k_def = halving_count(len(dfn) + len(neu))
    n_own = min(k_def, len(dfn))
    return {"attacker": rng.sample(att, k_att), "defender": rng.sample(dfn, n_own) + rng.sample(neu, k_def - n_own)}


def _supply_answer(st: GameState, table: dict, c: dict) -> Outcome | None:
    """Supply not computed (no map, or a map of unknown adjacency): the players answer (B-17); recorded.

    ``launch_supply_rule``: ``target`` asks whether the supply line reaches the target (``supply_reaches``),
    ``origin`` whether the origin is supplied (``origin_supplied``), ``target_and_origin`` both."""
    if st.computes_supply() or c["type"] != "launch":
        return None
    rule = st.settings.launch_supply_rule
    if rule in ("origin", "target_and_origin"):
        ans = c.get("origin_supplied")
        if ans is None:
            return no("ask_supply", "Снабжение не считается без полной карты: подтвердите, снабжается ли исходная провинция (§2.9).",
                      "Supply is not computed without a complete map: confirm whether the origin province is supplied (§2.9).", "§2.9")
        table["supply_answers"][c["origin"]] = bool(ans)
        if not ans:
            return no("origin_unsupplied_answer", "По ответу игроков исходная провинция без снабжения — атака невозможна (§2.9 / B-17).",
                      "By the players' answer the origin is not supplied — no attack from there (§2.9 / B-17).", "§2.9 / B-17")
    if rule in ("target", "target_and_origin"):
        ans = c.get("supply_reaches")
        if ans is None:
            return no("ask_supply_target", "Снабжение не считается без полной карты: подтвердите, что линия снабжения доходит "
                      "до атакуемой провинции (её сосед — ваша точка снабжения или снабжаемая провинция, §2.5 п.3).",
                      "Supply is not computed without a complete map: confirm that your supply line reaches the attacked "
                      "province (it borders your supply point or a supplied province, §2.5 step 3).", "§2.5 / B-17")
        if not ans:
            return no("target_unreached_answer", "По ответу игроков линия снабжения не доходит до цели — запуск невозможен (§2.5 п.3 / B-17).",
                      "By the players' answer the supply line does not reach the target — no launch (§2.5 step 3 / B-17).",
                      "§2.5 / B-17")
    return None


def launch(st: GameState, table: dict, c: dict) -> Outcome:
    bad = need_rotation(st, c)
    if bad:
        return bad
    op = st.sides[c["side"]].op(c.get("slot"))
    if op is None:
        return no("no_op", "Такой операции нет.", "There is no such operation.", "§2.3")
    bad = _supply_answer(st, table, c)
    if bad:
        return bad
    r = run_battle(st, c)
    if not r.ok:
        return r
    return _record_battle(st, r, table, c, op.target)


def resolve_quagmire(st: GameState, table: dict, c: dict) -> Outcome:
    bad = need_rotation(st, c)
    if bad:
        return bad
    r = run_battle(st, c)
    if not r.ok:
        return r
    return _record_battle(st, r, table, c, c["province"])


def battle_record(st: GameState, r: Outcome, c: dict, target: str) -> dict:
    """The public record of a fought battle: every counted card was revealed on the table."""
    br, flow = r.data["battle"], r.data["flow"]
    return {
        "turn": st.turn_no, "year": st.year, "attacker": c["side"], "target": target, "origin": c.get("origin", ""),
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


def _record_battle(st: GameState, r: Outcome, table: dict, c: dict, target: str) -> Outcome:
    br, side = r.data["battle"], c["side"]
    table["battles"] = (table["battles"] + [battle_record(st, r, c, target)])[-MAX_BATTLES:]
    o = OUTCOME_NAMES[br.outcome]
    ru_t, en_t = province_name(st, target, "ru"), province_name(st, target, "en")
    ru = f"{side_ru(side)} {'атакуют' if side == 'allies' else 'атакует'} «{ru_t}»: A {br.a} против D {br.d} — {o[0]}."
    en = f"{side_en(side)} attacks {en_t}: A {br.a} against D {br.d} — {o[1]}."
    if r.state.winner:
        ru += f" Игра окончена: {'побеждают' if r.state.winner == 'allies' else 'побеждает'} {side_ru(r.state.winner)}."
        en += f" Game over: the {side_en(r.state.winner)} win."
    return done(r.state, R("battle", ru, en))


HANDLERS = {"launch": launch, "resolve_quagmire": resolve_quagmire}
