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


# --- tables and commands, as the web table sends them ------------------------------------------

SIX = ["germany army germany", "united_kingdom army united_kingdom", "japan army japan", "soviet_union army moscow",
       "italy army italy", "united_states army eastern_us"]


def table_of(pieces=SIX, **kw):
    """A table set up as a ``qmg_play`` scenario: pieces as "country kind space", the other keys as the file's."""
    from gameplay.qmg.scenario import setup_table
    table, _, _ = setup_table(BOARD, {"pieces": [dict(zip(("country", "kind", "space"), p.split())) for p in pieces],
                                      **kw})
    return table


def apply(table, cmd):
    """The command applied (it must be accepted); the stored operations rebuild the same table."""
    from gameplay.qmg.table import apply_command, apply_ops
    out = apply_command(BOARD, table, cmd)
    assert out.ok, (cmd, out.reason.code, out.reason.en)
    assert apply_ops(table, list(out.changes)) == out.state
    return out.state


def answer(table, cmd):
    from gameplay.qmg.table import apply_command
    return apply_command(BOARD, table, cmd)


def play(country, card_type, card_id=None, **kw):
    return {"type": "play_card", "country": country, "card_type": card_type, **({"card_id": card_id} if card_id else {}),
            **kw}


def step(country, action, **kw):
    return {"type": "step", "country": country, "action": action, **kw}


def use(country, card_id):
    return {"type": "use_card", "country": country, "card_id": card_id}


def pass_(country):
    return {"type": "pass", "country": country}
