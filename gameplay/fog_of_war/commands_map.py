"""Map commands of the stepper: enter the group's board map, override a province's control by hand.

Each handler is ``handler(st, table, command) -> Outcome`` (see ``commands_base``).
"""
from __future__ import annotations

from gameplay.common import Outcome

from .board import SIDES, BoardMap, MapError
from .commands_base import R, BadCommand, done, no, province_name, side_en, side_ru
from .events import transfer_province
from .limits import LimitError
from .state import GameState, ProvinceState


def _in_play(st: GameState, key: str) -> bool:
    p = st.provinces[key]
    return p.control != "neutral" or bool(p.defence["axis"] or p.defence["allies"] or p.neutral_cards)


def set_map(st: GameState, table: dict, c: dict) -> Outcome:
    """B-1: with a map, adjacency and supply are computed; provinces already in play must stay on it."""
    try:
        board = BoardMap.from_dict(c["map"])
    except MapError as exc:
        ru, en = (exc.ru, exc.en) if isinstance(exc, LimitError) else (str(exc), str(exc))
        return no("bad_map", f"Карта не принята: {ru}", f"The map was not accepted: {en}", "B-1")
    missing = [k for k in st.provinces if k not in board.provinces and _in_play(st, k)]
    if missing:
        return no("map_missing", f"В карте нет провинций, которые уже в игре: {', '.join(missing)}.",
                  f"The map lacks provinces already in play: {', '.join(missing)}.", "B-1")
    st = st.copy()
    st.board = board
    for k, p in board.provinces.items():
        if k not in st.provinces:
            st.provinces[k] = ProvinceState(k, control=p.start_control)
            for s in SIDES:
                if p.start_control != s and k not in st.sides[s].province_deck and k not in st.sides[s].in_front:
                    st.sides[s].province_deck.append(k)
    for k in [k for k in st.provinces if k not in board.provinces]:
        del st.provinces[k]
        for s in SIDES:
            if k in st.sides[s].province_deck:
                st.sides[s].province_deck.remove(k)
    st.refresh_supply()
    n = len(board.provinces)
    return done(st, R("set_map", f"Карта поля введена: {n} провинций; снабжение теперь считается.",
                      f"Board map entered: {n} provinces; supply is now computed."))


def set_control(st: GameState, table: dict, c: dict) -> Outcome:
    """Manual override (spec: every automatic step can be overridden by hand; logged)."""
    key, to = c["province"], c["control"]
    if key not in st.provinces or to not in (*SIDES, "neutral"):
        raise BadCommand("province/control")
    st = st.copy()
    if to == "neutral":
        old = st.provinces[key].control
        if old in st.sides and key in st.sides[old].in_front:
            st.sides[old].in_front.remove(key)
            st.sides[old].province_deck.append(key)
        st.provinces[key].control = "neutral"
    else:
        transfer_province(st, key, to)
    st.refresh_supply()
    ru_to, en_to = (side_ru(to), side_en(to)) if to in SIDES else ("нейтральна", "neutral")
    return done(st, R("set_control", f"Вручную: «{province_name(st, key, 'ru')}» — {ru_to}.",
                      f"By hand: {province_name(st, key, 'en')} — {en_to}."))


HANDLERS = {"set_map": set_map, "set_control": set_control}
