"""Django's view of the app's models: the shared core and each game's own projection models."""
from .core.models import Event, Game, GameState, PrivateNote, Seat, new_token
from .fog_of_war.models import FowMap
from .qmg.models import BoardVariant, CountryCards, Piece, QmgTable

__all__ = ["BoardVariant", "CountryCards", "Event", "FowMap", "Game", "GameState", "Piece", "PrivateNote", "QmgTable",
           "Seat", "new_token"]
