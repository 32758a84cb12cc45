"""QMG rules: straits, supply, victory points, sudden victory and the legality of actions.

Everything here is a pure function of a ``Board`` and a ``Position``; the precise statement
of each rule is in ``shared/reference/qmg_rules_notes.md`` (and docs/qmg-engine.md).
Statuses in play (``Position.statuses``) are applied through ``effects.modifiers``; the optional
``context`` parameter (card ids used this turn) is described in ``effects``. Straits and adjacency
(``strait_status``, ``Adjacency``) live in ``adjacency``, below both, and are re-exported here.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from gameplay.common.kept import Kept

from .adjacency import Adjacency, strait_status
from .board import ALLIES, AXIS, Board
from .cards import Catalogue
from .effects import (
    EffectContext, as_context, card as catalogue_card, card_names, condition_holds, countries_of, describe_condition,
    modifiers, status_score_lines,
)
from .reasons import KIND_NAMES, TEAM_NAMES, Reason, ScoreLine, reason
from .state import AIR, ARMY, NAVY, Piece, Position

# ------------------------------------------------------------------------------------------
# Supply
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PieceSupply:
    piece: Piece
    supplied: bool
    # supply.source | supply.card_source | supply.chain | supply.card_always | supply.navy_condition | supply.no_chain
    code: str
    chain: tuple[str, ...] = ()  # source space first, the piece's own space last
    board: Board | None = field(default=None, compare=False, repr=False)
    card: str | None = None  # the status that makes the source (card_source) or keeps it supplied (card_always)

    @property
    def reason(self) -> Reason:
        """Formatted on demand: most callers only need ``supplied``."""
        if self.code in ("supply.source", "supply.card_source"):
            names = _names(self.board)
            if self.code == "supply.card_source" and self.card:
                return reason("supply.card_source_named", **names.space(self.chain[0]),
                              **names.country(self.piece.country), **_card_fields(self.card))
            return reason(self.code, **names.space(self.chain[0]), **names.country(self.piece.country))
        if self.code == "supply.card_always":
            kind = self.piece.kind
            return reason(self.code, **_names(self.board).country(self.piece.country), **_card_fields(self.card),
                          piece_pl_ru=KIND_NAMES[kind][2], kind_en=KIND_NAMES[kind][3])
        if self.code == "supply.chain":
            spaces = [self.board.spaces[s] for s in reversed(self.chain)]
            return reason(self.code, chain_ru=" → ".join(s.ru for s in spaces) + " (источник)",
                          chain_en=" → ".join(s.en for s in spaces) + " (source)")
        return reason(self.code)


@dataclass(frozen=True)
class SupplyReport:
    """Read-only (``compute_supply`` hands the same report to every caller that asks about the same position)."""
    straits: Mapping[str, str]
    pieces: Mapping[Piece, PieceSupply]
    context: EffectContext | None = field(default=None, compare=False)  # the context it was computed with

    def supplied(self, piece: Piece) -> bool:
        return self.pieces[piece].supplied

    def unsupplied_of(self, country: str) -> list[Piece]:
        """Armies and navies out of supply (the supply step removes them; air forces retreat instead)."""
        return [p for p, s in self.pieces.items() if p.country == country and not s.supplied and p.kind != AIR]

    def stranded_air(self, country: str | None = None) -> list[Piece]:
        """Air forces with no army or navy of their country in their space: they must retreat."""
        return [p for p, s in self.pieces.items()
                if s.code == "air.stranded" and (country is None or p.country == country)]

    def supplied_of(self, country: str, kind: str | None = None) -> list[Piece]:
        return [p for p, s in self.pieces.items()
                if s.supplied and p.country == country and (kind is None or p.kind == kind)]


def is_source_for(board: Board, position: Position, space: str, country: str, context=None) -> str | None:
    """'star' or 'card' if ``space`` is a supply source for ``country`` in this position
    (statuses in play and explicit extra/blocked sources included)."""
    return modifiers(position, context).source_kind(board, space, country, board.team_of(country))


_SUPPLY = Kept(256)  # (board, position, context) -> its report: the last reports computed


def compute_supply(board: Board, position: Position, context=None) -> SupplyReport:
    """Supply of every piece on the board, with the reason (and the chain) for each.

    Statuses in play (and, through ``context``, cards used this turn) may add or strip sources
    and keep pieces supplied whatever their chain.

    A pure function of immutable values, so the last reports are kept: one tap asks about the same position
    several times (the legality check, the supply and victory steps, the page's map and reminders).
    """
    context = as_context(context)
    key = (board, position, context)  # a board compares by identity; positions and contexts by value
    try:
        found = _SUPPLY.get(key)
    except TypeError:  # a position built by hand with a list in it: not kept
        return _compute_supply(board, position, context)
    if found is None:
        found = _SUPPLY.keep(key, _compute_supply(board, position, context))
    return found


def _compute_supply(board: Board, position: Position, context) -> SupplyReport:
    mods = modifiers(position, context)
    source_kind = mods.source_kind
    always = mods.always_supplied
    straits = strait_status(board, position)
    team_army_spaces = {AXIS: set(), ALLIES: set()}
    by_country: dict[str, dict[str, Piece]] = {}
    air = []
    for p in position.pieces:
        if p.kind == AIR:  # air forces neither carry nor need supply chains
            air.append(p)
            continue
        if p.kind == ARMY:
            team_army_spaces[board.team_of(p.country)].add(p.space)
        by_country.setdefault(p.country, {})[p.space] = p  # army and navy never share a space
    result: dict[Piece, PieceSupply] = {}
    adj = {team: Adjacency(board, straits, team) for team in (AXIS, ALLIES)}
    for country, own in by_country.items():
        team = board.team_of(country)
        armies_of_team = team_army_spaces[team]
        navies_kept = bool(always) and (country, NAVY) in always
        eligible = {}
        for space, p in own.items():
            if p.kind == NAVY and not navies_kept and not (board.static_neighbours(space) & armies_of_team):
                result[p] = PieceSupply(p, False, "supply.navy_condition")
            else:
                eligible[space] = p
        parent: dict[str, str | None] = {}
        queue = deque()
        source_at: dict[str, str] = {}
        for space, p in eligible.items():
            if p.kind == ARMY:
                kind = source_kind(board, space, country, team)
                if kind:
                    source_at[space] = kind
                    parent[space] = None
                    queue.append(space)
        neighbours = adj[team].neighbours
        while queue:
            here = queue.popleft()
            for nxt in neighbours(here):
                if nxt in eligible and nxt not in parent:
                    parent[nxt] = here
                    queue.append(nxt)
        for space, p in eligible.items():
            if space not in parent:
                kept_by = always.get((country, p.kind)) if always else None
                if kept_by:
                    result[p] = PieceSupply(p, True, "supply.card_always", (space,), board, kept_by)
                else:
                    result[p] = PieceSupply(p, False, "supply.no_chain", board=board)
                continue
            chain = [space]
            while parent[chain[-1]] is not None:
                chain.append(parent[chain[-1]])
            chain.reverse()
            card = None
            if len(chain) > 1:
                code = "supply.chain"
            elif source_at[space] == "star":
                code = "supply.source"
            else:
                code = "supply.card_source"
                card = mods.card_sources[space][country][1]
            result[p] = PieceSupply(p, True, code, tuple(chain), board, card)
    for p in air:  # an air force is supplied while its country's army or navy there is supplied
        base = by_country.get(p.country, {}).get(p.space)
        if base is None:
            result[p] = PieceSupply(p, False, "air.stranded", (p.space,), board)
        else:
            ok = result[base].supplied
            result[p] = PieceSupply(p, ok, "air.supplied" if ok else "air.unsupplied", (p.space,), board)
    return SupplyReport(straits=MappingProxyType(straits),
                        pieces=MappingProxyType({p: result[p] for p in position.pieces}), context=context)


def remove_unsupplied(board: Board, position: Position, country: str,
                      supply: SupplyReport | None = None, context=None) -> tuple[Position, list[Piece]]:
    """The supply step of ``country``: its unsupplied pieces leave the board."""
    supply = supply or compute_supply(board, position, context)
    gone = supply.unsupplied_of(country)
    return position.without_pieces(gone), gone


# ------------------------------------------------------------------------------------------
# Victory
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VictoryResult:
    country: str
    points: int
    skipped: bool
    lines: tuple[ScoreLine, ...] = ()
    skip_reason: Reason | None = None

    def detail(self, lang: str = "ru") -> list[str]:
        if self.skipped:
            return [self.skip_reason.text(lang)]
        return [line.reason.text(lang) for line in self.lines]


def home_occupier(board: Board, position: Position, country: str) -> Piece | None:
    """An enemy army in ``country``'s home space, if any."""
    home = board.countries[country].home
    team = board.team_of(country)
    for p in position.pieces:
        if p.space == home and p.kind == ARMY and board.team_of(p.country) != team:
            return p
    return None


def victory_step(board: Board, position: Position, country: str,
                 supply: SupplyReport | None = None, context=None) -> VictoryResult:
    """What ``country`` scores in its victory step, right after its own supply step.

    Its unsupplied pieces are treated as gone; other countries' pieces stay. Its scoring
    statuses in play add one line each (card=<card id>); a skipped step scores nothing at all.
    """
    names = _names(board)
    occupier = home_occupier(board, position, country)
    if occupier is not None:
        home = board.countries[country].home
        return VictoryResult(country, 0, True, (), reason(
            "victory.skipped", **names.space(home), **names.other(occupier.country)))
    if context is None and supply is not None:
        context = supply.context
    mods = modifiers(position, context)
    supply = supply or compute_supply(board, position, context)
    team = board.team_of(country)
    team_armies: dict[str, list[str]] = {}
    for p in position.pieces:
        if p.kind == ARMY and p.country != country and board.team_of(p.country) == team:
            team_armies.setdefault(p.space, []).append(p.country)
    lines = []
    for p in position.pieces:
        if p.country != country or p.kind != ARMY or not supply.supplied(p):
            continue
        kind = mods.source_kind(board, p.space, country, team)
        if kind == "star":
            allies = team_armies.get(p.space, [])
            if allies:
                lines.append(ScoreLine(1, reason(
                    "victory.shared", points=1, **names.space(p.space),
                    with_ru=" и ".join(board.countries[a].ru_with for a in allies),
                    with_en=" and ".join(board.countries[a].en for a in allies)), p.space))
            else:
                lines.append(ScoreLine(2, reason("victory.alone", points=2, **names.space(p.space)), p.space))
        elif kind == "card":
            vp, card = mods.card_sources[p.space][country]
            if not vp:
                continue
            if card:
                lines.append(ScoreLine(vp, reason("victory.card_source_named", points=vp, **names.space(p.space),
                                                  **_card_fields(card)), p.space, card))
            else:
                lines.append(ScoreLine(vp, reason("victory.card_source", points=vp, **names.space(p.space)), p.space))
    if not lines:
        lines.append(ScoreLine(0, reason("victory.nothing")))
    if mods.scoring.get(country):
        gone = supply.unsupplied_of(country)
        view = position.without_pieces(gone) if gone else position
        lines += status_score_lines(board, view, country, mods, supply)
    return VictoryResult(country, sum(line.points for line in lines), False, tuple(lines))


def victory_phase_all(board: Board, position: Position, supply: SupplyReport | None = None,
                      context=None) -> dict[str, VictoryResult]:
    """Every country's victory step as if its own supply step had just run."""
    if context is None and supply is not None:
        context = supply.context
    supply = supply or compute_supply(board, position, context)
    return {c: victory_step(board, position, c, supply, context) for c in board.turn_order}


# ------------------------------------------------------------------------------------------
# Points gained when a card resolves
# ------------------------------------------------------------------------------------------


def immediate_vp(board: Board, position: Position, card_id: str, country: str,
                 catalogue: Catalogue | None = None, context=None) -> tuple[int, tuple]:
    """Points ``country`` gains at once by playing ``card_id`` (its ``vp_immediate`` effects).

    Not tied to the victory step: an enemy army in the home space does not stop them. A card
    without ``vp_immediate`` gives ``(0, ())``; an unmet ``requires`` gives a 0 line saying why.
    """
    c = catalogue_card(card_id, catalogue)
    lines = []
    supply = straits = None
    for e in c.effects_of("vp_immediate"):
        amount = int(e.get("amount", 1))
        cond = e.get("requires")
        if cond is not None:
            if cond.get("supplied") and supply is None:
                supply = compute_supply(board, position, context)
            if straits is None:
                straits = strait_status(board, position)
            if not condition_holds(board, position.pieces, cond, country, supply, straits):
                why_ru, why_en = describe_condition(board, cond, country)
                lines.append(ScoreLine(0, reason("vp_immediate.not_met", card_ru=c.name_ru, card_en=c.name_en,
                                                 detail_ru=why_ru, detail_en=why_en), card=c.id))
                continue
        per = e.get("per")
        if per is None:
            points = amount
            detail_ru, detail_en = "по карте", "by the card"
        else:
            countries = countries_of(e.get("country"), country)
            kinds = (ARMY, NAVY) if per == "army_or_navy_outside_home" else (ARMY,)
            n = 0
            for p in position.pieces:
                if p.country in countries and p.kind in kinds and p.space != board.countries[p.country].home:
                    n += 1
            points = amount * n
            homes_ru = ", ".join(f"«{board.spaces[board.countries[x].home].ru}»" for x in countries)
            homes_en = ", ".join(board.spaces[board.countries[x].home].en for x in countries)
            what_ru = "армий и флотов" if len(kinds) == 2 else "армий"
            what_en = "armies and navies" if len(kinds) == 2 else "armies"
            detail_ru = f"{what_ru} вне сектора {homes_ru}: {n} × {amount}"
            detail_en = f"{what_en} outside {homes_en}: {n} × {amount}"
        lines.append(ScoreLine(points, reason("vp_immediate.ok", card_ru=c.name_ru, card_en=c.name_en, points=points,
                                              detail_ru=detail_ru, detail_en=detail_en), card=c.id))
    return sum(line.points for line in lines), tuple(lines)


def sudden_victory(board: Board, position: Position) -> str | None:
    """The team whose armies hold two home spaces of the other team (1st-edition rule).

    A position where both teams qualify cannot arise one move at a time; the Axis is
    returned then, as in the tie rule.
    """
    for team in (AXIS, ALLIES):
        enemy_homes = {c.home for c in board.countries.values() if c.team != team}
        held = {p.space for p in position.pieces
                if p.kind == ARMY and p.space in enemy_homes and board.team_of(p.country) == team}
        if len(held) >= 2:
            return team
    return None


def sudden_victory_reason(board: Board, position: Position, team: str) -> Reason:
    enemy_homes = {c.home for c in board.countries.values() if c.team != team}
    held = sorted({p.space for p in position.pieces
                   if p.kind == ARMY and p.space in enemy_homes and board.team_of(p.country) == team})
    return reason("sudden_victory", team_ru=TEAM_NAMES[team][0], team_en=TEAM_NAMES[team][1],
                  spaces_ru=", ".join(board.spaces[s].ru for s in held),
                  spaces_en=", ".join(board.spaces[s].en for s in held))


# ------------------------------------------------------------------------------------------
# Actions
# ------------------------------------------------------------------------------------------

BUILD_ARMY, BUILD_NAVY = "build_army", "build_navy"
RECRUIT_ARMY, RECRUIT_NAVY = "recruit_army", "recruit_navy"
LAND_BATTLE, SEA_BATTLE = "land_battle", "sea_battle"
ELIMINATE, REMOVE = "eliminate", "remove"
ACTION_TYPES = (BUILD_ARMY, BUILD_NAVY, RECRUIT_ARMY, RECRUIT_NAVY, LAND_BATTLE, SEA_BATTLE, ELIMINATE, REMOVE)
PLACING = {BUILD_ARMY: ARMY, BUILD_NAVY: NAVY, RECRUIT_ARMY: ARMY, RECRUIT_NAVY: NAVY}

RULE_NAMES = {
    BUILD_ARMY: ("Создайте армию", "Build Army"),
    BUILD_NAVY: ("Создайте флот", "Build Navy"),
    LAND_BATTLE: ("Атака на суше", "Land Battle"),
    SEA_BATTLE: ("Атака на море", "Sea Battle"),
}


@dataclass(frozen=True)
class Action:
    type: str
    country: str
    space: str
    target_country: str | None = None  # eliminate / battle: whose piece (when several could be meant)
    kind: str | None = None  # eliminate / remove: army or navy (defaults from the space)
    waiver: tuple[str, str] | None = None  # battle: a card's (ru, en) name that waives the adjacent piece

    def to_dict(self) -> dict:
        d = {"type": self.type, "country": self.country, "space": self.space}
        if self.target_country:
            d["target_country"] = self.target_country
        if self.kind:
            d["kind"] = self.kind
        return d


@dataclass(frozen=True)
class Verdict:
    legal: bool
    reason: Reason
    places: tuple[Piece, ...] = ()
    removes: tuple[Piece, ...] = ()
    warnings: tuple[Reason, ...] = field(default=())


def check_action(board: Board, position: Position, action: Action,
                 supply: SupplyReport | None = None, context=None) -> Verdict:
    """Is ``action`` legal in ``position``? Never raises for an illegal action."""
    if context is None and supply is not None:
        context = supply.context
    supply = supply or compute_supply(board, position, context)
    handler = _HANDLERS[action.type]
    return handler(board, position, action, supply, as_context(context))


def apply_action(board: Board, position: Position, action: Action,
                 supply: SupplyReport | None = None, context=None) -> tuple[Verdict, Position]:
    """The verdict and the position after the action (unchanged when illegal)."""
    verdict = check_action(board, position, action, supply, context)
    if not verdict.legal:
        return verdict, position
    new = position.without_pieces(verdict.removes)
    for p in verdict.places:
        new = new.with_piece(p)
    return verdict, new


def _refuse(code, **fields) -> Verdict:
    return Verdict(False, reason(code, **fields))


def _placement_problem(board, position, country, kind, space) -> Verdict | None:
    """Terrain, stacking and piece-limit checks shared by build and recruit."""
    names = _names(board)
    sp = board.spaces[space]
    if kind == ARMY and not sp.is_land:
        return _refuse("army_on_land", **names.space(space))
    if kind == NAVY and sp.is_land:
        return _refuse("navy_at_sea", **names.space(space))
    team = board.team_of(country)
    for p in position.at(space):
        if p.country == country and p.kind == kind:
            return _refuse("stacking.own", **names.space(space), **names.country(country), **names.kind(kind),
                           piece_gen_ru=KIND_NAMES[kind][1])
        if board.team_of(p.country) != team:
            return _refuse("stacking.enemy", **names.space(space), **names.other(p.country), **names.kind(p.kind))
    c = board.countries[country]
    limit = c.armies if kind == ARMY else c.navies
    if position.count(country, kind) >= limit:
        return _refuse("limit", **names.country(country), **names.kind(kind), limit=limit)
    return None


def _check_build(board, position, action, supply, context=None) -> Verdict:
    kind = PLACING[action.type]
    country, space = action.country, action.space
    problem = _placement_problem(board, position, country, kind, space)
    if problem:
        return problem
    names = _names(board)
    team = board.team_of(country)
    adj = Adjacency(board, supply.straits, team)
    piece = Piece(country, kind, space)
    rule_ru, rule_en = RULE_NAMES[action.type]
    support = [p for p in supply.supplied_of(country) if adj.adjacent(p.space, space)]
    as_home = modifiers(position, context).build_as_home
    as_home_card = as_home.get((country, kind, space)) if as_home else None
    if kind == ARMY:
        if space == board.countries[country].home:
            why_ru, why_en = "это ваш домашний сектор", "it is your home space"
        elif as_home_card:
            why_ru, why_en = _as_home(board, as_home_card, space)
        elif support:
            why_ru, why_en = _next_to(board, support[0])
        else:
            return _refuse("build_army.not_adjacent")
    else:
        if not support and not as_home_card:
            return _refuse("build_navy.not_adjacent", **_closed_strait_hint(board, supply, adj, country, space))
        after = compute_supply(board, position.with_piece(piece), context)
        if not after.supplied(piece):
            return _refuse("build_navy.unsupplied", **names.space(space))
        why_ru, why_en = _next_to(board, support[0]) if support else _as_home(board, as_home_card, space)
    return Verdict(True, reason("build.ok", **names.space(space), piece_ru=KIND_NAMES[kind][0],
                                piece_en=KIND_NAMES[kind][3], why_ru=why_ru, why_en=why_en,
                                rule_ru=rule_ru, rule_en=rule_en), places=(piece,))


def _check_recruit(board, position, action, supply, context=None) -> Verdict:
    kind = PLACING[action.type]
    problem = _placement_problem(board, position, action.country, kind, action.space)
    if problem:
        return problem
    piece = Piece(action.country, kind, action.space)
    after = compute_supply(board, position.with_piece(piece), context)
    owner = board.countries[action.country]  # the piece's own country: its supply step removes it
    warnings = () if after.supplied(piece) else (reason("reminder.recruit_unsupplied", country_ru=owner.ru,
                                                        country_en=owner.en),)
    return Verdict(True, reason("recruit.ok"), places=(piece,), warnings=warnings)


def _check_battle(board, position, action, supply, context=None) -> Verdict:
    names = _names(board)
    country, space = action.country, action.space
    sp = board.spaces[space]
    if action.type == LAND_BATTLE and not sp.is_land:
        return _refuse("battle.wrong_domain_land", **names.space(space))
    if action.type == SEA_BATTLE and sp.is_land:
        return _refuse("battle.wrong_domain_sea", **names.space(space))
    team = board.team_of(country)
    here = position.at(space)
    own_team = [p for p in here if board.team_of(p.country) == team]
    if own_team:
        return _refuse("battle.own_team", **names.other(own_team[0].country))
    rule_ru, rule_en = RULE_NAMES[action.type]
    adj = Adjacency(board, supply.straits, team)
    support = [p for p in supply.supplied_of(country) if adj.adjacent(p.space, space)]
    if not support and not action.waiver:
        return _refuse("battle.not_adjacent", **names.space(space), rule_ru=rule_ru, rule_en=rule_en,
                       **_closed_strait_hint(board, supply, adj, country, space))
    kind = ARMY if sp.is_land else NAVY
    targets = [p for p in here if p.kind == kind]
    if action.target_country:
        targets = [p for p in targets if p.country == action.target_country]
        if not targets:
            return _refuse("battle.no_such_target", **names.space(space), **names.country(action.target_country))
    warnings, removes = (), ()
    if not targets:
        result_ru, result_en = "Сектор пуст — убирать нечего.", "The space is empty — nothing is removed."
        warnings = (reason("reminder.empty_target"),)
    elif len(targets) == 1:
        removes = (targets[0],)
        result_ru = f"Убирается {KIND_NAMES[kind][0]} страны {board.countries[targets[0].country].ru}."
        result_en = f"The {kind} of {board.countries[targets[0].country].en} is removed."
    else:
        result_ru = "Выберите, чью фишку убрать: " + ", ".join(board.countries[p.country].ru for p in targets) + "."
        result_en = "Choose whose piece is removed: " + ", ".join(board.countries[p.country].en for p in targets) + "."
    why = reason("battle.ok_card", **names.space(space), card_ru=action.waiver[0], card_en=action.waiver[1],
                 result_ru=result_ru, result_en=result_en) if not support else reason(
        "battle.ok", **names.space(space), from_ru=board.spaces[support[0].space].ru,
        from_en=board.spaces[support[0].space].en, rule_ru=rule_ru, rule_en=rule_en, result_ru=result_ru,
        result_en=result_en)
    return Verdict(True, why, removes=removes, warnings=warnings)


def _matching(board, position, action) -> list[Piece]:
    kind = action.kind or (ARMY if board.spaces[action.space].is_land else NAVY)
    return [p for p in position.at(action.space) if p.kind == kind
            and (action.target_country is None or p.country == action.target_country)]


def _check_eliminate(board, position, action, supply, context=None) -> Verdict:
    names = _names(board)
    team = board.team_of(action.country)
    pieces = _matching(board, position, action)
    if pieces and all(board.team_of(p.country) == team for p in pieces):
        return _refuse("eliminate.own_team")
    pieces = [p for p in pieces if board.team_of(p.country) != team]
    if not pieces:
        return _refuse("eliminate.nothing", **names.space(action.space))
    target = pieces[0]
    c = board.countries[target.country]
    return Verdict(True, reason("eliminate.ok", target_ru=f"{KIND_NAMES[target.kind][0]} страны {c.ru}",
                                target_en=f"the {target.kind} of {c.en}"), removes=(target,))


def _check_remove(board, position, action, supply, context=None) -> Verdict:
    names = _names(board)
    pieces = _matching(board, position, action)
    own = [p for p in pieces if p.country == action.country]
    if own:
        return Verdict(True, reason("remove.ok"), removes=(own[0],))
    if pieces:
        return _refuse("remove.not_own")
    return _refuse("remove.nothing", **names.space(action.space))


_HANDLERS = {
    BUILD_ARMY: _check_build, BUILD_NAVY: _check_build,
    RECRUIT_ARMY: _check_recruit, RECRUIT_NAVY: _check_recruit,
    LAND_BATTLE: _check_battle, SEA_BATTLE: _check_battle,
    ELIMINATE: _check_eliminate, REMOVE: _check_remove,
}


def _next_to(board, piece: Piece) -> tuple[str, str]:
    sp = board.spaces[piece.space]
    your = "ваша снабжаемая армия" if piece.kind == ARMY else "ваш снабжаемый флот"
    return (f"рядом {your} в секторе «{sp.ru}»",
            f"your supplied {piece.kind} in {sp.en} is adjacent")


def _as_home(board, card_id: str, space: str) -> tuple[str, str]:
    ru, en = card_names(card_id)
    sp = board.spaces[space]
    return (f"пока в игре карта «{ru}», сектор «{sp.ru}» считается вашим домашним для создания",
            f"while the card “{en}” is in play, {sp.en} counts as your home space for building")


def _card_fields(card_id: str) -> dict:
    ru, en = card_names(card_id)
    return {"card_ru": ru, "card_en": en}


def _closed_strait_hint(board, supply, adj, country, space) -> dict:
    """Name a strait that is closed for the country's team and would have made ``space`` adjacent."""
    own_spaces = {p.space for p in supply.supplied_of(country)}
    for sid, open_for in supply.straits.items():
        s = board.straits[sid]
        if open_for != board.team_of(country) and space in s.seas:
            other = s.seas[1] if s.seas[0] == space else s.seas[0]
            if other in own_spaces:
                return {"straits_ru": f"; пролив «{s.ru}» закрыт для вашего лагеря",
                        "straits_en": f"; the {s.en} strait is closed for your team"}
    return {"straits_ru": "", "straits_en": ""}


class _Names:
    """Template fields for spaces and countries, in both languages."""

    def __init__(self, board: Board):
        self.board = board

    def space(self, sid):
        s = self.board.spaces[sid]
        return {"space_ru": s.ru, "space_en": s.en}

    def country(self, cid):
        c = self.board.countries[cid]
        return {"country_ru": c.ru, "country_en": c.en}

    def other(self, cid):
        c = self.board.countries[cid]
        return {"other_ru": c.ru, "other_en": c.en}

    def kind(self, kind):
        return {"kind_en": KIND_NAMES[kind][3], "piece_ru": KIND_NAMES[kind][0], "piece_pl_ru": KIND_NAMES[kind][2]}


def _names(board: Board) -> _Names:
    return _Names(board)
