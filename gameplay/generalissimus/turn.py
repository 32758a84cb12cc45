"""Turn state machine: orders face down by zone -> initiative -> reveal steps -> end of turn (§2.1)."""
from __future__ import annotations

from gameplay.common import Outcome

from . import actions as act
from .core import InputError, victory
from .reasons import no, ok, reason, reason_dict
from .settings import Settings
from .state import CARD_TYPES, ZONES, GameState, OrderCard, Unit, enemy_of

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


def _run(s: GameState, e: dict, zone: str, counter: dict | None = None) -> Outcome:
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
        if not r.get("target"):
            return no("charge_target", target="-")
        choices = dict(r.get("retreat_choices") or {})
        if counter:
            choices.update(counter["rev"].get("retreat_choices") or {})
        return act.charge(s, uid, r["target"], attacker_dice=r.get("dice"),
                          defender_dice=counter["rev"].get("dice") if counter else None,
                          counter=counter is not None, retreat_choices=choices, side=side, zone=zone)
    raise InputError(f"cannot run card type {kind}")


def reveal_step(s: GameState, reveals: dict) -> Outcome:
    """Resolve one step: each side with cards left in the zone reveals one (§2.5.4).

    `reveals` maps side -> {"card": id | "cards": [id, id], "unit": id, ...card parameters} or None.
    """
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
    _pair_counter_charges(s, start, entries, zone)

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
    if shots:
        res = act.fire(s, shots, zone=zone)
        events.extend(res.changes)
        cards = [c for c in s.cards]  # keep card states across the state swap
        s = res.state
        s.cards = cards
        for e, shot in zip(fire_entries, res.data["shots"]):
            settle(e, ok("fired", details=shot, unit=shot["unit"], target=shot["target"], n=shot["hits"]))
    # 3. everything else, initiative winner first; each re-checked on the current state
    for e in entries:
        if e["kind"] in act.FIRE_TYPES or e["role"] == "counter":
            continue
        res = _run(s, e, zone, e.get("counter"))
        if res.ok:
            events.extend(res.changes)
            cards = s.cards
            s = res.state
            s.cards = cards
        settle(e, res)
        c = e.get("counter")
        if c is not None:
            melee = res.ok and res.data.get("case") == "melee"
            settle(c, res if melee else no("counter_timing"))
    for e in entries:  # counters whose charge never came
        if e["role"] == "counter" and e["cards"][0] not in outcome:
            settle(e, no("counter_timing"))
        if e["kind"] == "bayonets" and e["role"] == "own" and e["cards"][0] not in outcome:
            settle(e, no("charge_target", target="-"))
    s.step += 1
    winner, why = victory(s, end_of_turn=False)
    if winner:
        s.winner, s.win_reason, s.phase = winner, why, "finished"
    else:
        _skip_empty_zones(s)
    return ok("step_done", s, details={"cards": outcome, "winner": s.winner}, events=events)


def _pair_counter_charges(s: GameState, start: GameState, entries: list[dict], zone: str) -> None:
    """A Bayonets! card on a unit charged in the same step becomes its counter-charge (§2.9.2)."""
    charges = [e for e in entries if e["kind"] == "bayonets" and e["rev"].get("target")
               and act.check_charge(start, e["rev"]["unit"], e["rev"]["target"], side=e["side"], zone=zone) is None]
    for atk in charges:  # already in initiative order: the winner's charge is the attack
        if atk["role"] == "counter":
            continue
        for d in entries:
            if d["side"] != atk["side"] and d["kind"] == "bayonets" and d["rev"]["unit"] == atk["rev"]["target"]:
                d["role"], atk["counter"] = "counter", d
        if "counter" not in atk and s.settings.counter_charge_timing == "reaction":
            react = _reaction(s, enemy_of(atk["side"]), atk["rev"]["target"], zone, entries)
            if react:
                atk["counter"] = react
                entries.append(react)


def _reaction(s: GameState, side: str, unit_id: str, zone: str, entries: list[dict]) -> dict | None:
    """In 'reaction' mode the defender may turn over an unrevealed Bayonets! card from the zone."""
    rev = next((e["rev"].get("reaction") for e in entries if e["side"] == side and e["rev"].get("reaction")), None)
    if not rev or rev.get("unit", unit_id) != unit_id:
        return None
    card = next((c for c in _placed(s, side, zone) if c.id == rev.get("card") and c.type == "bayonets"), None)
    if card is None:
        return None
    card.state = "revealed"
    return {"side": side, "cards": [card.id], "kind": "bayonets", "rev": dict(rev, unit=unit_id), "role": "counter"}


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


def check_victory(s: GameState, end_of_turn: bool = True) -> Outcome:
    winner, why = victory(s, end_of_turn)
    if winner == "draw":
        return ok("draw", s, details={"winner": "draw"})
    if winner:
        return ok("victory", s, details={"winner": winner, "why": why}, winner=winner, why=why)
    return ok("no_victory", s, details={"winner": None})
