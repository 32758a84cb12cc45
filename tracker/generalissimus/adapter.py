"""«Генералиссимус»'s adapter to the shared core: the engine's stepper, its JSON state, its page."""
from __future__ import annotations

from gameplay.generalissimus.stepper import STEPPER, GeneralissimusStepper

from tracker.core.models import Event, Game
from tracker.core.registry import GameAdapter, seen

from . import page

SECRET = page.SECRET  # commands on a side's face-down cards: only its own seat sends them
# Commands a side makes at the same time as the other side, on its own secret part of the table
# (orders face down, the card for a step, its own dice).
SIMULTANEOUS = {"place", "unplace", "confirm", "choose", "dice"}


class GeneralissimusAdapter(GameAdapter):
    kind = Game.GENERALISSIMUS
    partial_template = "generalissimus/_game.html"

    def stepper(self, game: Game) -> GeneralissimusStepper:
        return STEPPER

    def event_fields(self, game: Game, state: dict, command: dict) -> dict:
        engine = state["engine"]
        return {"round": engine.get("turn", 0), "phase": engine.get("phase", "")}

    def winner(self, state: dict) -> str | None:
        return state["engine"].get("winner")

    def secret(self, command: dict) -> bool:
        return command.get("type") in SECRET

    def sealed(self, command: dict, state_after: dict):
        """The choice that turned both sides' cards of a step face up stays made: undoing it would let
        the last to choose pick again knowing the other's card."""
        revealed = not any((state_after.get("pending") or {}).values())  # a choice still face down waits there
        if command.get("type") == "choose" and revealed:
            return seen("карты шага уже открыты", "the cards of this step are already face up")
        if command.get("type") == "react" and command.get("card") != "none":
            return seen("карта «В Штыки!» открыта для встречного боя", "a Bayonets! card was turned face up to meet a charge")
        return None

    def commutes(self, command: dict, later: list[Event]) -> bool:
        """A secret move still means what it meant when only the other side's secret moves came in
        between (what the other side did is hidden from this side anyway); quick taps on the
        card buttons: one's own placements meanwhile do not change what the next tap means."""
        if command.get("type") not in SIMULTANEOUS:
            return False
        own_ok = command.get("type") in ("place", "unplace")
        return all(e.kind == Event.MOVE and e.command.get("type") in SIMULTANEOUS
                   and e.command.get("side") is not None
                   and (e.command.get("side") != command.get("side")
                        or (own_ok and e.command.get("type") in ("place", "unplace")))
                   for e in later)

    parse = staticmethod(page.parse)
    context = staticmethod(page.context)
