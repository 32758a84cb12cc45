"""Shorthand for building QMG positions in tests."""
from gameplay.qmg import Action, Piece, Position, load_board

BOARD = load_board()

SHORT = {"ger": "germany", "uk": "united_kingdom", "jpn": "japan", "su": "soviet_union", "ita": "italy",
         "us": "united_states"}


def pos(*specs, **kw) -> Position:
    """pos("ger army germany", "ita navy mediterranean", extra_sources={...})"""
    pieces = []
    for spec in specs:
        country, kind, space = spec.split()
        pieces.append(Piece(SHORT.get(country, country), kind, space))
    return Position.of(pieces, kw.get("extra_sources"), kw.get("blocked_sources"))


def act(spec: str, target_country=None, kind=None) -> Action:
    """act("ger build_army eastern_europe")"""
    country, type_, space = spec.split()
    return Action(type_, SHORT.get(country, country), space, SHORT.get(target_country, target_country), kind)
