"""Intel (spec §2.10): targets, cost, counter-intel bidding, view count, free looks."""
from __future__ import annotations

import random

from gameplay.common import Outcome

from .actions import turn_check
from .battle import halving_count
from .board import other
from .state import GameState
from .texts import ok, refuse

view_count = halving_count  # the spy sees half the stack, rounded down, at least 1


def intel_cost(end_of_turn: bool) -> int:
    return 1 if end_of_turn else 2


def bid_payments(rounds: int) -> list[tuple[str, int]]:
    """Counter-intel payments after the spy's opening: opponent 2, spy 1, opponent 1, ... (role, tokens)."""
    return [("opponent" if i % 2 == 0 else "spy", 2 if i == 0 else 1) for i in range(rounds)]


def target_stack(st: GameState, spy: str, target: dict) -> list | Outcome:
    """The items of a legal intel target; ``target`` = {"kind": defence|neutral|op|quagmire|objectives, ...}."""
    opp = other(spy)
    kind = target.get("kind")
    if kind in ("defence", "neutral", "quagmire"):
        key = target.get("province")
        if key not in st.provinces:
            return refuse("unknown_province", province=key)
        prov = st.provinces[key]
        if kind == "defence":
            return list(prov.defence[opp])
        if kind == "neutral":
            return list(prov.neutral_cards)
        return [c for c in prov.quagmire_cards[opp] if not c.face_up]
    if kind == "op":
        s = st.sides[opp]
        op = s.op(target.get("slot"))
        if op is None:
            return refuse("no_such_op", slot=target.get("slot"))
        if st.wheel(s.position(op))["no_intel"]:
            return refuse("intel_new_op")
        extra = [f"province_card:{op.target}"] if st.settings.intel_op_includes_target else []
        return list(op.cards) + extra
    if kind == "objectives":
        if spy != "allies":
            return refuse("intel_objectives_axis")
        if st.settings.allied_objective_peek == "free":
            return refuse("intel_objectives_free")
        return [o.province for o in st.objectives if o.location == "near_morocco"]
    return refuse("intel_bad_target")


def intel(state: GameState, spy: str, target: dict, *, end_of_turn: bool = False, counter_rounds: int = 0,
          rng: random.Random | None = None) -> Outcome:
    """One intel attempt with ``counter_rounds`` payments after the opening (see ``bid_payments``).

    ``data``: result (success/cancelled), paid per side, n, k and ``seen`` (spy only; drawn with ``rng``).
    """
    st = state.copy()
    s = st.sides[spy]
    bad = turn_check(st, spy, intel=True, action="intel")
    if bad:
        return bad
    if s.end_of_turn_intel and not end_of_turn:
        return refuse("intel_only_now")
    if s.end_of_turn_intel and not st.settings.intel_multi_end_of_turn:
        return refuse("intel_multi")
    stack = target_stack(st, spy, target)
    if isinstance(stack, Outcome):
        return stack
    if not stack:
        return refuse("intel_empty")
    cost = intel_cost(end_of_turn)
    if s.intel_available < cost:
        return refuse("intel_no_tokens", need=cost, have=s.intel_available)
    paid = {spy: cost, other(spy): 0}
    for role, amount in bid_payments(counter_rounds):
        payer = spy if role == "spy" else other(spy)
        if st.sides[payer].intel_available - paid[payer] < amount:
            return refuse("intel_counter_no_tokens", side=payer, need=amount)
        paid[payer] += amount
    for side, n in paid.items():
        st.sides[side].intel_available -= n
        st.sides[side].intel_used += n
    if end_of_turn:
        s.end_of_turn_intel = True
    success = counter_rounds % 2 == 0
    n, k = len(stack), view_count(len(stack))
    seen = []
    if success:
        seen = (rng or random.Random()).sample(stack, k)
    return ok(st, result="success" if success else "cancelled", paid=paid, n=n, k=k if success else 0, seen=seen)


def free_look(state: GameState, side: str, province: str | None = None, *, objectives: bool = False) -> Outcome:
    """Allied free look, at any moment and for no tokens: Baltics, Kiev, Odessa (and the Morocco objectives
    when ``allied_objective_peek`` is ``free``)."""
    if side != "allies":
        return refuse("free_look_denied")
    if objectives:
        if state.settings.allied_objective_peek != "free":
            return refuse("free_look_denied")
        return ok(state, seen=[o.province for o in state.objectives if o.location == "near_morocco"])
    if province not in state.provinces or not state.pdef(province).allies_may_view_neutral:
        return refuse("free_look_denied")
    return ok(state, seen=list(state.provinces[province].neutral_cards))
