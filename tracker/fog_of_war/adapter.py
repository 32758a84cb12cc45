"""*The Fog of War*'s adapter to the shared core: the engine's stepper, its JSON state, its page."""
from __future__ import annotations

from gameplay.fog_of_war.stepper import STEPPER, FogOfWarStepper

from tracker.core.models import Game
from tracker.core.registry import GameAdapter, seen

from . import page
from .page import SECRET_COMMANDS


class FogOfWarAdapter(GameAdapter):
    kind = Game.FOG_OF_WAR
    partial_template = "fog_of_war/_game.html"

    def stepper(self, game: Game) -> FogOfWarStepper:
        return STEPPER

    def event_fields(self, game: Game, state: dict, command: dict) -> dict:
        return {"round": state["engine"].get("year", 0), "phase": ""}

    def winner(self, state: dict) -> str | None:
        return state["engine"].get("winner")

    def secret(self, command: dict) -> bool:
        """Cards played from a hand, and a battle fought with an operation's face-down cards: only the side's own
        seat knows them (the engine's answer to anyone else could name the hidden target or cards)."""
        return command.get("type") in SECRET_COMMANDS

    def sealed(self, command: dict, state_after: dict):
        """A spy's look and a battle's reveal (the defence and the operation turned face up) stay seen."""
        kind = command.get("type")
        if kind == "intel":
            return seen("разведка уже показала карту", "the intel has already shown a card")
        if kind in ("launch", "resolve_quagmire"):
            return seen("в бою карты обеих сторон открыты", "the battle has turned both sides' cards face up")
        return None

    parse = staticmethod(page.parse)
    context = staticmethod(page.context)
    preview = staticmethod(page.preview)
