"""``battle_case``: one battle from a JSON-compatible dict to A, D, outcome and resulting piles.

The schema is documented in docs/fog-of-war.md ("Resolving one battle").
"""
from __future__ import annotations

import random

from .battle import BattleInput, card_flow, compute
from .cards import parse_cards

FIELDS = {
    "kind": ("land", ("land", "sea")),
    "attack": ([], list),
    "defence": ([], list),
    "neutral": ([], list),
    "amphibious": (False, bool),
    "winter": (False, bool),
    "climate": ("none", ("sun", "snow", "none")),
    "wheel": ("none", ("none", "A+1", "D+1")),
    "superiority": (None, (None, "attacker", "defender")),
    "from_quagmire": (False, bool),
    "no_card_rule": ("instant", ("instant", "compute")),
    "fort_at_sea": ("counts", ("counts", "card_values")),
    "quagmire_neutral_losses": ("defender_losses", ("defender_losses", "removed")),
    "wins_rule": ("any_sufficient", ("any_sufficient", "minimal_only")),
    "wins_choice": (None, (list, type(None))),
    "quagmire_choice": (None, (dict, type(None))),
    "seed": (None, (int, type(None))),
}


class CaseError(ValueError):
    """Malformed battle case; the message is one line."""


def _read(case: dict) -> dict:
    if not isinstance(case, dict):
        raise CaseError("the case must be a JSON object")
    unknown = sorted(set(case) - set(FIELDS))
    if unknown:
        raise CaseError(f"unknown field(s): {', '.join(unknown)}; allowed: {', '.join(FIELDS)}")
    out = {}
    for key, (default, allowed) in FIELDS.items():
        value = case.get(key, default)
        if isinstance(allowed, tuple) and allowed and not isinstance(allowed[0], type):
            if value not in allowed:
                raise CaseError(f"{key} must be one of {', '.join(map(str, allowed))}; got {value!r}")
        elif not isinstance(value, allowed) or (allowed is not bool and isinstance(value, bool)):
            raise CaseError(f"{key} has the wrong type ({type(value).__name__})")
        out[key] = value
    if not out["attack"]:
        raise CaseError("attack must list at least one card")
    for key in ("wins_choice",):
        if out[key] is not None and not all(isinstance(x, str) for x in out[key]):
            raise CaseError(f"{key} must be a list of card ids")
    qc = out["quagmire_choice"]
    if qc is not None and (set(qc) - {"attacker", "defender"} or
                           not all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in qc.values())):
        raise CaseError("quagmire_choice must map attacker/defender to lists of card ids")
    return out


def _ids(cards) -> list[str]:
    return [c.id for c in cards]


def battle_case(case: dict) -> dict:
    """Compute one battle. Raises ``CaseError`` on malformed input; an illegal choice gives ``legal: false``."""
    c = _read(case)
    try:
        att = parse_cards(c["attack"], "attacker", "a")
        dfn = parse_cards(c["defence"], "defender", "d")
        neu = parse_cards(c["neutral"], "neutral", "n")
    except ValueError as exc:
        raise CaseError(str(exc).splitlines()[0]) from None
    ids = _ids(att + dfn + neu)
    if len(set(ids)) != len(ids):
        raise CaseError("card ids must be unique")
    unknown = [x.id for x in att + dfn + neu if x.category == "unknown"]
    if unknown:
        raise CaseError(f"card {unknown[0]} has no values")
    br = compute(BattleInput(att, dfn, neu, kind=c["kind"], amphibious=c["amphibious"], winter=c["winter"],
                             climate=c["climate"], wheel_modifier=c["wheel"], superiority=c["superiority"],
                             from_quagmire=c["from_quagmire"], no_card_rule=c["no_card_rule"],
                             fort_at_sea=c["fort_at_sea"]))
    rng = random.Random(c["seed"]) if c["seed"] is not None else random.Random()
    fr = card_flow(br, c["kind"], wins_choice=c["wins_choice"], quagmire_choice=c["quagmire_choice"], rng=rng,
                   wins_rule=c["wins_rule"], quagmire_neutral_losses=c["quagmire_neutral_losses"])
    if not fr.legal:
        return {"legal": False, "A": br.a, "D": br.d, "outcome": br.outcome, "rule": fr.reason.rule,
                "reason_ru": fr.reason.ru, "reason_en": fr.reason.en}
    flow = fr.data["flow"]
    return {
        "legal": True,
        "A": br.a,
        "D": br.d,
        "outcome": br.outcome,
        "instant": br.instant,
        "breakdown": br.breakdown,
        "counted": {"attacker": _ids(br.attack), "defender": _ids(br.defence), "neutral": _ids(br.neutral)},
        "piles": {role: {pile: _ids(cards) for pile, cards in piles.items()} for role, piles in flow.items()},
        "province_card": fr.data["province_card"],
        "control": "attacker" if fr.data["control_to_attacker"] else "unchanged",
        "quagmire_token": br.outcome == "quagmire",
        "superiority_passes_to": {"attacker": "defender", "defender": "attacker"}.get(br.superiority_used),
    }
