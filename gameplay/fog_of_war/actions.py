"""Turn engine: rotation and expiry, the six actions, launch and quagmire resolution, end of turn.

Every function takes a state and returns an ``Outcome``; on success ``outcome.state`` is a new state
and the given one is untouched.
"""
from __future__ import annotations

import random

from gameplay.common import Outcome

from .battle import QUAGMIRE, VICTORY, BattleInput, card_flow, compute
from .board import other
from .cards import Card
from .events import cancel_op, cascade, check_allied_win, ussr_enters
from .state import SLOTS, GameState, Operation, Quagmire, draw_up_to
from .texts import ok, refuse


PARTNER_ACTIONS = ("new_op", "reinforce_op", "cancel_op", "launch", "intel")  # rule 2.10.1 names these


def is_reduced(st: GameState, side: str) -> bool:
    """A side whose deck has run out plays reduced turns (B-4 ``reduced``, the tracker's former reading)."""
    return st.settings.exhausted_turn_mode == "reduced" and not st.sides[side].deck


def partner(st: GameState) -> str | None:
    """B-4 ``within_turns`` (rules 2.10.1, 2.11): the side whose deck has run out, which acts inside the
    active side's turn (rotate, intel, operations; must play a hand card), or None."""
    if st.settings.exhausted_turn_mode != "within_turns" or st.phase != "turn" or st.winner:
        return None
    p = other(st.active_side)
    return p if st.exhausted(p) and not st.exhausted(st.active_side) else None


def partner_has_business(st: GameState, side: str) -> bool:
    """The partner still owes a hand card this turn (rule 2.9): the turn waits for it to play and confirm.
    Its other actions (intel, operations) are optional: with nothing owed the active side may end the turn."""
    return not must_play_ok(st, side)


def turn_check(st: GameState, side: str, *, play: bool = False, intel: bool = False,
               action: str | None = None) -> Outcome | None:
    if st.winner:
        return refuse("game_over")
    if st.phase != "turn":
        return refuse("wrong_phase", phase=st.phase)
    if side != st.active_side:
        if side != partner(st):
            return refuse("not_your_turn", side=st.active_side)
        if not st.turn_started:
            return refuse("partner_wait_rotation")
        if st.partner_done:
            return refuse("partner_already_done")
        if action not in PARTNER_ACTIONS:
            return refuse("partner_action")
        return None
    if st.sides[side].end_of_turn_intel and not intel:
        return refuse("intel_only_now")
    if play and is_reduced(st, side):
        return refuse("reduced_turn_no_play")
    return None


def _take_hand(st: GameState, side: str, card_ids: list[str]) -> list[Card] | Outcome:
    hand = st.sides[side].hand
    if not card_ids:
        return refuse("no_cards_given")
    taken = []
    for cid in dict.fromkeys(card_ids):
        card = next((c for c in hand if c.id == cid), None)
        if card is None:
            return refuse("card_not_in_hand", card=cid)
        taken.append(card)
    for c in taken:
        hand.remove(c)
    st.sides[side].cards_played_this_turn += len(taken)
    return taken


def _province(st: GameState, key: str) -> Outcome | None:
    return None if key in st.provinces else refuse("unknown_province", province=key)


def start_turn(state: GameState) -> Outcome:
    """Rotate the active side's wheel one notch; ops back at NEW OP are cancelled (§2.2-2.3)."""
    if state.winner:
        return refuse("game_over")
    if state.phase != "turn":
        return refuse("wrong_phase", phase=state.phase)
    st = state.copy()
    expired = _rotate(st, st.active_side)
    st.turn_no += 1
    st.turn_started = True
    st.partner_done = False
    side = st.sides[st.active_side]
    if st.settings.quagmire_trigger == "every_originator_turn":
        st.pending_quagmires = [k for k, p in st.provinces.items() if p.quagmire and p.quagmire.attacker == st.active_side]
    data = {"expired": expired, "pointer": side.wheel_pointer}
    p = partner(st)
    if p is not None:  # 2.10.1: the side without a deck rotates right after the active side
        data.update(partner=p, partner_expired=_rotate(st, p), partner_pointer=st.sides[p].wheel_pointer)
    return ok(st, **data)


def _rotate(st: GameState, side_key: str) -> list[str]:
    """One notch clockwise; operations back at NEW OP are cancelled (§2.3). Resets the must-play count."""
    side = st.sides[side_key]
    side.wheel_pointer = SLOTS[(SLOTS.index(side.wheel_pointer) + 1) % 6]
    expired = [o.slot for o in side.operations if side.position(o) == 0]
    for slot in expired:
        cancel_op(st, side_key, slot)
    side.cards_played_this_turn = 0
    side.hand_at_turn_start = len(side.hand)
    side.end_of_turn_intel = False
    return expired


def defend(state: GameState, side: str, province: str, card_ids: list[str]) -> Outcome:
    """Action 1: hand cards face down into an own or neutral province not in quagmire."""
    st = state.copy()
    bad = turn_check(st, side, play=True, action="defend") or _province(st, province)
    if bad:
        return bad
    prov = st.provinces[province]
    if prov.control not in (side, "neutral"):
        return refuse("defend_not_own")
    if prov.quagmire:
        return refuse("in_quagmire", province=province)
    cards = _take_hand(st, side, card_ids)
    if isinstance(cards, Outcome):
        return cards
    prov.defence[side].extend(c.shown(False) for c in cards)
    return ok(st)


def new_operation(state: GameState, side: str, target: str, card_ids: list[str], *, replace: bool = False) -> Outcome:
    """Action 2: province card plus >=1 hand card at NEW OP; an op already there is cancelled (confirm)."""
    st = state.copy()
    bad = turn_check(st, side, play=True, action="new_op") or _province(st, target)
    if bad:
        return bad
    s = st.sides[side]
    prov = st.provinces[target]
    if prov.control == side:
        return refuse("target_own")
    if prov.quagmire:
        return refuse("in_quagmire", province=target)
    if target not in s.province_deck:
        return refuse("province_card_missing", province=target)
    if not card_ids:
        return refuse("no_cards_given")
    at_new = [o for o in s.operations if s.position(o) == 0]
    if at_new and not replace:
        return refuse("confirm_replace")
    for o in at_new:
        cancel_op(st, side, o.slot)
    cards = _take_hand(st, side, card_ids)
    if isinstance(cards, Outcome):
        return cards
    s.province_deck.remove(target)
    s.operations.append(Operation(s.wheel_pointer, target, [c.shown(False) for c in cards], st.turn_no))
    if target == "balkans" and side == "axis" and st.year == 1940 and st.settings.balkans_attack_means == "created":
        st.flags["axis_attacked_balkans_1940"] = True
    return ok(st, slot=s.wheel_pointer, cancelled=[o.slot for o in at_new])


def cancel_operation(state: GameState, side: str, slot: str) -> Outcome:
    """Action 3 (also allowed in reduced turns)."""
    st = state.copy()
    bad = turn_check(st, side, action="cancel_op")
    if bad:
        return bad
    if st.sides[side].op(slot) is None:
        return refuse("no_such_op", slot=slot)
    cancel_op(st, side, slot)
    return ok(st)


def reinforce_operation(state: GameState, side: str, slot: str, card_ids: list[str]) -> Outcome:
    """Action 4: add hand cards face down to any own op."""
    st = state.copy()
    bad = turn_check(st, side, play=True, action="reinforce_op")
    if bad:
        return bad
    op = st.sides[side].op(slot)
    if op is None:
        return refuse("no_such_op", slot=slot)
    cards = _take_hand(st, side, card_ids)
    if isinstance(cards, Outcome):
        return cards
    op.cards.extend(c.shown(False) for c in cards)
    return ok(st)


def reinforce_quagmire(state: GameState, side: str, province: str, card_ids: list[str]) -> Outcome:
    """Action 6: either side adds face-down cards; the originator must then resolve it this turn (B-19)."""
    st = state.copy()
    bad = turn_check(st, side, play=True, action="reinforce_quagmire") or _province(st, province)
    if bad:
        return bad
    prov = st.provinces[province]
    if not prov.quagmire:
        return refuse("not_quagmire", province=province)
    cards = _take_hand(st, side, card_ids)
    if isinstance(cards, Outcome):
        return cards
    prov.quagmire_cards[side].extend(c.shown(False) for c in cards)
    if prov.quagmire.attacker == side and province not in st.pending_quagmires:
        st.pending_quagmires.append(province)
    return ok(st, must_resolve=province in st.pending_quagmires)


def check_origin(st: GameState, side: str, origin: str, target: str) -> Outcome:
    """Legal attack origin and supply line (§2.4, §2.5 step 3, §2.9, B-17). ``launch_supply_rule``:
    ``target`` (the seed: the line reaches the attacked province), ``target_and_origin``, ``origin`` (the
    tracker's former reading). Without a map of known adjacency the players check adjacency and supply."""
    bad = _province(st, origin)
    if bad:
        return bad
    o = st.provinces[origin]
    if o.control != side:
        return refuse("origin_not_own")
    if origin in st.pdef(target).no_attack_from:
        return refuse("origin_forbidden", origin=origin, target=target)
    if o.quagmire:
        return refuse("origin_quagmire")
    supplied = st.supplied(side)
    if supplied is None:
        return ok(supply="unknown", note_ru="Снабжение и соседство без полной карты поля проверяют игроки.",
                  note_en="Without a complete board map the players check adjacency and supply.")
    if not st.board.adjacent(origin, target):
        return refuse("origin_not_adjacent", origin=origin, target=target)
    rule = st.settings.launch_supply_rule
    if rule in ("origin", "target_and_origin") and origin not in supplied:
        return refuse("origin_unsupplied", origin=origin)
    if rule in ("target", "target_and_origin") and not st.reaches(side, target):
        return refuse("target_unreached", target=target)
    return ok(supply="supplied")


def wheel_mark(st: GameState, position: int, given: str | None) -> Outcome:
    """The mark at an op's wheel position (B-3): from the group's wheel, or asked where it is blank.
    ``data``: ``modifier``; refused when the position is not ready or its mark is unknown and not given."""
    mark = st.wheel(position)
    launchable, modifier = mark["launchable"], mark["modifier"]
    if launchable is None or modifier is None:
        if given not in ("none", "A+1", "D+1", "not_ready"):
            return refuse("wheel_mark_unknown", position=position)
        if launchable is None:
            launchable = given != "not_ready"
        if modifier is None:
            modifier = given if given in ("A+1", "D+1") else "none"
    if not launchable:
        return refuse("not_launchable", position=position)
    return ok(modifier=modifier)


def climate_known(st: GameState, key: str) -> bool:
    """The winter icon of a province is known: on a map that states it (games before the corrections: always)."""
    if st.settings.rules_edition < 2:
        return True
    return st.board is not None and key in st.board.provinces and "climate" not in st.pdef(key).unknown


def _revealed(cards: list[Card], reveal: dict[str, Card]) -> list[Card] | Outcome:
    out = [reveal.get(c.id, c) for c in cards]
    for c in out:
        if c.category == "unknown":
            return refuse("card_values_missing", card=c.id)
    return out


def launch_operation(state: GameState, side: str, slot: str, origin: str, *, use_superiority: bool = False,
                     wins_choice: list[str] | None = None, quagmire_choice: dict | None = None,
                     reveal: dict[str, Card] | None = None, amphibious: bool | None = None,
                     climate: str | None = None, rng: random.Random | None = None,
                     mark: str | None = None) -> Outcome:
    """Action 5 (§2.5): checks first (nothing revealed on refusal), then events, battle and card flow.

    ``reveal`` supplies ledger-mode card values by id; ``amphibious``/``climate`` override the map.
    """
    st = state.copy()
    bad = turn_check(st, side, action="launch")
    if bad:
        return bad
    s = st.sides[side]
    op = s.op(slot)
    if op is None:
        return refuse("no_such_op", slot=slot)
    pos = s.position(op)
    wm = wheel_mark(st, pos, mark)
    if not wm.legal:
        return wm
    target = st.provinces[op.target]
    if target.control == side:
        return refuse("target_own")
    if target.quagmire:
        return refuse("in_quagmire", province=op.target)
    orig = check_origin(st, side, origin, op.target)
    if not orig.legal:
        return orig
    # step 2: reveal the target, event hooks
    events = []
    if side == "axis" and st.is_ussr(op.target) and not st.flags["ussr_at_war"]:
        events.append({"ussr_enters": ussr_enters(st, mid_year=True, rng=rng)})
    if side == "axis" and op.target == "balkans" and st.year == 1940:
        st.flags["axis_attacked_balkans_1940"] = True
    # step 5: own defence cards in a (formerly) neutral target go to discard
    s.discard.extend(c.shown(False) for c in target.defence[side])
    target.defence[side] = []
    if amphibious is None:
        amphibious = st.pdef(origin).kind == "sea" and st.pdef(op.target).kind == "land"
    res = _fight(st, side, op.target, op.cards, from_quagmire=False, amphibious=amphibious,
                 wheel_modifier=wm.data["modifier"], use_superiority=use_superiority,
                 wins_choice=wins_choice, quagmire_choice=quagmire_choice, reveal=reveal or {},
                 climate=climate, rng=rng)
    if res.legal:
        s.operations.remove(op)
        res.data.update(events=events + res.data.get("events", []), supply=orig.data.get("supply"))
    return res


def resolve_quagmire(state: GameState, side: str, province: str, *, use_superiority: bool = False,
                     wins_choice: list[str] | None = None, quagmire_choice: dict | None = None,
                     reveal: dict[str, Card] | None = None, climate: str | None = None,
                     rng: random.Random | None = None) -> Outcome:
    """Fight a quagmire again (§2.6: no +4, no wheel modifier; winter and superiority apply)."""
    st = state.copy()
    bad = turn_check(st, side, action="resolve_quagmire") or _province(st, province)
    if bad:
        return bad
    prov = st.provinces[province]
    if not prov.quagmire:
        return refuse("not_quagmire", province=province)
    if prov.quagmire.attacker != side:
        return refuse("not_originator")
    attack = prov.quagmire_cards[side]
    res = _fight(st, side, province, attack, from_quagmire=True, amphibious=False, wheel_modifier="none",
                 use_superiority=use_superiority, wins_choice=wins_choice, quagmire_choice=quagmire_choice,
                 reveal=reveal or {}, climate=climate, rng=rng)
    if res.legal and province in res.state.pending_quagmires:
        res.state.pending_quagmires.remove(province)
    return res


def _fight(st: GameState, att: str, key: str, attack_cards: list[Card], *, from_quagmire: bool, amphibious: bool,
           wheel_modifier: str, use_superiority: bool, wins_choice, quagmire_choice, reveal, climate, rng) -> Outcome:
    """Compute and apply one battle on ``st`` (already a copy). Returns the Outcome with state and battle data."""
    dfd = other(att)
    prov = st.provinces[key]
    def_src = prov.quagmire_cards[dfd] + prov.defence[dfd] if from_quagmire else prov.defence[dfd]
    stacks = [_revealed(x, reveal) for x in (attack_cards, def_src, prov.neutral_cards)]
    for x in stacks:
        if isinstance(x, Outcome):
            return x
    holder_role = "attacker" if st.superiority == att else "defender"
    kind = st.pdef(key).kind
    cfg = st.settings
    inp = BattleInput(*stacks, kind=kind, amphibious=amphibious, winter=st.winter,
                      climate=climate or st.pdef(key).climate, wheel_modifier=wheel_modifier,
                      superiority=holder_role if use_superiority else None, from_quagmire=from_quagmire,
                      no_card_rule=cfg.no_card_rule, fort_at_sea=cfg.fort_at_sea)
    if st.winter and not climate and not climate_known(st, key):
        # the winter bonus may matter and the map does not say the icon: asked, never assumed (B-42),
        # and asked before the battle is computed, so that the question says nothing about the cards
        return refuse("climate_unknown", province=st.pdef(key).name_en or key,
                      province_ru=st.pdef(key).name_ru or st.pdef(key).name_en or key)
    br = compute(inp)
    fr = card_flow(br, kind, wins_choice=wins_choice, quagmire_choice=quagmire_choice, rng=rng,
                   wins_rule=cfg.wins_selection, quagmire_neutral_losses=cfg.quagmire_neutral_losses,
                   victory_removes_all_neutral=cfg.rules_edition >= 2)
    if not fr.legal:
        return fr
    flow = fr.data["flow"]
    orig = {c.id: c for x in stacks for c in x}  # the cards as printed (a fort counted at sea keeps its values)
    back = lambda cards: [orig.get(c.id, c) for c in cards]  # noqa: E731
    sa, sd = st.sides[att], st.sides[dfd]
    for s, role in ((sa, "attacker"), (sd, "defender")):
        for pile in ("discard", "losses", "wins"):
            getattr(s, pile).extend(c.shown(False, True) for c in back(flow[role][pile]))
    st.removed.extend(back(flow["neutral"]["removed"]))
    prov.neutral_cards = back(flow["neutral"]["stays"])
    prov.defence[dfd] = []
    prov.quagmire_cards = {"axis": [], "allies": []}
    known = [c.shown(False, True) for c in back(flow["attacker"]["stays"])]
    known_d = [c.shown(False, True) for c in back(flow["defender"]["stays"])]
    events = []
    if br.outcome == VICTORY:
        prov.quagmire = None
        prov.defence[att] = known
        if key in sd.in_front:
            sd.in_front.remove(key)
            sd.province_deck.append(key)
        sa.in_front.append(key)
        prov.control = att
        prov.neutrality_token = False
        if att == "axis":
            moved = cascade(st, key)
            if moved:
                events.append({"cascade": key, "provinces": moved})
        check_allied_win(st)
    elif br.outcome == QUAGMIRE:
        face = st.settings.quagmire_face_up
        prov.quagmire_cards = {att: [c.shown(face, True) for c in back(flow["attacker"]["stays"])],
                               dfd: [c.shown(face, True) for c in back(flow["defender"]["stays"])]}
        if not from_quagmire:
            prov.quagmire = Quagmire(att, st.turn_no)
    else:
        prov.quagmire = None
        prov.defence[dfd] = known_d
        sa.province_deck.append(key)
    if br.superiority_used:
        st.superiority = other(st.superiority)
    st.refresh_supply()
    return ok(st, battle=br, flow=flow, outcome=br.outcome, a=br.a, d=br.d, events=events)


def must_play_ok(st: GameState, side: str) -> bool:
    """§2.2 step 3: holding a card this turn obliges playing one (not in a reduced turn)."""
    s = st.sides[side]
    return is_reduced(st, side) or s.hand_at_turn_start == 0 or s.cards_played_this_turn > 0


def partner_done(state: GameState, side: str) -> Outcome:
    """B-4 ``within_turns``: the side without a deck has finished acting in this turn (it must have played a
    hand card if it held one, rule 2.9)."""
    st = state.copy()
    if st.winner:
        return refuse("game_over")
    if side != partner(st) or not st.turn_started:
        return refuse("partner_not")
    if st.partner_done:
        return refuse("partner_already_done")
    if not must_play_ok(st, side):
        return refuse("must_play")
    st.partner_done = True
    return ok(st)


def end_turn(state: GameState, side: str) -> Outcome:
    """Must-play and pending-quagmire checks, draw up to 3, winter flip, end of year, pass the turn.

    The turn passes only to a side whose deck still holds cards (rule 2.11, B-4 ``within_turns``); under
    ``own_turns`` and ``reduced`` the sides alternate."""
    st = state.copy()
    bad = turn_check(st, side, intel=True)
    if bad:
        return bad
    if st.pending_quagmires:
        return refuse("quagmire_pending", province=st.pending_quagmires[0])
    if not must_play_ok(st, side):
        return refuse("must_play")
    p = partner(st)
    if p is not None and not st.partner_done and partner_has_business(st, p):
        return refuse("partner_pending", side=p)
    s = st.sides[side]
    drawn = 0 if is_reduced(st, side) else draw_up_to(s)
    empty = [x for x in ("axis", "allies") if not st.sides[x].deck]
    winter_now = False
    if len(empty) == 1 and not st.winter:
        st.winter = winter_now = True
    s.end_of_turn_intel = False
    st.turn_started = False
    st.partner_done = False
    if len(empty) == 2:
        st.phase = "year_end"
        st.year_end = {"year": st.year, "done": []}
    elif st.settings.exhausted_turn_mode == "within_turns" and st.exhausted(other(side)):
        st.active_side = side  # 2.11: the opponent's deck is empty: this side plays again
    else:
        st.active_side = other(side)
    return ok(st, drawn=drawn, winter_now=winter_now, year_end=st.phase == "year_end",
              again=st.phase == "turn" and st.active_side == side)
