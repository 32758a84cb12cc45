"""A stateful property test: random legal and illegal entries, undo and redo on one game.

Hypothesis drives ``log.submit``, ``log.undo`` and ``log.redo`` (``tracker.core.log``) with commands that
are sometimes right for the moment (the next step of the turn, a build next to one's army) and
often not (wrong phase, unknown space, wrong types, a stale version, a seat acting for another
country). After every step the table must still be one that can stand on a real board and must
equal the replay of the log.
"""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, event, settings, strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from gameplay.qmg import validate_position
from gameplay.qmg.table import CARD_TYPES, COMMAND_TYPES, STEP_TYPES, CommandError, apply_command
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.core import log, transfer
from tracker.core.log import Actor
from tracker.core.registry import adapter_of
from tracker.core.selectors import history
from tracker.models import Event, Game, Piece
from tracker.qmg import selectors
from tracker.qmg.views import create_game

pytestmark = pytest.mark.django_db

HOST = Actor(is_host=True)
COUNTRIES = ["germany", "united_kingdom", "japan", "soviet_union", "italy", "united_states"]
SPACES = ["germany", "eastern_europe", "western_europe", "balkans", "ukraine", "moscow", "russia", "italy",
          "north_africa", "united_kingdom", "north_sea", "baltic_sea", "mediterranean", "sea_of_japan", "japan",
          "china", "eastern_us", "western_us", "atlantis"]
NEXT = {"play": "end_play", "supply": "supply", "victory": "score", "discard": "discard", "draw": "draw",
        "air": "end_air"}
RESULTS = {log.APPLIED, log.REFUSED, log.STALE, log.FORBIDDEN, log.INVALID}

junk = st.one_of(st.none(), st.integers(-50, 50), st.text(max_size=8), st.sampled_from(["", "x", "-1", "army"]),
                 st.lists(st.integers(), max_size=2))
fields = st.fixed_dictionaries({}, optional={
    "card_type": st.one_of(st.sampled_from(CARD_TYPES), junk),
    "space": st.one_of(st.sampled_from(SPACES), junk),
    "from_space": st.one_of(st.sampled_from(SPACES), junk),
    "target_country": st.one_of(st.sampled_from(COUNTRIES), junk),
    "kind": st.one_of(st.sampled_from(["army", "navy", "air"]), junk),
    "n": st.one_of(st.integers(-12, 45), junk),
    "country": st.one_of(st.sampled_from(COUNTRIES), st.sampled_from(["mars", ""])),
    "action": st.one_of(st.sampled_from(STEP_TYPES), junk),
    "card_id": st.one_of(st.sampled_from(["ger_blitzkrieg", "uk_mackenzie_king", "x"]), junk),
    "name": st.one_of(st.text(max_size=10), junk),
})


class TableMachine(RuleBasedStateMachine):
    """One game; every rule is one entry at the table."""

    def __init__(self):
        super().__init__()
        self.game = None

    @initialize(players=st.sampled_from([2, 3, 6]), early=st.booleans())
    def new_game(self, players, early):
        names = [f"P{i}" for i in range(1, players + 1)]
        self.game = create_game("Машина", list(zip(names, DEFAULT_SEATING[players])),
                                {"early_victory": early})
        self.board = selectors.board_of(self.game)
        self.seats = list(self.game.seats.all())

    # --- helpers -----------------------------------------------------------------------------
    def _game(self) -> Game:
        return Game.objects.get(pk=self.game.pk)

    def _snapshot(self):
        g = self._game()
        return (g.version, Event.objects.filter(game=g).count(), selectors.canonical(selectors.table_of(g)))

    def _check(self, result, before):
        assert result.status in RESULTS, result
        event(f"status: {result.status}")
        after = self._snapshot()
        if result.applied:
            assert after[0] == before[0] + 1 and after[1] == before[1] + 1
            assert result.event is not None and result.event.seq == after[0]
        else:
            assert after == before, result.status  # nothing changes unless a move is applied
            assert result.reason is not None

    def _actor(self, who: int):
        return HOST if who == 0 else Actor(seat=self.seats[(who - 1) % len(self.seats)])

    # --- rules -------------------------------------------------------------------------------
    @precondition(lambda self: self.game is not None)
    @rule(command=st.sampled_from(COMMAND_TYPES), extra=fields, who=st.sampled_from([0, 0, 1, 2]))
    def any_command(self, command, extra, who):
        before = self._snapshot()
        self._check(log.submit(self.game.pk, before[0], self._actor(who), {"type": command, **extra}), before)

    @precondition(lambda self: self.game is not None)
    @rule(n=st.integers(0, 3), card=st.sampled_from(["event", "status", "response", "economic_warfare"]))
    def next_step_of_the_turn(self, n, card):
        """The entry the stepper expects now (applies unless the game is over)."""
        g = self._game()
        before = self._snapshot()
        cmd = {"type": NEXT.get(g.qmg.phase, "end_play")}
        if g.qmg.phase == "play" and not g.qmg.played:
            cmd = {"type": "play_card", "card_type": card}
        if cmd["type"] == "discard":
            cmd["n"] = n
        self._check(log.submit(g.pk, g.version, HOST, cmd), before)

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def a_legal_piece_move(self, data):
        """A build, battle or step the engine accepts now, chosen among all of them."""
        g = self._game()
        table = selectors.table_of(g)
        active = table.active(self.board)
        candidates = []
        for space in self.board.spaces:
            for card in ("build_army", "build_navy", "land_battle", "sea_battle"):
                candidates.append({"type": "play_card", "card_type": card, "space": space})
            for action in ("recruit_army", "recruit_navy", "eliminate", "build_army", "land_battle"):
                candidates.append({"type": "step", "action": action, "country": active, "space": space})
        legal = []
        for cmd in candidates:
            try:
                if apply_command(self.board, table, cmd).ok:
                    legal.append(cmd)
            except CommandError:
                pass
        if not legal:
            return
        cmd = data.draw(st.sampled_from(legal), label="legal")
        before = self._snapshot()
        result = log.submit(g.pk, g.version, HOST, cmd)
        assert result.applied, (cmd, result.reason)
        self._check(result, before)

    @precondition(lambda self: self.game is not None)
    @rule(card_type=st.sampled_from(CARD_TYPES), space=st.sampled_from(SPACES))
    def play_a_card(self, card_type, space):
        before = self._snapshot()
        cmd = {"type": "play_card", "card_type": card_type}
        if card_type in ("build_army", "build_navy", "land_battle", "sea_battle"):
            cmd["space"] = space
        self._check(log.submit(self.game.pk, before[0], HOST, cmd), before)

    @precondition(lambda self: self.game is not None)
    @rule(action=st.sampled_from(["build_army", "build_navy", "recruit_army", "recruit_navy", "land_battle",
                                  "sea_battle", "eliminate", "remove", "gain_vp", "discard_from_deck"]),
          country=st.sampled_from(COUNTRIES), space=st.sampled_from(SPACES), n=st.integers(-3, 12),
          whose=st.sampled_from(COUNTRIES))
    def a_step(self, action, country, space, n, whose):
        before = self._snapshot()
        cmd = {"type": "step", "action": action, "country": country, "space": space}
        if action in ("gain_vp", "discard_from_deck"):
            cmd.update(n=n, target_country=whose)
        self._check(log.submit(self.game.pk, before[0], HOST, cmd), before)

    @precondition(lambda self: self.game is not None)
    @rule(who=st.integers(0, 3))
    def undo(self, who):
        before = self._snapshot()
        self._check(log.undo(self.game.pk, before[0], self._actor(who)), before)

    @precondition(lambda self: self.game is not None)
    @rule(who=st.integers(0, 3))
    def redo(self, who):
        before = self._snapshot()
        self._check(log.redo(self.game.pk, before[0], self._actor(who)), before)

    @precondition(lambda self: self.game is not None)
    @rule(delta=st.sampled_from([-1, 1, 5]), kind=st.sampled_from(["move", "undo", "redo"]))
    def stale_version(self, delta, kind):
        before = self._snapshot()
        version = before[0] + delta
        if kind == "move":
            result = log.submit(self.game.pk, version, HOST, {"type": "end_play"})
        else:
            result = (log.undo if kind == "undo" else log.redo)(self.game.pk, version, HOST)
        assert result.status == log.STALE
        self._check(result, before)

    @precondition(lambda self: self.game is not None)
    @rule()
    def spectator_cannot_act(self):
        before = self._snapshot()
        result = log.submit(self.game.pk, before[0], Actor(), {"type": "end_play"})
        assert result.status in (log.FORBIDDEN,)
        self._check(result, before)

    # --- invariants --------------------------------------------------------------------------
    @invariant()
    def table_can_stand_on_a_board(self):
        if self.game is None:
            return
        g = self._game()
        event(f"round {g.qmg.round}, phase {g.qmg.phase}, {g.pieces.count()} pieces, finished: {bool(g.winner)}")
        table = selectors.table_of(g)
        pieces = list(table.position.pieces)
        # one piece of a kind per country per space (also in the database rows)
        assert max(Counter(pieces).values(), default=0) <= 1
        rows = list(Piece.objects.filter(game=g).values_list("country", "kind", "space"))
        assert len(rows) == len(set(rows))
        # no opposing pieces sharing a space
        teams: dict[str, set] = {}
        for p in pieces:
            teams.setdefault(p.space, set()).add(self.board.team_of(p.country))
        assert all(len(t) == 1 for t in teams.values()), teams
        # armies on land, navies at sea, within each country's limits
        for p in pieces:
            if p.kind == "army":
                assert self.board.spaces[p.space].is_land
            elif p.kind == "navy":
                assert not self.board.spaces[p.space].is_land
        for cid, c in self.board.countries.items():
            assert table.position.count(cid, "army") <= c.armies
            assert table.position.count(cid, "navy") <= c.navies
        validate_position(self.board, table.position)  # the engine's own definition, all at once
        # card counts never negative
        for _cid, k in table.cards:
            assert min(k.deck, k.hand, k.discard, k.responses) >= 0, k

    @invariant()
    def vp_is_the_sum_of_the_vp_operations_in_effect(self):
        if self.game is None:
            return
        g = self._game()
        events = list(g.events.all())
        done, _undone = log.effective_moves(events)
        # the log stores commands: the operations of each move in effect are what its command causes again
        stepper = adapter_of(g).stepper(g)
        table = log.initial_state(g, events)
        totals = {"axis": 0, "allies": 0}
        for e in done:
            outcome = stepper.apply(table, e.command)
            assert outcome.ok, (e.seq, e.command, outcome.reason)
            table = outcome.state
            for op in outcome.changes:
                if op["op"] == "vp":
                    totals[op["team"]] += op["n"]
        assert (g.qmg.vp_axis, g.qmg.vp_allies) == (totals["axis"], totals["allies"])
        series = selectors.vp_series(g)
        assert series[-1][1:] == (g.qmg.vp_axis, g.qmg.vp_allies)

    @invariant()
    def projection_equals_replay_and_the_log_is_contiguous(self):
        if self.game is None:
            return
        g = self._game()
        seqs = list(g.events.values_list("seq", flat=True))
        assert seqs == list(range(1, g.version + 1))
        assert g.events.filter(kind=Event.CREATE).count() == 1 and seqs[0] == 1
        assert selectors.canonical(selectors.table_of(g)) == selectors.canonical(log.replay(g))

    def teardown(self):
        """Whatever the machine played survives export and import unchanged."""
        if self.game is None:
            return
        copy_ = transfer.import_game(transfer.loads(transfer.dumps(transfer.export_game(self.game)).encode()))
        for g in (self._game(), copy_):
            g.refresh_from_db()
        original = self._game()
        assert selectors.canonical(selectors.table_of(copy_)) == selectors.canonical(selectors.table_of(original))
        assert [(r["event"].seq, r["undone"]) for r in history(copy_)] == \
               [(r["event"].seq, r["undone"]) for r in history(original)]
        assert selectors.vp_series(copy_) == selectors.vp_series(original)
        copy_.delete()
        self.game.delete()


def test_random_play_with_undo_and_redo_keeps_every_invariant():
    run_state_machine_as_test(TableMachine, settings=settings(
        max_examples=20, stateful_step_count=40, deadline=None, database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                               HealthCheck.filter_too_much]))
