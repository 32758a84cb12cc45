"""Air Marshal expansion: air forces, their deployment, movement, retreat, air defence and air strike.

Readings the app adopts (the quick reference 001 leaves them open):
- an air force is *supplied* while an army or navy of its own country in the same space is supplied;
- air forces neither carry nor need supply chains and never score; the supply step removes only
  armies and navies — an air force left alone retreats instead;
- "adjacent" for a retreat or an air strike is the adjacency of the air force's team (straits included).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .adjacency import Adjacency
from .board import Board
from .reasons import Reason
from .rules import SupplyReport, Verdict, compute_supply
from .state import AIR, ARMY, NAVY, Piece, Position


def _r(code, ru, en) -> Reason:
    return Reason(code, ru, en)


def _no(code, ru, en) -> Verdict:
    return Verdict(False, _r(code, ru, en))


def _name(board, space):
    s = board.spaces[space]
    return s.ru, s.en


def _own_supplied_base(position: Position, supply: SupplyReport, country: str, space: str) -> bool:
    return any(p.country == country and p.space == space and p.kind in (ARMY, NAVY) and supply.supplied(p)
               for p in position.pieces)


def _own_base(position: Position, country: str, space: str) -> bool:
    return any(p.country == country and p.space == space and p.kind in (ARMY, NAVY) for p in position.pieces)


def deploy_air(board: Board, position: Position, country: str, space: str, limit: int,
               supply: SupplyReport | None = None) -> Verdict:
    """Deploy Air Force card: into a space with your supplied army or navy; one air force per country per space."""
    supply = supply or compute_supply(board, position)
    ru, en = _name(board, space)
    if not _own_supplied_base(position, supply, country, space):
        return _no("air.deploy_base", f"Авиацию размещают только в секторе с вашей снабжаемой армией или флотом, "
                   f"а в «{ru}» их нет (Air Marshal: «Развёртывание авиации»).",
                   f"An air force is deployed only where your supplied army or navy stands, and {en} has none "
                   "(Air Marshal: Deploy Air Force).")
    if Piece(country, AIR, space) in position.pieces:
        return _no("air.stacking", f"В «{ru}» уже есть ваша авиация: одна авиация страны на сектор (Air Marshal).",
                   f"Your air force is already in {en}: one air force per country per space (Air Marshal).")
    if position.count(country, AIR) >= limit:
        return _no("air.limit", f"Все ваши авиации ({limit}) уже на поле (Air Marshal).",
                   f"All your air forces ({limit}) are already on the board (Air Marshal).")
    return Verdict(True, _r("air.deploy_ok", f"Авиация размещена в «{ru}».", f"Air force deployed in {en}."),
                   places=(Piece(country, AIR, space),))


def move_air(board: Board, position: Position, country: str, from_space: str, to_space: str,
             supply: SupplyReport | None = None) -> Verdict:
    """Move a supplied air force (cost: discard any card) to a space with your supplied army or navy."""
    supply = supply or compute_supply(board, position)
    piece = Piece(country, AIR, from_space)
    if piece not in position.pieces:
        ru, en = _name(board, from_space)
        return _no("air.none", f"В «{ru}» нет вашей авиации (Air Marshal).", f"You have no air force in {en} (Air Marshal).")
    if not supply.supplied(piece):
        return _no("air.move_unsupplied", "Перемещать можно только снабжаемую авиацию (Air Marshal: перемещение).",
                   "Only a supplied air force may move (Air Marshal: moving air forces).")
    ru, en = _name(board, to_space)
    if not _own_supplied_base(position, supply, country, to_space):
        return _no("air.move_base", f"Авиация перелетает только в сектор с вашей снабжаемой армией или флотом, "
                   f"а в «{ru}» их нет (Air Marshal: перемещение).",
                   f"An air force moves only to a space with your supplied army or navy, and {en} has none "
                   "(Air Marshal: moving air forces).")
    if to_space != from_space and Piece(country, AIR, to_space) in position.pieces:
        return _no("air.stacking", f"В «{ru}» уже есть ваша авиация: одна авиация страны на сектор (Air Marshal).",
                   f"Your air force is already in {en}: one air force per country per space (Air Marshal).")
    if to_space == from_space:
        return Verdict(True, _r("air.move_ok", f"Авиация остаётся в «{ru}» (перемещение на месте).",
                                f"The air force stays in {en} (moved in place)."))
    return Verdict(True, _r("air.move_ok", f"Авиация перелетает в «{ru}».", f"The air force moves to {en}."),
                   removes=(piece,), places=(Piece(country, AIR, to_space),))


def retreat_options(board: Board, position: Position, country: str, space: str, straits: dict) -> list[str]:
    adj = Adjacency(board, straits, board.team_of(country))
    return sorted(s for s in adj.neighbours(space)
                  if _own_base(position, country, s) and Piece(country, AIR, s) not in position.pieces)


def air_retreat(board: Board, position: Position, country: str, from_space: str, to_space: str | None,
                supply: SupplyReport | None = None, may_remove: bool = False) -> Verdict:
    """A stranded air force moves at once to an adjacent space with its army or navy, or is removed.
    ``may_remove`` (card rules 6): its owner may let it go even when a space is open to it — it may not stay."""
    supply = supply or compute_supply(board, position)
    piece = Piece(country, AIR, from_space)
    if piece not in position.pieces or _own_base(position, country, from_space):
        ru, en = _name(board, from_space)
        return _no("air.not_stranded", f"Авиации в «{ru}» отступать не нужно (Air Marshal: отступление).",
                   f"The air force in {en} need not retreat (Air Marshal: air retreat).")
    options = retreat_options(board, position, country, from_space, supply.straits)
    if to_space is None:
        if options and may_remove:
            return Verdict(True, _r("air.retreat_removed", "Авиацию убрали с поля: её владелец не стал перелетать "
                                    "в соседний сектор (Air Marshal: отступление).",
                                    "The air force is taken off the board: its owner chose not to move it to an "
                                    "adjacent space (Air Marshal: air retreat)."), removes=(piece,))
        if options:
            names = ", ".join(board.spaces[s].ru for s in options)
            names_en = ", ".join(board.spaces[s].en for s in options)
            return _no("air.retreat_must_move", f"Есть куда отступить ({names}): авиацию убирают, только если "
                       "соседнего сектора с вашей армией или флотом нет (Air Marshal: отступление).",
                       f"There is somewhere to retreat ({names_en}): an air force is removed only when no adjacent "
                       "space has your army or navy (Air Marshal: air retreat).")
        return Verdict(True, _r("air.retreat_removed", "Отступать некуда: авиация уходит с поля.",
                                "Nowhere to retreat: the air force leaves the board."), removes=(piece,))
    if to_space not in options:
        ru, en = _name(board, to_space)
        return _no("air.retreat_where", f"Отступить можно только в соседний сектор с вашей армией или флотом; "
                   f"«{ru}» не подходит (Air Marshal: отступление).",
                   f"A retreat goes only to an adjacent space with your army or navy; {en} is not one "
                   "(Air Marshal: air retreat).")
    ru, en = _name(board, to_space)
    return Verdict(True, _r("air.retreat_ok", f"Авиация отступает в «{ru}».", f"The air force retreats to {en}."),
                   removes=(piece,), places=(Piece(country, AIR, to_space),))


def air_defence(board: Board, position: Position, attacked: Piece) -> Verdict:
    """The attacked army or navy stays; its country's air force in that space is removed instead.

    ``position`` is the position *before* the attack removed ``attacked``."""
    air = Piece(attacked.country, AIR, attacked.space)
    if air not in position.pieces:
        ru, en = _name(board, attacked.space)
        return _no("air.defence_none", f"В «{ru}» нет авиации атакованной страны (Air Marshal: авиазащита).",
                   f"The attacked country has no air force in {en} (Air Marshal: air defence).")
    ru, en = _name(board, attacked.space)
    return Verdict(True, _r("air.defence_ok", f"Авиазащита: вместо фишки в «{ru}» с поля уходит авиация.",
                            f"Air defence: the air force in {en} is removed instead of the attacked piece."),
                   removes=(air,), places=(attacked,))


def air_strike(board: Board, position: Position, attacker: str, from_space: str, attacked: Piece,
               straits: dict) -> Verdict:
    """After an air defence: the attacker removes its air force adjacent to the attacked space to
    remove the attacked piece anyway."""
    air = Piece(attacker, AIR, from_space)
    ru, en = _name(board, from_space)
    if air not in position.pieces:
        return _no("air.strike_none", f"В «{ru}» нет авиации атакующей страны (Air Marshal: авианалёт).",
                   f"The attacker has no air force in {en} (Air Marshal: air strike).")
    if not Adjacency(board, straits, board.team_of(attacker)).adjacent(from_space, attacked.space):
        return _no("air.strike_adjacent", f"Авианалёт возможен только авиацией из сектора, соседнего с атакованным; "
                   f"«{ru}» не соседний (Air Marshal: авианалёт).",
                   f"An air strike uses an air force adjacent to the attacked space; {en} is not adjacent "
                   "(Air Marshal: air strike).")
    tru, ten = _name(board, attacked.space)
    return Verdict(True, _r("air.strike_ok", f"Авианалёт: авиация из «{ru}» уходит, фишка в «{tru}» убрана.",
                            f"Air strike: the air force from {en} is spent and the piece in {ten} is removed."),
                   removes=(air, attacked))


# ------------------------------------------------------------------------------------------
# What the players may (or must) do now
# ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StrandedAir:
    """An air force that must retreat now, and the spaces it may retreat to (none: it is removed)."""

    country: str
    space: str
    retreat_to: tuple[str, ...]


@dataclass(frozen=True)
class AirPrompts:
    """The Air Marshal choices open to some countries at this moment (space ids, not names)."""

    stranded: tuple[StrandedAir, ...] = ()  # their air forces that must retreat
    defence: bool = False  # one of them may answer the last attack with air defence
    strike_from: tuple[str, ...] = ()  # spaces from which the attacker may answer the defence with an air strike


def air_prompts(board: Board, position: Position, attack: dict | None, supply: SupplyReport,
                countries: Iterable[str] | None = None) -> AirPrompts:
    """The air retreats, air defence and air strikes ``countries`` (default: all) may make now.

    ``attack`` is the table's last battle that removed a piece (``Table.attack``), ``supply`` the
    supply of ``position``. An air force stranded by the attack just made is not asked to retreat
    yet: its country may first use air defence, which puts the attacked piece back.
    """
    mine = set(board.countries if countries is None else countries)
    hit = attack or {}
    undefended = bool(hit) and not hit["defended"]
    stranded = []
    for p in supply.stranded_air():
        if undefended and (p.country, p.space) == (hit["country"], hit["space"]):
            continue  # its army or navy was just attacked: air defence comes first
        if p.country in mine:
            options = retreat_options(board, position, p.country, p.space, supply.straits)
            stranded.append(StrandedAir(p.country, p.space, tuple(options)))
    defence = (undefended and hit["country"] in mine
               and Piece(hit["country"], AIR, hit["space"]) in position.pieces)
    strike_from: tuple[str, ...] = ()
    if hit and hit["defended"] and hit["attacker"] in mine:
        adj = Adjacency(board, supply.straits, board.team_of(hit["attacker"]))
        strike_from = tuple(p.space for p in position.pieces
                            if p.country == hit["attacker"] and p.kind == AIR and adj.adjacent(p.space, hit["space"]))
    return AirPrompts(tuple(stranded), bool(defence), strike_from)
