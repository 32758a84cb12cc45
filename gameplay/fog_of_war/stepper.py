"""The Fog of War turn stepper: the one interface the web layer drives (``gameplay.common.Stepper``).

The state is the stored *table* value (see ``commands_base``): the engine state plus the public
battle and intel records, the spies' private results and the players' supply answers. Commands are
JSON dicts ``{"type": ..., "side": ..., ...}``; ``apply`` dispatches each type to a small handler
(``commands_turn``, ``commands_battle``, ``commands_map``, ``commands_year_end``). Every random pick
(a quagmire's halving, intel cards, shuffles) is written into the command by ``prepare`` before it is
applied and stored, so ``apply`` is deterministic and ``replay`` rebuilds the stored state exactly.
"""
from __future__ import annotations

import copy
import random
from typing import Iterable

from gameplay.common import Outcome, accepted, refused, replay_commands

from . import commands_battle, commands_map, commands_turn, commands_year_end, mapdata
from .board import SIDES, BoardMap
from .cards import Card, check_card_list, parse_card_list
from .commands_base import (R, BadCommand, RevealMissing, card_code, copy_table, engine_of, in_players_words,
                            province_name)
from .commands_battle import BATTLE_COMMANDS, draw_quagmire_losses, table_stacks
from .actions import partner
from .commands_turn import must_play
from .commands_year_end import YE_COMMANDS, YE_SIDE_COMMANDS, checklist, year_end_next
from .config import FowSettings
from .limits import LimitError
from .state import GameState, new_game
from .texts import named, outcome_name, side_name
from .visibility import HIDDEN, choices, is_hidden, view_for

HANDLERS = {**commands_turn.HANDLERS, **commands_battle.HANDLERS, **commands_map.HANDLERS,
            **commands_year_end.HANDLERS}
HAND_COMMANDS = ("defend", "new_op", "reinforce_op", "reinforce_quagmire")  # they play cards from the hand
TURN_COMMANDS = HAND_COMMANDS + ("start_turn", "cancel_op", "launch", "resolve_quagmire", "intel", "end_turn",
                                 "partner_done")
OWN_COMMANDS = ("name_cards",)  # a side's own secret at any time: its seat names its hand cards as printed
GLOBAL_COMMANDS = ("set_map", "set_control") + tuple(c for c in YE_COMMANDS if c not in YE_SIDE_COMMANDS)  # no side
SEEDED_COMMANDS = ("intel", "ye_split_wins", "ye_new_decks", "ye_reinforcements")  # a seed draws their random part
SETUP_LISTS = (("axis", "Карты Оси", "The Axis cards"), ("allies", "Карты Союзников", "The Allied cards"),
               ("neutral", "Нейтральные карты", "The neutral cards"))
MALFORMED = (BadCommand, KeyError, ValueError, TypeError, AttributeError, IndexError)


def initial_state(*, settings: dict, axis_cards: list[Card], allies_cards: list[Card], neutral_cards: list[Card],
                  board: dict | BoardMap | None = None, preplace: Iterable[str] = (), seed: int = 0,
                  card_values: dict | None = None) -> dict:
    """Run the setup (spec §1.4) and wrap it into a table. ``preplace`` lists up to 3 provinces (step 1.9).
    ``card_values``: the values each side's physical set holds (a map file's ``cards``: one-tap reveal)."""
    cfg = FowSettings.from_dict(settings)
    bmap = board if isinstance(board, BoardMap) else BoardMap.from_dict(board) if board else None
    pre = {prov: card.id for prov, card in zip(preplace, allies_cards)}
    st = new_game(axis_cards, allies_cards, neutral_cards, settings=cfg, board=bmap, preplace=pre or None,
                  rng=random.Random(seed), shuffle=True)
    ledger = any(c.category == "unknown" for c in axis_cards + allies_cards)
    table = {"engine": st.to_dict(), "ledger": ledger, "battles": [], "intel": [],
             "intel_seen": {"axis": [], "allies": []}, "supply_answers": {}}
    if card_values:
        table["card_values"] = {k: list(v) for k, v in card_values.items()}
    return table


def _unknown_command() -> Outcome:
    return refused(R("unknown", "Неизвестная команда.", "Unknown command."))


class FogOfWarStepper:
    """``gameplay.common.Stepper`` for The Fog of War; ``STEPPER`` is its one instance."""

    kind = "fog_of_war"
    sides = SIDES

    def new_state(self, setup: dict) -> dict:
        """A new game's table. ``setup``: ``settings`` (dict), ``axis_cards`` / ``allies_cards`` /
        ``neutral_cards`` (each a count, ledger mode, or card codes such as ``L3 N2 F1 A2 Z``), ``board``
        (a map dict or None), ``map_file`` (a map file's data, ``mapdata``: it replaces ``board``),
        ``wheel_file`` (a wheel file's data: its marks become ``wheel_positions``), ``preplace`` (up to 3
        provinces, step 1.9) and ``seed`` (int: the ids' order and every shuffle). Raises ``ValueError`` on a
        bad setup: ``limits.LimitError`` (RU/EN, before any work) for a card list, a map or a wheel beyond the
        bounds."""
        for side, ru, en in SETUP_LISTS:
            check_card_list(setup.get(f"{side}_cards") or "", ru, en)
        rng = random.Random(int(setup.get("seed", 0)))
        decks = {side: parse_card_list(setup.get(f"{side}_cards", ""), side, side[:2], rng) or []
                 for side in ("axis", "allies", "neutral")}
        settings = dict(setup.get("settings") or {})
        board, card_values = setup.get("board"), None
        if setup.get("map_file") is not None:
            data = mapdata.check_map(setup["map_file"])
            board, card_values = mapdata.to_board(data), data.get("cards")
        if setup.get("wheel_file") is not None:
            settings["wheel_positions"] = mapdata.wheel_positions(mapdata.check_wheel(setup["wheel_file"]))
        return initial_state(settings=settings, axis_cards=decks["axis"],
                             allies_cards=decks["allies"], neutral_cards=decks["neutral"], board=board,
                             preplace=setup.get("preplace") or (), seed=rng.randrange(2 ** 31), card_values=card_values)

    def prepare(self, state: dict, command: dict, rng: random.Random) -> dict:
        """The command with its random part drawn: a seed, and for a battle that ends in quagmire the
        losses of both sides (unless the table gave its own ``quagmire_choice``)."""
        kind = command.get("type") if isinstance(command, dict) else None
        if kind not in BATTLE_COMMANDS + SEEDED_COMMANDS:
            return command
        command = dict(command)
        command.setdefault("seed", rng.randrange(2 ** 31))
        if kind in BATTLE_COMMANDS and not command.get("quagmire_choice"):
            choice = draw_quagmire_losses(engine_of(state), command, rng)
            if choice is not None:
                command["quagmire_choice"] = choice
        return command

    def apply(self, state: dict, command: dict) -> Outcome:
        """Check one command: refused with a reason naming the rule, or accepted with the new table."""
        try:
            handler = HANDLERS.get(command.get("type")) if isinstance(command.get("type"), str) else None
            if handler is None:
                return _unknown_command()
            if command.get("side") not in (None, *SIDES):
                raise BadCommand("side")
            table = copy_table(state)
            out = handler(engine_of(state), table, command)
        except RevealMissing as exc:
            return refused(exc.reason())
        except LimitError as exc:
            return refused(R("limit", exc.ru, exc.en))
        except MALFORMED:
            return refused(R("invalid", "Команда неполна или не подходит к этому столу: выберите из списков на странице.",
                             "The command is incomplete or does not fit this table: choose from the page's lists."))
        if not out.ok:
            return refused(in_players_words(named(out.reason), engine_of(state)))
        table["engine"] = out.state.to_dict()
        return accepted(table, out.reason, notes=out.notes)

    def replay(self, initial: dict, commands: Iterable[dict]) -> dict:
        return replay_commands(self, initial, commands)

    def acting_side(self, state: dict, command: dict) -> str | None:
        return command.get("side") or None

    def view_for(self, state: dict, viewer: str | tuple[str, ...] | None) -> dict:
        return view_for(state, viewer)

    def side_name(self, side: str, lang: str) -> str:
        return side_name(side, lang)

    def to_json(self, state: dict) -> dict:
        return copy.deepcopy(state)

    def from_json(self, data: dict) -> dict:
        """The table from its JSON; raises ``ValueError`` when the engine state does not read back."""
        if not isinstance(data, dict) or not isinstance(data.get("engine"), dict):
            raise ValueError("a Fog of War state is an object with an 'engine' object")
        out = copy.deepcopy(data)
        # read and written by this version's engine: a state stored before a field was added gets the
        # field's value for its game (``FowSettings.from_stored``: its former readings), as its replay does
        out["engine"] = GameState.from_dict(data["engine"]).to_dict()
        return out

    def preview(self, state: dict, command: dict) -> Outcome:
        """The battle calculator (ledger mode only): the battle a launch or resolve_quagmire command would
        fight, computed from the values typed at reveal, without storing anything.

        Accepted with ``data``: ``battle`` (the battle record) and ``random_quagmire`` (the halving will be
        drawn at random). With the cards modelled a preview would show the defender's hidden cards: refused.
        """
        if not state.get("ledger", True):
            return refused(R("no_preview", "Когда карты введены в приложение, бой считается при запуске; предпросмотра "
                                           "скрытых карт нет.",
                             "With the cards modelled the battle is computed at launch; no preview of hidden cards.",
                             "§4"))
        if command.get("type") not in BATTLE_COMMANDS:
            return _unknown_command()
        out = self.apply(state, {**command, "seed": 0, "quagmire_choice": command.get("quagmire_choice")})
        if not out.ok:
            return out
        battle = out.state["battles"][-1]
        return accepted(state, R("preview", "Калькулятор боя: пока ничего не сохранено.",
                                 "Battle calculator: nothing is stored yet."),
                        battle=battle, random_quagmire=battle["outcome"] == "quagmire" and not command.get("quagmire_choice"))


STEPPER = FogOfWarStepper()

# the stepper, and the queries a page needs besides it (all pure; none decides for the web layer)
__all__ = ["BATTLE_COMMANDS", "GLOBAL_COMMANDS", "HANDLERS", "HAND_COMMANDS", "HIDDEN", "OWN_COMMANDS", "STEPPER",
           "TURN_COMMANDS",
           "YE_SIDE_COMMANDS", "FogOfWarStepper", "card_code", "checklist", "choices", "engine_of", "initial_state",
           "is_hidden", "must_play", "outcome_name", "partner", "province_name", "table_stacks", "year_end_next"]
