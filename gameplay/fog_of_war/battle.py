"""Battle calculator (spec §2.5 steps 7-9, §2.6), outcome table (§2.7) and card flow per outcome."""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from gameplay.common import Outcome

from .board import winter_bonus
from .cards import Card, total
from .texts import ok, refuse

VICTORY, QUAGMIRE, DEFEAT, ROUT = "victory", "quagmire", "defeat", "rout"
OUTCOMES = (VICTORY, QUAGMIRE, DEFEAT, ROUT)
AMPHIBIOUS_BONUS = 4


def outcome_for(a: int, d: int) -> str:
    """§2.7 in decision order: A>=2D Victory, A>=D Quagmire, D>=2A Rout, else Defeat."""
    if a >= 2 * d:
        return VICTORY
    if a >= d:
        return QUAGMIRE
    if d >= 2 * a:
        return ROUT
    return DEFEAT


def halving_count(n: int) -> int:
    """Cards a side loses in a quagmire: half rounded down, at least 1 (none if it has none)."""
    return max(1, n // 2) if n else 0


@dataclass
class BattleInput:
    """Everything the calculator needs. ``superiority`` names the role using the token, if any."""

    attack: list[Card]
    defence: list[Card]
    neutral: list[Card] = field(default_factory=list)
    kind: str = "land"  # land | sea (the target's kind)
    amphibious: bool = False
    winter: bool = False
    climate: str = "none"
    wheel_modifier: str = "none"  # none | A+1 | D+1
    superiority: str | None = None  # None | attacker | defender
    from_quagmire: bool = False
    no_card_rule: str = "instant"
    fort_at_sea: str = "counts"  # B-24: a defender's fort counts at sea (the seed names no other unsuitable card)


@dataclass
class BattleResult:
    outcome: str
    a: int
    d: int
    instant: bool
    breakdown: dict
    attack: list[Card]
    defence: list[Card]
    neutral: list[Card]
    attack_discarded: list[Card]
    defence_discarded: list[Card]
    neutral_ignored: list[Card]
    superiority_used: str | None


def fort_counting_at_sea(cards: list[Card], kind: str, rule: str) -> list[Card]:
    """B-24 ``counts``: in a sea battle a defending fort without a printed sea value counts its land value."""
    if kind != "sea" or rule != "counts":
        return list(cards)
    return [replace(c, sea=c.land) if c.category == "fort" and c.sea is None else c for c in cards]


def compute(inp: BattleInput) -> BattleResult:
    """Filter the cards, sum the strengths with every §2.6 modifier and pick the outcome."""
    k = inp.kind
    inp = replace(inp, defence=fort_counting_at_sea(inp.defence, k, inp.fort_at_sea),
                  neutral=fort_counting_at_sea(inp.neutral, k, inp.fort_at_sea))
    att = [c for c in inp.attack if c.usable(k, attacking=True)]
    dfn = [c for c in inp.defence if c.usable(k, attacking=False)]
    neu = [c for c in inp.neutral if c.usable(k, attacking=False)]
    parts = dict(
        attack=att, defence=dfn, neutral=neu,
        attack_discarded=[c for c in inp.attack if c not in att],
        defence_discarded=[c for c in inp.defence if c not in dfn],
        neutral_ignored=[c for c in inp.neutral if c not in neu],
    )
    if inp.no_card_rule == "instant" and (not att or not (dfn or neu)):
        outcome = ROUT if not att else VICTORY
        return BattleResult(outcome, 0 if not att else total(att, k), 0, True,
                            {"attack_cards": total(att, k), "defence_cards": total(dfn, k),
                             "neutral_cards": total(neu, k)}, superiority_used=None, **parts)
    wheel = "none" if inp.from_quagmire else inp.wheel_modifier
    b = {
        "attack_cards": total(att, k),
        "attack_wheel": int(wheel == "A+1"),
        "attack_superiority": int(inp.superiority == "attacker"),
        "defence_cards": total(dfn, k),
        "neutral_cards": total(neu, k),
        "amphibious": AMPHIBIOUS_BONUS if inp.amphibious and not inp.from_quagmire else 0,
        "winter": winter_bonus(inp.climate) if inp.winter else 0,
        "defence_wheel": int(wheel == "D+1"),
        "defence_superiority": int(inp.superiority == "defender"),
    }
    a = b["attack_cards"] + b["attack_wheel"] + b["attack_superiority"]
    d = sum(v for key, v in b.items() if not key.startswith("attack"))
    return BattleResult(outcome_for(a, d), a, d, False, b, superiority_used=inp.superiority, **parts)


# --- wins pile -----------------------------------------------------------------------------

def smallest_sufficient(cards: list[Card], kind: str, need: int) -> list[Card]:
    """The set with the smallest total >= ``need`` (ties: fewest cards); all cards if they fall short."""
    if need <= 0:
        return []
    if total(cards, kind) < need:
        return list(cards)
    best: dict[int, tuple[int, ...]] = {0: ()}
    for i, c in enumerate(cards):
        v = c.value(kind) or 0
        for s, idx in list(best.items()):
            t = s + v
            if t not in best or len(best[t]) > len(idx) + 1:
                best[t] = idx + (i,)
    target = min(s for s in best if s >= need)
    return [cards[i] for i in best[target]]


def check_wins(pool: list[Card], chosen_ids: list[str], kind: str, need: int, rule: str = "any_sufficient",
               neutral: list[Card] = ()) -> Outcome:
    """Is the winner's choice for its wins pile legal (§2.7, B-21)? ``data['cards']`` holds the set."""
    by_id = {c.id: c for c in pool}
    if any(c.id in chosen_ids for c in neutral):
        return refuse("wins_neutral")
    for cid in chosen_ids:
        if cid not in by_id:
            return refuse("wins_not_own", card=cid)
    chosen = [by_id[cid] for cid in dict.fromkeys(chosen_ids)]
    got, avail = total(chosen, kind), total(pool, kind)
    if got < min(need, avail) or (avail < need and len(chosen) < len(pool)):
        return refuse("wins_too_small", total=got, need=need)
    if rule == "minimal_only" and avail >= need:
        for c in chosen:
            if got - (c.value(kind) or 0) >= need:
                return refuse("wins_not_minimal", card=c)
    return ok(cards=chosen)


# --- quagmire halving ----------------------------------------------------------------------

def quagmire_losses(own: list[Card], neutral: list[Card] = (), *, chosen: list[str] | None = None,
                    rng: random.Random | None = None) -> Outcome:
    """Pick k = max(1, n//2) losers, own cards before neutral ones (§2.7 Quagmire, B-22).

    ``chosen`` is the table's pick (card ids), validated; otherwise ``rng`` draws it.
    ``data``: ``lost_own``, ``lost_neutral``, ``kept_own``, ``kept_neutral``, ``k``.
    """
    own, neutral = list(own), list(neutral)
    k = halving_count(len(own) + len(neutral))
    n_own = min(k, len(own))
    if chosen is None:
        rng = rng or random.Random()
        lost_own = rng.sample(own, n_own)
        lost_neu = rng.sample(neutral, k - n_own)
    else:
        ids = list(dict.fromkeys(chosen))
        known = {c.id: c for c in own + neutral}
        for cid in ids:
            if cid not in known:
                return refuse("quag_unknown_card", card=cid)
        if len(ids) != k:
            return refuse("quag_wrong_count", k=k, got=len(ids))
        lost_own = [known[i] for i in ids if known[i] in own]
        lost_neu = [known[i] for i in ids if known[i] not in own]
        if len(lost_own) != n_own:
            return refuse("quag_own_first")
    return ok(k=k, lost_own=lost_own, lost_neutral=lost_neu,
              kept_own=[c for c in own if c not in lost_own], kept_neutral=[c for c in neutral if c not in lost_neu])


# --- card flow -------------------------------------------------------------------------------

def card_flow(br: BattleResult, kind: str, *, wins_choice: list[str] | None = None,
              quagmire_choice: dict[str, list[str]] | None = None, rng: random.Random | None = None,
              wins_rule: str = "any_sufficient", quagmire_neutral_losses: str = "defender_losses",
              victory_removes_all_neutral: bool = True) -> Outcome:
    """Where each card goes for this outcome (§2.7). Roles: attacker / defender / neutral.

    ``data['flow']`` maps role -> pile -> cards; piles: discard, losses, wins, stays (province),
    removed (neutral only). Also ``province_card`` per role and ``control_to_attacker``.
    A Victory removes **every** neutral card of the province from the game, counted or not (B-23); neutral
    cards lost in a Quagmire go into the defender's losses (B-22 ``defender_losses``) or leave the game
    (``removed``). ``victory_removes_all_neutral=False`` is only the reading of games stored before.
    """
    flow = {
        "attacker": {"discard": list(br.attack_discarded), "losses": [], "wins": [], "stays": []},
        "defender": {"discard": list(br.defence_discarded), "losses": [], "wins": [], "stays": []},
        "neutral": {"removed": [], "stays": list(br.neutral_ignored)},
    }
    quag = quagmire_choice or {}
    o = br.outcome
    if o == VICTORY:
        flow["defender"]["losses"] = list(br.defence)
        flow["neutral"]["removed"] = list(br.neutral)
        if victory_removes_all_neutral:
            flow["neutral"]["removed"] += flow["neutral"]["stays"]
            flow["neutral"]["stays"] = []
        res = _pick_wins(br.attack, wins_choice, kind, br.d, wins_rule, [])
        if not res.legal:
            return res
        flow["attacker"]["wins"] = res.data["cards"]
        flow["attacker"]["stays"] = [c for c in br.attack if c not in res.data["cards"]]
        cards = {"attacker": "front", "defender": "province_deck"}
    elif o == QUAGMIRE:
        ra = quagmire_losses(br.attack, chosen=quag.get("attacker"), rng=rng)
        rd = quagmire_losses(br.defence, br.neutral, chosen=quag.get("defender"), rng=rng)
        for r in (ra, rd):
            if not r.legal:
                return r
        flow["attacker"]["losses"], flow["attacker"]["stays"] = ra.data["lost_own"], ra.data["kept_own"]
        flow["defender"]["losses"], flow["defender"]["stays"] = rd.data["lost_own"], rd.data["kept_own"]
        if quagmire_neutral_losses == "removed":
            flow["neutral"]["removed"] = rd.data["lost_neutral"]
        else:
            flow["defender"]["losses"] = flow["defender"]["losses"] + rd.data["lost_neutral"]
        flow["neutral"]["stays"] += rd.data["kept_neutral"]
        cards = {"attacker": "quagmire", "defender": "front"}
    else:
        flow["attacker"]["losses"] = list(br.attack)
        flow["neutral"]["stays"] += br.neutral
        pool = br.defence
        if o == ROUT:
            res = _pick_wins(pool, wins_choice, kind, br.a, wins_rule, br.neutral)
            if not res.legal:
                return res
            flow["defender"]["wins"] = res.data["cards"]
        flow["defender"]["stays"] = [c for c in pool if c not in flow["defender"]["wins"]]
        cards = {"attacker": "province_deck", "defender": "front"}
    return ok(flow=flow, province_card=cards, control_to_attacker=(o == VICTORY))


def _pick_wins(pool, choice, kind, need, rule, neutral) -> Outcome:
    if choice is None:
        return ok(cards=smallest_sufficient(pool, kind, need))
    return check_wins(pool, choice, kind, need, rule, neutral)
