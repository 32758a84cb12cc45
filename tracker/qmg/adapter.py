"""QMG's adapter to the shared core: its engine per game, its mirror models, its page and forms."""
from __future__ import annotations

from dataclasses import replace

from django.utils.translation import gettext

from gameplay.qmg import Position, load_board
from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.reasons import explains_legality
from gameplay.qmg.stepper import QmgStepper
from gameplay.qmg.table import Cards, Table, is_face_down_play, new_table

from tracker.core.log import effective_moves
from tracker.core.models import Event, Game, GameState
from tracker.core.registry import GameAdapter

from . import page, selectors
from .models import BoardVariant, CountryCards, Piece, QmgTable
from .variants import check_patch


PASS = "pass"  # the response window's pass (gameplay.qmg.table)
ENGINE_KEYS = ("pending", "hold", "protected", "last", "gone", "declined")  # Table.engine_dict
CARD_RULES = selectors.CARD_RULES
CATALOGUE = default_catalogue()


class QmgAdapter(GameAdapter):
    kind = Game.QMG
    partial_template = "qmg/_game.html"
    locked_with = ("qmg",)

    def stepper(self, game: Game) -> QmgStepper:
        return QmgStepper(selectors.board_of(game), selectors.options_of(game), legacy=self.legacy(game))

    def legacy(self, game: Game) -> bool:
        """A game created before the card engine keeps the old rules throughout (``selectors.legacy_rules``)."""
        return selectors.legacy_rules(game)

    def start(self, game: Game, setup) -> tuple[Table, dict]:
        """``setup``: {"board_variant": a BoardVariant or None}."""
        QmgTable.objects.create(game=game, board_variant=(setup or {}).get("board_variant"))
        table = new_table(selectors.board_of(game), selectors.options_of(game))
        CountryCards.objects.bulk_create(
            CountryCards(game=game, country=c, deck=k.deck, hand=k.hand, discard=k.discard) for c, k in table.cards)
        return table, {"options": game.options, "rules": CARD_RULES}

    def initial_state(self, game: Game, create) -> Table:
        rules = selectors.rules_of(create.command) or CARD_RULES
        return new_table(selectors.board_of(game), selectors.options_from(create.command.get("options") or {}, rules))

    def load(self, game: Game) -> Table:
        """The mirror models, plus the card engine's open steps kept as JSON (``GameState``)."""
        return selectors.table_of(game)

    def save(self, game: Game, old: Table | None, new: Table, events=None, moves=None) -> None:
        """Write the difference between two tables onto the mirror models (only what changed)."""
        fresh = old is None
        old = old if old is not None else replace(new, position=Position())
        before, after = set(old.position.pieces), set(new.position.pieces)
        for p in before - after:
            Piece.objects.filter(game=game, country=p.country, kind=p.kind, space=p.space).delete()
        added = [Piece(game=game, country=p.country, kind=p.kind, space=p.space)
                 for p in new.position.pieces if p not in before]
        if added:
            Piece.objects.bulk_create(added)
        old_cards = dict(old.cards)
        for country, k in new.cards:
            if old_cards.get(country) != k:
                CountryCards.objects.filter(game_id=game.pk, country=country).update(
                    deck=k.deck, hand=k.hand, discard=k.discard, responses=k.responses, statuses=list(k.statuses))
        engine = new.engine_dict()
        if fresh:
            GameState.objects.update_or_create(game=game, defaults={"state": engine})
        elif old.engine_dict() != engine and not GameState.objects.filter(game_id=game.pk).update(state=engine):
            GameState.objects.create(game=game, state=engine)  # a game from before the card engine
        fields = {"round": new.round, "turn": new.turn, "phase": new.phase, "played": new.played or "",
                  "vp_axis": new.vp_axis, "vp_allies": new.vp_allies, "end_reason": new.end_reason or "",
                  "used": list(new.used), "window": new.window or "", "window_passes": new.window_passes,
                  "attack": new.attack}
        t = game.qmg
        if events is not None:
            fields["vp_rounds"] = self._vp_rounds(game, events)
        elif moves:  # new moves: each one's round's VP is the table's after it
            per_round = {p[0]: p for p in t.vp_rounds}
            for event, table in moves:
                per_round[event.round] = [event.round, table.vp_axis, table.vp_allies]
            fields["vp_rounds"] = [per_round[r] for r in sorted(per_round)]
        changed = [name for name, value in fields.items() if getattr(t, name) != value]
        for name in changed:
            setattr(t, name, fields[name])
        if changed:
            t.save(update_fields=changed)
        game.winner = new.winner or ""

    def _vp_rounds(self, game: Game, events) -> list[list[int]]:
        """[[round, axis, allies], ...]: the VP after the last move in effect of each round."""
        from_log = self.stepper(game)
        done, _ = effective_moves(events)
        table = self.initial_state(game, next(e for e in events if e.kind == "create"))
        per_round: dict[int, list[int]] = {}
        for e in done:
            try:
                out = from_log.apply(table, e.command)
            except ValueError:
                break
            if not out.ok:
                break  # a log that no longer replays: the track stops here
            table = out.state
            per_round[e.round] = [e.round, table.vp_axis, table.vp_allies]
        return [per_round[r] for r in sorted(per_round)]

    def explains(self, note) -> bool:
        return explains_legality(note)

    def secret(self, command: dict) -> bool:
        """Every command that handles a face-down response's identity is its owner's act, from the owner's
        own phone: putting one face down (``play_card``/``prepare`` of a response, a response played
        by another card's text) and revealing one (``use_card``). The host's powers include neither; the log
        of such a move names no hidden card."""
        if not isinstance(command, dict):
            return False
        if is_face_down_play(command):
            return True
        card = CATALOGUE.get(command.get("card_id") or "") if command.get("type") == "use_card" else None
        return card is not None and card.type == "response"

    def winner(self, state: Table) -> str | None:
        return state.winner

    def event_fields(self, game: Game, state: Table, command: dict) -> dict:
        return {"round": state.round, "phase": state.phase}

    def commutes(self, command: dict, later: list) -> bool:
        """Another country's «pass» that leaves the response window open changes nothing on the board or
        in anyone's hand: a move sent before it still means what it meant (the engine checks it again all
        the same). A pass that closed the window may have applied a removal held for the answer, so after
        one the version guard stands."""
        country = command.get("country")
        if not all(e.kind == Event.MOVE and e.command.get("type") == PASS
                   and e.country and e.country != country for e in later):
            return False
        table = self.load(later[-1].game)
        if table.window is None:
            return False  # a pass since closed it
        if not table.options.at_least(6):
            return True  # still open: no pass since closed it
        # card rules 6: a pass closes the window (and lets a held removal happen) without leaving it shut — a removal
        # is an event the window opens again for; so: still waiting for the same removal, or only declines since
        return table.hold is not None or all(e.country in table.declined for e in later)

    def role_name(self, game: Game, role: str, lang: str) -> str:
        c = selectors.board_of(game).countries[role]
        return c.en if lang == "en" else c.ru

    # export and import (tracker.core.transfer)
    def export_setup(self, game: Game) -> dict | None:
        """The board variant, if any: the one part of a QMG game's start that its log does not hold."""
        variant = game.qmg.board_variant
        return None if variant is None else {"board_variant": {"name": variant.name, "patch": variant.patch}}

    def import_setup(self, raw) -> dict:
        """{"board_variant": a BoardVariant or None}: the imported variant checked (size, no YAML
        anchors or aliases, extends the standard board, builds) and stored, the same variant
        reused, a different one under a taken name kept under a new name."""
        variant = _imported_variant(raw)
        return {"board_variant": None if variant is None else _variant_row(*variant)}

    def imported_setup(self, raw) -> tuple[str, str] | None:
        """The file's board variant (name, patch), checked as ``import_setup`` checks it, not stored; None: the
        printed board."""
        return _imported_variant(raw)

    def imported_start(self, game: Game, setup, create_command: dict) -> tuple[QmgStepper, Table, dict]:
        """In memory: the variant's board, the card rules the create command records (none: the old rules
        throughout), the table a new game of those options starts with, the create command it records."""
        board = load_board() if setup is None else check_patch(setup[1]).board
        rules = selectors.rules_of(create_command)
        options = selectors.options_from(game.options or {}, rules or CARD_RULES)
        command = {"options": game.options} if rules is None else {"options": game.options, "rules": rules}
        return QmgStepper(board, options, legacy=rules is None), new_table(board, options), command

    def start_imported(self, game: Game, setup, create_command: dict) -> tuple[Table, dict]:
        table, command = self.start(game, setup)
        rules = selectors.rules_of(create_command)
        if rules is None:
            command.pop("rules")  # a file from before the card engine: the game keeps the old rules
        else:
            command["rules"] = rules  # the card rules the file's game was played by (2: before the to_deck costs)
        return table, command

    def comparable(self, game: Game, data) -> dict:
        """The table's JSON with pieces in a fixed order (the order of placement is not on the board)
        and without the position's statuses, which follow from the countries' statuses face up."""
        d = {**data, "position": dict(data["position"])}
        d["position"]["pieces"] = sorted(d["position"]["pieces"], key=lambda p: (p["country"], p["kind"], p["space"]))
        d["position"].pop("statuses", None)
        if isinstance(d.get("options"), dict):  # the rules level is the create event's, not the state's
            d["options"] = {k: v for k, v in d["options"].items() if k != "card_rules"}
        for key in ENGINE_KEYS:  # the card engine's part; a file from before it has none (see ``legacy``)
            d.pop(key, None)
        return d

    def state_from_v1(self, fields: dict, doc: dict) -> dict:
        """A format-1 export kept the table as the game's fields, ``pieces`` and ``country_cards``."""
        if "state" in doc or "pieces" not in doc or "country_cards" not in doc:
            raise ValueError(gettext("a Quartermaster General game has pieces and country cards, not a state"))
        table = Table(
            position=Position.of((p["country"], p["kind"], p["space"]) for p in doc["pieces"]),
            cards=tuple((c["country"], Cards.from_dict(c)) for c in doc["country_cards"]),
            round=fields.get("round", 1), turn=fields.get("turn", 0), phase=fields.get("phase", "play"),
            played=fields.get("played") or None, vp_axis=fields.get("vp_axis", 0),
            vp_allies=fields.get("vp_allies", 0), winner=fields.get("winner") or None,
            end_reason=fields.get("end_reason") or None, options=selectors.options_from(fields["options"]),
            used=tuple(fields.get("used") or ()), window=fields.get("window") or None,
            window_passes=fields.get("window_passes", 0), attack=fields.get("attack"))
        return table.to_dict()

    # the page and its forms
    parse = staticmethod(page.parse)
    context = staticmethod(page.context)
    after_submit = staticmethod(page.after_submit)


def _imported_variant(raw) -> tuple[str, str] | None:
    """(name, patch) of the board variant an exported setup names, None for the printed board, or ValueError."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) != {"board_variant"}:
        raise ValueError(gettext('a JSON object with the one field "board_variant" is needed'))
    return None if raw["board_variant"] is None else _checked_variant(raw["board_variant"])


def _checked_variant(raw) -> tuple[str, str]:
    """(name, patch) of an imported board variant, or ValueError saying what is wrong with it."""
    if not isinstance(raw, dict) or set(raw) != {"name", "patch"}:
        raise ValueError(gettext('a board variant is a JSON object with "name" and "patch"'))
    name, patch = raw["name"], raw["patch"]
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise ValueError(gettext("a board variant needs a name of 1 to 100 characters"))
    check_patch(patch)  # PatchError is a ValueError
    return name, patch


def _variant_row(name: str, patch: str) -> BoardVariant:
    """The stored variant with this name and patch, or a new one (renamed "… (imported)" if the name is taken)."""
    existing = BoardVariant.objects.filter(name=name).first()
    if existing is not None and existing.patch == patch:
        return existing
    label, new_name, n = gettext("imported"), name, 1
    while BoardVariant.objects.filter(name=new_name).exists():
        suffix = f" ({label})" if n == 1 else f" ({label} {n})"
        new_name, n = name[:100 - len(suffix)] + suffix, n + 1
    return BoardVariant.objects.create(name=new_name, patch=patch)
