"""Card effects as small programs the engine runs step by step ("pending steps").

Pure Python (no Django). A card's ``effects`` (``data/cards_1e.yaml``) compile into *steps*: plain
JSON dicts kept on the table (``Table.pending``) while the card resolves. Each step says who acts,
what kind of action it is, which pieces (whose, army or navy) and which spaces the card allows, how
many times, and whether the card says "may" (``optional``). ``table.apply_command`` accepts a
``step`` command only when it fits the first open step; ``skip`` closes a "may" step (or a step
with no legal target left). Mechanical steps (a fixed elimination, a recruit into one named space,
a discard from a named deck) are applied by the engine as soon as they open.

Step kinds: ``build``, ``recruit``, ``battle``, ``eliminate``, ``protect`` (choose a piece that
cannot be removed this turn), ``discard_target`` (choose which country's deck discards),
``discard_status`` (choose a status of another country to discard) and ``manual`` (a guided step:
generic, rule-checked board actions until the player says it is done).
"""
from __future__ import annotations

from typing import Iterable

from .adjacency import Adjacency, strait_status
from .board import ALLIES, AXIS, Board
from .cards import Card, default_catalogue
from .effects import condition_holds
from .inputs import cards_en, cards_ru
from .rules import Action, check_action, compute_supply
from .state import ARMY, NAVY, Position

BOARD_STEPS = ("build", "recruit", "battle", "eliminate")
# step kind -> the rules' action types it may be entered as
STEP_ACTIONS = {
    "build": {ARMY: "build_army", NAVY: "build_navy"},
    "recruit": {ARMY: "recruit_army", NAVY: "recruit_navy"},
    "battle": {"land": "land_battle", "sea": "sea_battle"},
}
MAX_CANDIDATES = 64  # legal targets listed per step (the board has 48 spaces)


def other_team(team: str) -> str:
    return ALLIES if team == AXIS else AXIS


# ------------------------------------------------------------------------------------------
# Compiling a card's effects into steps
# ------------------------------------------------------------------------------------------

def _countries(value, owner: str) -> list[str]:
    if value is None or value == "self":
        return [owner]
    if isinstance(value, str):
        return [value]
    return [owner if v == "self" else v for v in value]


def _neighbours(board: Board, position: Position, team: str, spaces: Iterable[str]) -> set[str]:
    adj = Adjacency(board, strait_status(board, position), team)
    return {n for s in spaces for n in adj.neighbours(s)}


def _where(board, position, team, token, last: dict, fixed: list[str]) -> list[str] | None:
    """Spaces a relative location token stands for now (None: any space the rules allow)."""
    battled = [last["battled"]] if last.get("battled") else []
    built = [last["placed"]["space"]] if last.get("placed") else []
    if token == "battled_space":
        return battled
    if token == "adjacent_to_battled":
        return sorted(_neighbours(board, position, team, battled))
    if token == "same_or_adjacent_to_battled":
        return sorted(set(battled) | _neighbours(board, position, team, battled))
    if token == "adjacent_to_built":
        return sorted(_neighbours(board, position, team, built))
    if token == "just_built_or_recruited":
        return [s for s in built if not fixed or s in fixed]
    if token == "in_or_adjacent_to_spaces":
        return sorted(set(fixed) | _neighbours(board, position, team, fixed))
    if token == "adjacent_to_spaces":
        return sorted(_neighbours(board, position, team, fixed) - set(fixed))
    if token == "space_of_removed_piece":
        return [last["removed"]["space"]] if last.get("removed") else []
    return None  # adjacent_to_own_army / adjacent_to_own_piece: the normal battle/build rule


# the context placeholders a ``requires`` may name (data/cards_1e.yaml ``context_spaces``) and what resolves
# them: the space just battled (the card answers a battle), or the space of the piece the card protects
# (resolved per candidate piece when the step's targets are listed)
PLACEHOLDERS = {"@battled_space": "the space the card's battle trigger battled",
                "@protected_space": "the space of the piece a protect step chooses"}


def _plain(value):
    """A frozen catalogue value as plain JSON (a step's condition is stored on the table)."""
    if hasattr(value, "items"):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _substitute(cond, last, protected_space: str | None = None):
    """A ``requires`` with its context placeholders replaced: @battled_space by the space battled,
    @protected_space (when given) by the space of the piece the card protects."""
    if not cond:
        return cond
    found = {"@battled_space": last.get("battled")}
    if protected_space is not None:
        found["@protected_space"] = protected_space
    spaces = [found.get(s, s) if s in found else s for s in cond.get("spaces") or ()]
    return {**_plain(cond), "spaces": [s for s in spaces if s]}


def names_placeholder(cond, placeholder: str) -> bool:
    return bool(cond) and placeholder in (cond.get("spaces") or ())


def compile_card(board: Board, position: Position, card: Card, by: str, last: dict | None = None,
                 alternatives: bool = True, per_piece: bool = True, lazy: bool = False) -> list[dict]:
    """The steps ``card``'s effects open for country ``by`` now (``last``: the action the card answers).
    ``alternatives``: a target's own choice of a card's ``alternative`` (Malta Submarines: the discard or its
    navy); False for a game stored by the card rules before it (level 2): each target's discard, no choice.
    ``per_piece``: a protect step whose condition names the protected piece's space (Destroyers) keeps the
    condition and judges it per candidate piece; False for card rules ≤3 (the condition was never met).
    ``lazy`` (card rules 6): a board step's condition is kept on the step and judged when the step's turn comes
    (an earlier step may meet it), and the steps of a card whose text allows any order are marked so
    (``any_order``: offered together), and every step carries ``effect``, the index of its effect on the card."""
    last = last or {}
    team = board.team_of(by)
    steps = []
    for index, e in enumerate(card.effects):
        kind = e.kind
        before = len(steps)
        if kind in BOARD_STEPS or kind == "protect":
            fixed = list(e.get("spaces") or ())
            if e.get("include_adjacent"):
                fixed = sorted(set(fixed) | _neighbours(board, position, team, fixed))
            spaces = fixed or None
            if e.get("where"):
                spaces = _where(board, position, team, e["where"], last, fixed)
            if e.get("exclude") == "battled_space" and spaces is not None:
                spaces = [s for s in spaces if s != last.get("battled")]
            elif e.get("exclude") == "battled_space" and last.get("battled"):
                spaces = [s for s in board.spaces if s != last["battled"]]
            step = {"card": card.id, "kind": kind, "by": by, "spaces": spaces,
                    "optional": bool(e.get("optional")) or e.get("max") is not None,
                    "left": int(e["max"]) if isinstance(e.get("max"), int) else 1}
            if kind in ("build", "recruit"):
                step["countries"] = _countries(e.get("country"), by)
                step["piece"] = e.get("piece", ARMY)
            elif kind == "battle":
                step["domain"] = e.get("domain", "land")
                if e.get("target_country"):
                    step["target_country"] = e["target_country"]
            elif kind == "eliminate":
                step["team"] = e.get("team") or other_team(team)
                step["piece"] = e.get("piece", ARMY)
                if e.get("count") == "all":
                    step["all"] = True
            else:  # protect
                step["countries"] = _countries(e.get("country"), by)
                step["piece"] = e.get("piece", "any")
                step["supplied"] = bool(e.get("requires_supplied"))
                if e.get("choose_one_of_group"):
                    step["group"] = e["choose_one_of_group"]
                    step["optional"] = True
            if e.get("requires") and per_piece and kind == "protect" \
                    and names_placeholder(e["requires"], "@protected_space"):
                step["requires"] = _substitute(e["requires"], last)  # judged per piece (targets)
            elif e.get("requires") and lazy:
                step["requires"] = _substitute(e["requires"], last)  # judged when the step's turn comes
            elif e.get("requires"):
                cond = _substitute(e["requires"], last)
                supply = compute_supply(board, position)
                if not condition_holds(board, position.pieces, cond, by, supply):
                    continue  # the card's condition does not hold: this step does nothing
            steps.append(step)
        elif kind == "discard_from_deck":
            target = e.get("target")
            count = int(e.get("count", 1))
            cond = e.get("requires")
            if cond and not condition_holds(board, position.pieces, cond, by, compute_supply(board, position)):
                continue
            count_if = e.get("count_if")
            if count_if and condition_holds(board, position.pieces, count_if["requires"], by,
                                            compute_supply(board, position)):
                count = int(count_if["count"])
            if card.type == "economic_warfare":
                count += ew_bonus(board, position, card, by)
            if isinstance(target, str) and target in board.countries:
                steps.append({"card": card.id, "kind": "discard", "by": by, "targets": [target], "n": count,
                              "optional": False, "left": 1})
            elif hasattr(target, "get") and target.get("each_of"):
                alt = e.get("alternative")
                for t in target["each_of"]:
                    step = {"card": card.id, "kind": "discard", "by": by, "targets": [t], "n": count,
                            "optional": False, "left": 1}
                    if alternatives and alt and alt.get("kind") == "eliminate" and alt.get("country") == "target":
                        # «Мальтийские субмарины»: the target itself chooses — the discard, or one of its own
                        # pieces removed where the card says (with none there, the discard is applied at once)
                        step.update(by=t, player=by, alternative={"piece": alt.get("piece", NAVY),
                                                                  "spaces": list(alt.get("spaces") or ())})
                    steps.append(step)
            elif hasattr(target, "get") and target.get("choice_of"):
                steps.append({"card": card.id, "kind": "discard", "by": by, "targets": list(target["choice_of"]),
                              "n": count, "optional": False, "left": 1})
            elif target == "axis_country_in_range":
                in_range = _axis_in_range(board, position, by, e.get("requires"))
                steps.append({"card": card.id, "kind": "discard", "by": by, "targets": in_range, "n": count,
                              "optional": False, "left": 1})
            elif target in ("battling_country", "ew_playing_country") and last.get("by"):
                steps.append({"card": card.id, "kind": "discard", "by": by, "targets": [last["by"]], "n": count,
                              "optional": False, "left": 1})
        elif kind == "discard_table_card":
            types = e.get("card_type")
            types = (types,) if isinstance(types, str) else tuple(types or ())
            if "status" in types:  # a status face up (or, when the card says so, a face-down response)
                steps.append({"card": card.id, "kind": "discard_status", "by": by, "targets": [e["target"]],
                              "optional": False, "left": 1, "responses": "response" in types})
            else:
                steps.append({"card": card.id, "kind": "discard_response", "by": by, "targets": [e["target"]],
                              "optional": False, "left": 1})
        elif kind == "play_card_from":
            types = e.get("card_types")
            steps.append({"card": card.id, "kind": "play_from", "by": _countries(e.get("country"), by)[0],
                          "source": e.get("source", "hand"), "card_types": "any" if types in (None, "any")
                          else list(types), "then": e.get("then"), "optional": True, "left": 1})
        elif kind == "manual":
            steps.append({"card": card.id, "kind": "manual", "by": by, "optional": True, "left": 1,
                          "note": str(e.get("note") or kind)})
        # vp_immediate is scored when the card is played; supply/scoring effects act while in play
        for step in steps[before:] if lazy else ():
            step["effect"] = index
            if card.any_order and kind in BOARD_STEPS + ("protect",):
                step["any_order"] = True
    return steps


def ew_bonus(board: Board, position: Position, card: Card, by: str) -> int:
    """Extra cards an Economic Warfare card makes its target discard, from the statuses in play that
    change it (``modify_ew_discard``: Wolf Packs, Flying Fortress): who played it, its title, a condition."""
    cat = default_catalogue()
    bonus = 0
    for sid in dict.fromkeys(position.statuses):
        status = cat.get(sid)
        if status is None:
            continue
        for e in status.effects_of("modify_ew_discard"):
            applies = e.get("applies_to") or {}
            played_by = applies.get("played_by", "self")
            players = _countries(played_by, status.country)
            if by not in players:
                continue
            stem = applies.get("title_contains")
            if stem and stem.casefold() not in card.name_en.casefold():
                continue
            if e.get("requires") and not condition_holds(board, position.pieces, e["requires"], status.country,
                                                         compute_supply(board, position)):
                continue
            bonus += int(e.get("delta", 0))
    return bonus


def _axis_in_range(board, position, by, cond) -> list[str]:
    if not cond:
        return [c for c in board.turn_order if board.team_of(c) == AXIS]
    found = []
    supply = compute_supply(board, position)
    for c in board.turn_order:
        if board.team_of(c) != AXIS:
            continue
        one = {**dict(cond), "spaces": [board.countries[c].home]}
        if condition_holds(board, position.pieces, one, by, supply):
            found.append(c)
    return found


# ------------------------------------------------------------------------------------------
# Legal targets of a step
# ------------------------------------------------------------------------------------------

def _space_list(board, step) -> list[str]:
    return list(step["spaces"]) if step.get("spaces") is not None else list(board.spaces)


def targets(board: Board, position: Position, step: dict, protected: Iterable[dict] = (), context=()) -> list[dict]:
    """Every legal choice of ``step`` now: [{"space": …, "country": …, "kind": …, "action": …}, …]."""
    out: list[dict] = []
    kind = step["kind"]
    if kind == "discard" and step.get("alternative"):
        alt = step["alternative"]
        shielded = {(p["country"], p["kind"], p["space"]) for p in protected}
        kinds = (ARMY, NAVY) if alt["piece"] == "any" else (alt["piece"],)
        own = [{"action": "eliminate", "space": p.space, "country": p.country, "kind": p.kind}
               for p in position.pieces if p.country == step["by"] and p.kind in kinds
               and p.space in (alt.get("spaces") or board.spaces) and (p.country, p.kind, p.space) not in shielded]
        return [{"target_country": t} for t in step.get("targets") or ()] + sorted(
            own, key=lambda t: (t["space"], t["kind"]))[:MAX_CANDIDATES]
    if kind in ("discard", "discard_status", "discard_response"):
        return [{"target_country": t} for t in step.get("targets") or ()]
    if kind in ("manual", "play_from"):
        return []
    supply = compute_supply(board, position, context)
    shielded = {(p["country"], p["kind"], p["space"]) for p in protected}
    if step.get("requires") and kind != "protect" and not condition_holds(
            board, position.pieces, step["requires"], step["by"], supply):
        return []  # the card's condition does not hold now (judged when the step's turn comes)
    if kind in ("build", "recruit"):
        kinds = (ARMY, NAVY) if step["piece"] == "any" else (step["piece"],)
        for owner in step["countries"]:
            for k in kinds:
                action_type = STEP_ACTIONS[kind][k]
                for s in _space_list(board, step):
                    if board.spaces[s].is_land != (k == ARMY):
                        continue
                    v = check_action(board, position, Action(action_type, owner, s), supply)
                    if v.legal:
                        out.append({"action": action_type, "space": s, "country": owner, "kind": k})
    elif kind == "battle":
        action_type = STEP_ACTIONS["battle"][step["domain"]]
        for s in _space_list(board, step):
            if board.spaces[s].is_land != (step["domain"] == "land"):
                continue
            v = check_action(board, position, Action(action_type, step["by"], s, step.get("target_country")), supply)
            if v.legal and not any((p.country, p.kind, p.space) in shielded for p in v.removes):
                out.append({"action": action_type, "space": s, "country": step["by"]})
    elif kind == "eliminate":
        kinds = (ARMY, NAVY) if step["piece"] == "any" else (step["piece"],)
        spaces = set(_space_list(board, step))
        for p in position.pieces:
            if p.space in spaces and p.kind in kinds and board.team_of(p.country) == step["team"] \
                    and (p.country, p.kind, p.space) not in shielded:
                out.append({"action": "eliminate", "space": p.space, "country": p.country, "kind": p.kind})
    elif kind == "protect":
        kinds = (ARMY, NAVY) if step["piece"] == "any" else (step["piece"],)
        spaces = set(_space_list(board, step))
        cond = step.get("requires")
        for p in position.pieces:
            if p.country in step["countries"] and p.kind in kinds and p.space in spaces \
                    and (not step.get("supplied") or supply.supplied(p)) \
                    and (not cond or condition_holds(board, position.pieces, _substitute(cond, {}, p.space),
                                                     step["by"], supply)):
                out.append({"action": "protect", "space": p.space, "country": p.country, "kind": p.kind})
    return sorted(out, key=lambda t: (t.get("space", ""), t.get("country", ""), t.get("kind", "")))[:MAX_CANDIDATES]


def matches(step: dict, choice: dict, candidate: dict) -> bool:
    """Does the entered ``choice`` (action, space, country, kind) name ``candidate``?"""
    for key in ("action", "space", "country", "kind"):
        if choice.get(key) is not None and candidate.get(key) is not None and choice[key] != candidate[key]:
            return False
    return True


def describe(board: Board, step: dict, lang: str = "ru", title: bool = True) -> str:
    """A short line saying what the step asks for (in the players' language); ``title``: led by the card's name."""
    if step["kind"] == AIR_RETREAT:
        return describe_air_retreat(board, step, lang)
    cat = default_catalogue()
    card = cat.get(step["card"])
    name = (card.name_en if lang == "en" else card.name_ru) if card else step["card"]
    spaces = step.get("spaces")
    land = {"land": True, "sea": False}.get(step.get("domain")) if step["kind"] == "battle" else \
        {ARMY: True, NAVY: False}.get(step.get("piece"))
    if spaces and land is not None:  # only the spaces of the step's terrain (a neighbourhood holds both)
        spaces = [s for s in spaces if s in board.spaces and board.spaces[s].is_land == land]
    where = ""
    if spaces:
        names = [board.spaces[s].en if lang == "en" else board.spaces[s].ru for s in spaces if s in board.spaces]
        where = ": " + ", ".join(names[:8]) + ("…" if len(names) > 8 else "")
    kind = step["kind"]
    piece = step.get("piece", "")
    piece_ru = {"army": "армию", "navy": "флот", "any": "армию или флот"}.get(piece, piece)
    whose = [c for c in step.get("countries") or () if c != step["by"] and c in board.countries]
    whose_ru = f" страны {', '.join(board.countries[c].ru for c in whose)}" if whose else ""
    whose_en = f" of {', '.join(board.countries[c].en for c in whose)}" if whose else ""
    domain_ru = {"land": "на суше", "sea": "на море"}.get(step.get("domain"), "")
    ru = {"build": f"создать {piece_ru}{whose_ru}", "recruit": f"нанять {piece_ru}{whose_ru}",
          "battle": f"атака {domain_ru}", "eliminate": f"уничтожить {piece_ru}", "protect": "защитить фишку до конца хода",
          "discard": "выбрать колоду для сброса", "discard_status": "сбросить статус противника",
          "discard_response": "сбросить ответ противника", "manual": "выполнить по тексту карты",
          "play_from": "сыграть карту ({})".format({"own_deck": "из колоды", "own_discard": "из сброса",
                                                    "hand": "с руки"}.get(step.get("source"), ""))}.get(kind, kind)
    piece_en = {"any": "army or navy"}.get(piece, piece)
    en = {"build": f"build {piece_en}{whose_en}", "recruit": f"recruit {piece_en}{whose_en}",
          "battle": f"{step.get('domain', '')} battle", "eliminate": f"eliminate {piece_en}", "protect": "protect a piece for the rest of the turn",
          "discard": "choose the deck that discards", "discard_status": "discard an opponent's status",
          "discard_response": "discard an opponent's response", "manual": "apply as the card says",
          "play_from": "play a card ({})".format({"own_deck": "from the deck", "own_discard": "from the discard pile",
                                                 "hand": "from the hand"}.get(step.get("source"), ""))}.get(kind, kind)
    targets_ = [board.countries[t] for t in step.get("targets") or () if t in board.countries]
    if kind == "discard" and len(targets_) == 1 and not step.get("alternative"):  # a named deck discards
        n = int(step.get("n", 1))
        ru = f"{targets_[0].ru} {targets_[0].verb_ru('сбрасывает', 'сбрасывают')} из колоды: {cards_ru(n)}"
        en = f"{targets_[0].en} discards {cards_en(n)} from the top of its deck"
    if kind == "discard" and step.get("alternative"):  # «Мальтийские субмарины»: the target's own choice
        alt = step["alternative"]
        alt_spaces = [board.spaces[s] for s in alt.get("spaces") or () if s in board.spaces]
        ru = (f"сбросить {step.get('n', 1)} верхние карты своей колоды или убрать "
              f"{'свой флот' if alt.get('piece') == NAVY else 'свою армию'}"
              + (" из сектора «" + "», «".join(x.ru for x in alt_spaces) + "»" if alt_spaces else ""))
        en = (f"discard the top {step.get('n', 1)} cards of your deck or remove one of your "
              f"{'navies' if alt.get('piece') == NAVY else 'armies'}"
              + (" from " + ", ".join(x.en for x in alt_spaces) if alt_spaces else ""))
    if kind == "discard_status" and step.get("responses"):  # «Мэджик»: a status or a face-down response
        whose = [board.countries[t] for t in step.get("targets") or () if t in board.countries]
        ru = ("сбросить статус или закрытую карту ответа страны " + ", ".join(c.ru for c in whose)).strip()
        en = ("discard a status or a face-down response of " + ", ".join(c.en for c in whose)).strip()
    may_ru, may_en = (" (можно пропустить)", " (may be skipped)") if step.get("optional") else ("", "")
    body = f"{en}{where}{may_en}" if lang == "en" else f"{ru}{where}{may_ru}"
    return f"{name}: {body}" if title else body


def any_order_group(steps) -> int:
    """How many of ``steps`` (first first) form the open group of an "any order" card at the head: its board
    steps are offered together (card rules 6); 1 when the head is an ordinary step, 0 when none is open."""
    if not steps:
        return 0
    head = steps[0]
    if not head.get("any_order"):
        return 1
    k = 1
    while k < len(steps) and steps[k].get("any_order") and steps[k]["card"] == head["card"] \
            and steps[k]["by"] == head["by"] and steps[k].get("effect", 0) > steps[k - 1].get("effect", 0):
        k += 1
    return k


def describe_head(board: Board, steps, lang: str = "ru") -> str:
    """What the first open step asks for; for an "any order" card, every step of its group, in any order."""
    k = any_order_group(steps)
    if k <= 1:
        return describe(board, steps[0], lang) if steps else ""
    card = default_catalogue().get(steps[0]["card"])
    name = (card.name_en if lang == "en" else card.name_ru) if card else steps[0]["card"]
    parts = "; ".join(describe(board, {**st, "optional": False}, lang, title=False) for st in steps[:k])
    if lang == "en":
        return f"{name}: in any order — {parts} (each may be skipped)"
    return f"{name}: в любом порядке — {parts} (каждый шаг можно пропустить)"


AIR_RETREAT = "air_retreat"  # a step kind that is not a card's: a stranded air force moves or goes (card rules 6)


def describe_air_retreat(board: Board, step: dict, lang: str = "ru") -> str:
    """The stranded air force's step in words: where it stands, and what its owner may do."""
    c, sp = board.countries[step["by"]], board.spaces[step["space"]]
    if lang == "en":
        also = ", use air defence" if step.get("defence") else ""
        return (f"Air retreat: {c.en}'s air force in {sp.en} is left with no army or navy — move it next to one"
                f"{also} or remove it (Air Marshal)")
    also = ", применить авиазащиту" if step.get("defence") else ""
    return (f"Отступление авиации: авиация {c.of_ru()} в секторе «{sp.ru}» без армии и флота — перелететь к ним"
            f"{also} или убрать (Air Marshal)")


# ------------------------------------------------------------------------------------------
# Coverage: how the engine treats each card id
# ------------------------------------------------------------------------------------------

AUTOMATIC_KINDS = frozenset({"play_card_from", "modify_ew_discard", "cancel_card",
    "build", "recruit", "battle", "eliminate", "protect", "discard_from_deck", "discard_table_card", "vp_immediate",
    "vp_per_army_in", "vp_if_army_in", "vp_if_navy_in", "vp_per_navy_on_board", "supply_source_for",
    "not_supply_source_for", "always_supplied", "build_as_home",
})
GUIDED_KINDS = frozenset({"manual"})


def coverage(catalogue=None) -> dict[str, list[str]]:
    """Card ids by how the engine applies them: ``automatic`` (every effect run or checked by the
    engine), ``guided`` (a guided manual step: the player's judgment or hidden cards; each board action
    still checked) and ``note`` (an effect the engine only shows: changes to another card's count or
    cancelling a card)."""
    cat = catalogue or default_catalogue()
    out: dict[str, list[str]] = {"automatic": [], "guided": [], "note": []}
    for card in cat:
        kinds = set(card.effect_kinds)
        if kinds & GUIDED_KINDS:
            out["guided"].append(card.id)
        elif kinds <= AUTOMATIC_KINDS:
            out["automatic"].append(card.id)
        else:
            out["note"].append(card.id)
    return out
