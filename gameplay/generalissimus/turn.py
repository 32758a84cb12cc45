"""Turn state machine: orders face down by zone -> initiative -> reveal steps -> end of turn (§2.1)."""
from __future__ import annotations

from gameplay.common import Outcome

from . import actions as act
from .core import AskChoices, ChoiceNeeded, InputError, victory
from .reasons import no, ok, reason, reason_dict
from .settings import Settings
from .state import CARD_TYPES, ZONES, GameState, OrderCard, StateError, Unit, enemy_of

SIDES = ("south", "north")


def new_game(units: list[Unit], terrain: dict | None = None, settings: Settings | None = None,
             piles: dict | None = None) -> GameState:
    """A game in the orders phase of turn 1 with each side's order pile built from `piles`."""
    settings = settings or Settings()
    cards = []
    for side in SIDES:
        comp = (piles or {}).get(side, settings.pile_composition)
        for ctype in CARD_TYPES:
            for i in range(1, comp.get(ctype, 0) + 1):
                cards.append(OrderCard(id=f"{side[0].upper()}-{ctype}-{i}", owner=side, type=ctype))
    return GameState(units=units, terrain=dict(terrain if terrain is not None else settings.terrain_map),
                     cards=cards, settings=settings, phase="orders")


def _phase(s: GameState, phase: str) -> Outcome | None:
    if s.phase == "finished":
        return no("game_over")
    return None if s.phase == phase else no("wrong_phase", phase=s.phase)


def place_order(s: GameState, side: str, card_type: str, zone: str) -> Outcome:
    """Put one card of `card_type` face down beside `zone`."""
    bad = _phase(s, "orders")
    if bad:
        return bad
    if zone not in ZONES or card_type not in CARD_TYPES or side not in SIDES:
        raise InputError("place_order needs a side, a card type and a zone")
    if side in s.confirmed:
        return no("confirmed", side=side)
    cap = s.settings.orders_per_turn_cap
    placed = [c for c in s.cards if c.owner == side and c.state == "placed"]
    if cap is not None and len(placed) >= cap:
        return no("cap_reached", n=cap)
    card = next((c for c in s.cards if c.owner == side and c.type == card_type and c.state == "in_pile"), None)
    if card is None:
        return no("pile_empty", card=card_type)
    s = s.copy()
    c = next(c for c in s.cards if c.id == card.id)
    c.state, c.zone, c.placed_turn = "placed", zone, s.turn
    return ok("placed", s, details={"card": c.id}, zone=zone)


def confirm_orders(s: GameState, side: str) -> Outcome:
    bad = _phase(s, "orders")
    if bad:
        return bad
    s = s.copy()
    if side not in s.confirmed:
        s.confirmed.append(side)
    if set(s.confirmed) == set(SIDES):
        s.phase, s.initiative_rolls = "initiative", {"south": [], "north": []}
    return ok("confirmed", s, side=side)


def roll_initiative(s: GameState, south: int, north: int) -> Outcome:
    """One d6 per player; a tie must be rolled again (A-14)."""
    bad = _phase(s, "initiative")
    if bad:
        return bad
    if s.initiative_winner is not None:
        return no("wrong_phase", phase="initiative (zone order pending)")
    for v in (south, north):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise InputError("initiative rolls must be integers 1..6")
    s = s.copy()
    s.initiative_rolls["south"].append(south)
    s.initiative_rolls["north"].append(north)
    if south == north:
        return ok("initiative_tie", s, n=south)
    s.initiative_winner = "south" if south > north else "north"
    return ok("initiative_won", s, winner=s.initiative_winner)


def choose_zone_sequence(s: GameState, side: str, sequence: list[str]) -> Outcome:
    bad = _phase(s, "initiative")
    if bad:
        return bad
    if side != s.initiative_winner:
        return no("not_initiative_winner")
    if sorted(sequence) != sorted(ZONES):
        return no("bad_sequence")
    s = s.copy()
    s.zone_sequence, s.zone_index, s.step, s.phase = list(sequence), 0, 0, "actions"
    _skip_empty_zones(s)
    return ok("zones_set", s, n=", ".join(sequence))


def _placed(s: GameState, side: str, zone: str | None) -> list[OrderCard]:
    return [c for c in s.cards if c.owner == side and c.state == "placed" and c.zone == zone]


def _skip_empty_zones(s: GameState) -> None:
    while s.zone_index < len(s.zone_sequence) and not any(_placed(s, side, s.current_zone) for side in SIDES):
        s.zone_index += 1
    if s.zone_index >= len(s.zone_sequence):
        s.phase = "end_of_turn"


def face_down_counts(s: GameState) -> dict:
    """What the opponent may see: face-down card counts per side and zone (§4)."""
    return {side: {z: len(_placed(s, side, z)) for z in ZONES} for side in SIDES}


# --- reveal step ---------------------------------------------------------------------
def _entry(s: GameState, side: str, rev: dict, zone: str) -> dict:
    ids = rev.get("cards") or [rev.get("card")]
    placed = {c.id: c for c in _placed(s, side, zone)}
    if not all(i in placed for i in ids):
        missing = next(i for i in ids if i not in placed)
        raise InputError(reason("card_not_placed", card=missing, zone=zone)["en"])
    types = [placed[i].type for i in ids]
    if len(ids) == 2 and types == ["form_up", "form_up"]:
        kind = "rally"
    elif len(ids) == 1:
        kind = types[0]
    else:
        raise InputError("reveal one card, or two Form up cards for a rally")
    if not isinstance(rev.get("unit"), str):
        raise InputError("a revealed card must name its unit")
    return {"side": side, "cards": ids, "kind": kind, "rev": rev, "role": "own"}


USES = ("charge", "advance", "meet")


def bayonets_use(rev: dict) -> str:
    """What the owner named a Bayonets! card for (§2.5.4 step 0): ``charge`` (a target named),
    ``advance`` or ``meet`` (wait for a charge on this unit in the same step)."""
    use = rev.get("use")
    if use:
        return use
    return "charge" if rev.get("target") else "meet"


class _Stop(Exception):
    """The probe reached something the step still needs (dice, a decision, a choice)."""


def _run(s: GameState, e: dict, zone: str, counter: dict | None, choices: dict) -> Outcome:
    """Carry out one non-fire card on state `s`."""
    r, side, uid = e["rev"], e["side"], e["rev"]["unit"]
    kind = e["kind"]
    if kind == "move":
        return act.move(s, uid, side=side, zone=zone, to=r.get("to"), path=r.get("path"),
                        facing=r.get("facing"), formation=r.get("formation"))
    if kind == "manoeuvre":
        return act.manoeuvre(s, uid, r.get("direction"), side=side, zone=zone)
    if kind == "form_up":
        return act.form_up(s, uid, r.get("formation"), side=side, zone=zone)
    if kind == "rally":
        return act.rally(s, uid, side=side, zone=zone)
    if kind == "retreat":
        return act.retreat(s, uid, side=side, zone=zone)
    if kind == "bayonets":
        use = bayonets_use(r)
        if use == "advance":
            return act.bayonet_advance(s, uid, path=r.get("path"), facing=r.get("facing"), side=side, zone=zone)
        if not r.get("target"):
            return no("charge_target", target="-")
        return act.charge(s, uid, r["target"], attacker_dice=r.get("dice"),
                          defender_dice=counter["rev"].get("dice") if counter else None,
                          counter=counter is not None, retreat_choices=choices, side=side, zone=zone)
    raise InputError(f"cannot run card type {kind}")


def reveal_step(s: GameState, reveals: dict, choices: dict | None = None, reactions: dict | None = None,
                melee_dice: dict | None = None) -> Outcome:
    """Resolve one step: each side with cards left in the zone reveals one (§2.5.4).

    `reveals` maps side -> {"card": id | "cards": [id, id], "unit": id, "use" (Bayonets!: charge,
    advance, meet), ...card parameters, "dice"} or None. `choices` maps a unit id to the sector its
    owner chose to fall back to (else the engine's proposal); `reactions` maps a charged unit to the
    face-down Bayonets! card its owner turns over to meet the charge, or "none"
    (``counter_charge_timing = reaction``), with that side's melee dice in `melee_dice` (side -> faces)."""
    return _step(s, reveals, choices, reactions, melee_dice, None)


def step_needs(s: GameState, reveals: dict, choices: dict | None = None, reactions: dict | None = None,
               melee_dice: dict | None = None, ask_owner: bool = True) -> tuple[list[dict], bool]:
    """What the step needs before it can be carried out, in the order the engine meets it, and
    whether everything is there. Each need: ``{"side", "roll"}`` plus

    - ``fire``: n, unit, target, kind, bonus, mode, given (all volleys of the step at once);
    - ``melee``: n, unit, target, role (attacker / defender), mods, given (both sides at once);
    - ``react``: unit (the charged unit), attacker, given (``reaction`` timing only);
    - ``retreat``: unit, options (the engine's proposal first), given.

    The answer stops at the first need that is not given (later ones depend on it). With
    ``ask_owner`` false (battles stored before the owners chose) the engine's proposals stand in
    for the retreat choices and no reaction is asked."""
    needs: list[dict] = []
    try:
        out = _step(s, reveals, choices, reactions, melee_dice, needs, ask_owner)
    except _Stop:
        return needs, False
    if not out.ok:
        return [], True  # nothing to ask: the step is refused as a whole
    return needs, True


def _step(s, reveals, choices, reactions, melee_dice, probe: list | None, ask_owner: bool = True) -> Outcome:
    bad = _phase(s, "actions")
    if bad:
        return bad
    zone = s.current_zone
    entries = []
    for side in SIDES:
        rev = reveals.get(side)
        has = bool(_placed(s, side, zone))
        if has and not rev:
            return no("must_reveal", side=side)
        if rev and not has:
            return no("nothing_to_reveal", side=side)
        if rev:
            entries.append(_entry(s, side, rev, zone))
    start = s.copy()
    s = s.copy()
    outcome: dict[str, dict] = {}
    events: list = []  # what happened on the table, in order
    for e in entries:
        for cid in e["cards"]:
            next(c for c in s.cards if c.id == cid).state = "revealed"
    first = s.initiative_winner or "south"
    entries.sort(key=lambda e: e["side"] != first)
    picks = AskChoices() if probe is not None and ask_owner else {}
    for e in entries:  # choices typed into a case file with the card (the CLI), then the owners' choices
        picks.update(e["rev"].get("retreat_choices") or {})
    picks.update(choices or {})
    reactions, melee_dice = reactions or {}, melee_dice or {}

    def settle(e, res: Outcome):
        state = "executed" if res.ok else "void"
        for cid in e["cards"]:
            next(c for c in s.cards if c.id == cid).state = state
            outcome[cid] = {"state": state, "code": res.reason.code, "reason": reason_dict(res.reason),
                            "details": res.data}

    # 1-2. validate fire against the start state, then resolve all volleys together
    shots, fire_entries = [], []
    for e in entries:
        if e["kind"] in act.FIRE_TYPES:
            r = e["rev"]
            bad = act.check_fire(start, e["kind"], r["unit"], r.get("target"), side=e["side"], zone=zone)
            if bad:
                settle(e, bad)
            else:
                shots.append({"type": e["kind"], "unit": r["unit"], "target": r.get("target"),
                              "dice": r.get("dice"), "side": e["side"]})
                fire_entries.append(e)
    if probe is not None and shots:
        for shot in shots:
            u, t = start.unit(shot["unit"]), start.unit(shot["target"])
            bonus = act.fire_bonus(start, u, t)
            probe.append({"side": shot["side"], "roll": "fire", "kind": shot["type"], "n": act.fire_dice_count(start, u, t),
                          "unit": u.id, "target": t.id, "bonus": bonus, "mode": start.settings.fire_bonus_mode,
                          "given": bool(shot["dice"])})
        if not all(n["given"] for n in probe):
            raise _Stop
    if shots:
        res = act.fire(s, shots, zone=zone)
        events.extend(res.changes)
        cards = [c for c in s.cards]  # keep card states across the state swap
        s = res.state
        s.cards = cards
        for e, shot in zip(fire_entries, res.data["shots"]):
            settle(e, ok("fired", details=shot, unit=shot["unit"], target=shot["target"], n=shot["hits"]))
    # 3. everything else, initiative winner first; each re-checked on the current state. Each card
    # acts on the unit and for the use its owner named; a Bayonets! card named for the charged unit
    # and not yet carried out meets the charge (4). A card named to meet a charge waits for one.
    done: set[int] = set()
    for i, e in enumerate(entries):  # (1) every card is checked against the table at the start of the step
        if e["kind"] not in act.FIRE_TYPES:
            bad = _invalid_at_start(start, e, zone)
            if bad is not None:
                done.add(i)
                settle(e, bad)
    for i, e in enumerate(entries):
        if e["kind"] in act.FIRE_TYPES or i in done:
            continue
        if e["kind"] == "bayonets" and bayonets_use(e["rev"]) not in USES:
            done.add(i)
            settle(e, no("bad_use", use=str(e["rev"].get("use"))[:20]))
            continue
        if e["kind"] == "bayonets" and bayonets_use(e["rev"]) == "meet":
            continue
        counter_i = None
        if e["kind"] == "bayonets" and bayonets_use(e["rev"]) == "charge" and e["rev"].get("target") and \
                act.check_charge(s, e["rev"]["unit"], e["rev"]["target"], side=e["side"], zone=zone) is None:
            counter_i = next((j for j, d in enumerate(entries) if j not in done and j != i and d["side"] != e["side"]
                              and d["kind"] == "bayonets" and d["rev"].get("unit") == e["rev"]["target"]), None)
            if counter_i is None and s.settings.counter_charge_timing == "reaction":
                react = _reaction(s, e, zone, reactions, melee_dice, probe if ask_owner else None)
                if react is not None:
                    entries.append(react)
                    counter_i = len(entries) - 1
            if probe is not None:
                _probe_melee(s, e, entries[counter_i] if counter_i is not None else None, probe)
        counter = entries[counter_i] if counter_i is not None else None
        done.add(i)
        if counter_i is not None:
            done.add(counter_i)
        try:
            res = _run(s, e, zone, counter, picks)
        except ChoiceNeeded as need:
            probe.append({"side": need.owner, "roll": "retreat", "unit": need.unit, "options": need.options,
                          "given": False})
            raise _Stop from None
        if res.ok:
            events.extend(res.changes)
            cards = s.cards
            s = res.state
            s.cards = cards
        settle(e, res)
        if counter is not None:
            melee = res.ok and res.data.get("case") == "melee"
            settle(counter, res if melee else no("counter_timing"))
    for i, e in enumerate(entries):  # cards that waited for a charge that never came
        if e["cards"][0] not in outcome:
            settle(e, no("no_charge_came", unit=e["rev"].get("unit")))
    s.step += 1
    winner, why = victory(s, end_of_turn=False)
    if winner:
        s.winner, s.win_reason, s.phase = winner, why, "finished"
    else:
        _skip_empty_zones(s)
    return ok("step_done", s, details={"cards": outcome, "winner": s.winner}, events=events)


def _invalid_at_start(start: GameState, e: dict, zone: str) -> Outcome | None:
    """A non-fire card that cannot be carried out on the table as it stood at the start of the step
    (§2.5.4 step 1), or None. What happens later in the step is checked again when it is carried out."""
    r, side, uid, kind = e["rev"], e["side"], e["rev"]["unit"], e["kind"]
    if kind == "move":
        return act.check_move(start, uid, side=side, zone=zone, to=r.get("to"), path=r.get("path"),
                              facing=r.get("facing"), formation=r.get("formation"))
    if kind == "retreat":
        return act.check_retreat(start, uid, side=side, zone=zone)
    if kind == "rally":
        res = act.rally(start, uid, side=side, zone=zone)
        return None if res.ok else res
    if kind in ("manoeuvre", "form_up"):
        u = start.unit(uid)
        if kind == "form_up" and u is not None and u.on_board and u.routed:
            return no("rally_needs_two")
        return act.unit_problem(start, uid, side, zone)
    if kind == "bayonets":
        use = bayonets_use(r)
        if use == "advance":
            return act.check_bayonet_advance(start, uid, path=r.get("path"), facing=r.get("facing"), side=side, zone=zone)
        if use == "charge" and r.get("target"):
            return act.check_charge(start, uid, r["target"], side=side, zone=zone)
        return act.unit_problem(start, uid, side, zone)
    return None


def _probe_melee(s: GameState, atk: dict, counter: dict | None, probe: list) -> None:
    """The melee dice a charge will need (both sides at once), if it comes to a melee with dice."""
    a, t = s.unit(atk["rev"]["unit"]), s.unit(atk["rev"]["target"])
    if counter is None or (t.routed and a.kind == "cavalry") or t.kind == "artillery" or not act.can_counter(t):
        return
    totals = act.melee_totals(s, a, t, [], [])
    pair = [("attacker", atk, a, t), ("defender", counter, t, a)]
    for role, e, u, other in pair:
        probe.append({"side": e["side"], "roll": "melee", "role": role, "n": u.blocks, "unit": u.id,
                      "target": other.id, "mods": totals[role]["mods"], "given": bool(e["rev"].get("dice"))})
    if not all(n["given"] for n in probe[-2:]):
        raise _Stop


def _reaction(s: GameState, atk: dict, zone: str, reactions: dict, melee_dice: dict,
              probe: list | None) -> dict | None:
    """``counter_charge_timing = reaction``: the charged unit's owner may turn over a face-down
    Bayonets! card from the zone to meet the charge (A-22). Asked whenever that side still has a
    face-down card there (a public count), so the question itself gives nothing away."""
    side, uid = enemy_of(atk["side"]), atk["rev"]["target"]
    t, a = s.unit(uid), s.unit(atk["rev"]["unit"])
    if t is None or not act.can_counter(t) or t.kind == "artillery" or (t.routed and a.kind == "cavalry"):
        return None
    if not _placed(s, side, zone):
        return None
    answer = reactions.get(uid)
    if answer is None:
        if probe is not None:
            probe.append({"side": side, "roll": "react", "unit": uid, "attacker": a.id, "given": False})
            raise _Stop
        return None
    if probe is not None:
        probe.append({"side": side, "roll": "react", "unit": uid, "attacker": a.id, "given": True})
    if answer == "none":
        return None
    card = next((c for c in _placed(s, side, zone) if c.id == answer and c.type == "bayonets"), None)
    if card is None:
        raise InputError(reason("card_not_placed", card=str(answer)[:40], zone=zone)["en"])
    card.state = "revealed"
    rev = {"card": card.id, "unit": uid, "use": "meet"}
    if melee_dice.get(side):
        rev["dice"] = melee_dice[side]
    return {"side": side, "cards": [card.id], "kind": "bayonets", "rev": rev, "role": "counter"}


def end_turn(s: GameState, flight_choices: dict | None = None) -> Outcome:
    """Forced flight, victory check, attack limits reset, cards back to piles (§2.1.4)."""
    bad = _phase(s, "end_of_turn")
    if bad:
        return bad
    res = act.forced_flight(s, flight_choices, first=s.initiative_winner)
    if not res.ok:
        return res
    s = res.state
    winner, why = victory(s, end_of_turn=True)
    for u in s.units:
        u.attacks_used = []
    for c in s.cards:
        if c.state in ("revealed", "executed", "void"):
            c.state = "in_pile" if s.settings.cards_reusable else "spent"
        elif c.state == "placed":
            c.state = "in_pile"
        if c.state == "in_pile":
            c.zone = c.placed_turn = None
    ended = s.turn
    if winner:
        s.winner, s.win_reason, s.phase = winner, why, "finished"
    else:
        s.turn += 1
        s.phase, s.confirmed = "orders", []
        s.initiative_winner, s.zone_sequence, s.zone_index, s.step = None, [], 0, 0
        s.initiative_rolls = {"south": [], "north": []}
    return ok("turn_ended", s, details={"winner": winner, "win_reason": why}, events=res.changes, n=ended)


def end_turn_needs(s: GameState, flight_choices: dict | None = None) -> tuple[list[dict], bool]:
    """The owners' choices forced flight still needs (one at a time: a choice changes the next
    unit's options), as in :func:`step_needs`, and whether everything is there."""
    if s.phase != "end_of_turn":
        return [], True
    try:
        act.forced_flight(s, AskChoices(flight_choices or {}), first=s.initiative_winner)
    except ChoiceNeeded as need:
        return [{"side": need.owner, "roll": "retreat", "unit": need.unit, "options": need.options, "given": False}], False
    return [], True


CORRECTABLE = ("sector", "location", "facing", "formation", "flag", "blocks", "crew", "gun")


def correct_unit(s: GameState, uid: str, changes: dict) -> Outcome:
    """A manual correction (the table is the truth, spec preamble): set a unit's sector or location,
    blocks (crew, gun), formation, facing and flag. Refused when the result is no possible table
    (two units on a sector, a square of 2 blocks...); every other rule is the players' business."""
    u = s.unit(uid)
    if u is None:
        return no("no_unit", unit=str(uid)[:40])
    if not isinstance(changes, dict) or not changes or not set(changes) <= set(CORRECTABLE):
        raise InputError(f"a correction sets some of {', '.join(CORRECTABLE)}")
    d = u.to_dict()
    d.update(changes)
    if d.get("location", "board") != "board":
        d["sector"] = None
    elif "sector" in changes and u.kind == "artillery" and d.get("gun") and u.gun_with_crew:
        d["gun_sector"] = d["sector"]  # the gun goes with its crew
    if u.kind == "artillery" and not d.get("gun"):
        d["gun_sector"] = None
    if d.get("flag") == "routed" and not u.routed:
        d["routed_since"] = s.turn
    elif d.get("flag") == "up":
        d["routed_since"] = None
    full = s.to_dict()
    full["units"] = [d if x["id"] == uid else x for x in full["units"]]
    try:
        new = GameState.from_dict(full)
    except StateError as exc:
        return no("correction_bad", why=str(exc)[:200])
    before = {k: u.to_dict().get(k) for k in changes}
    return ok("corrected", new, details={"unit": uid, "before": before, "after": dict(changes)},
              events=[{"type": "corrected", "unit": uid, "before": before, "after": dict(changes)}], unit=uid)


def check_victory(s: GameState, end_of_turn: bool = True) -> Outcome:
    winner, why = victory(s, end_of_turn)
    if winner == "draw":
        return ok("draw", s, details={"winner": "draw"})
    if winner:
        return ok("victory", s, details={"winner": winner, "why": why}, winner=winner, why=why)
    return ok("no_victory", s, details={"winner": None})
