"""Small builders for Generalissimus test states."""
from gameplay.generalissimus import GameState, Settings

FACE = {"south": "N", "north": "S"}


def U(uid, owner, kind, sector, **kw):
    """A unit dict; owner 's'/'n' shorthand allowed."""
    owner = {"s": "south", "n": "north"}.get(owner, owner)
    d = {"id": uid, "owner": owner, "kind": kind, "sector": sector, "facing": kw.pop("facing", FACE[owner])}
    d.update(kw)
    return d


def board(*units, terrain=None, settings=None, turn=1):
    return GameState.from_dict({"units": list(units), "terrain": terrain or {},
                                "settings": settings or {}, "turn": turn})


def cfg(**kw):
    return Settings.from_dict(kw)


def where(state, uid):
    return state.unit(uid).sector


def mentions(result, ru, en):
    """The reason names the rule in both languages."""
    return ru in result.reason.ru and en in result.reason.en
