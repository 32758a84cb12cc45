"""The turn stepper engine (gameplay.qmg.table): every command, its refusals and the operations log."""
import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gameplay.qmg import validate_position
from gameplay.qmg.table import (
    COMMAND_TYPES, CommandError, Options, Table, apply_command, apply_ops, draw_count, new_table, reminders,
)

from gameplay.qmg import Piece

from .helpers import BOARD, pos


def run(table, *commands):
    for cmd in commands:
        out = apply_command(BOARD, table, cmd)
        assert out.ok, (cmd, out.reason.en)
        assert apply_ops(table, list(out.changes)) == out.state  # the stored ops rebuild the result
        table = out.state
    return table


def refused(table, cmd):
    out = apply_command(BOARD, table, cmd)
    assert not out.ok and out.state is None and out.changes == ()
    return out.reason


TURN = [{"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"}]


def play(card_type, **kw):
    return {"type": "play_card", "card_type": card_type, **kw}


def test_setup_follows_the_rulebook():
    t = new_table(BOARD)
    assert {p.space for p in t.position.pieces} == {c.home for c in BOARD.countries.values()}
    for country, k in t.cards:
        assert (k.hand, k.discard, k.deck) == (7, 3, BOARD.countries[country].deck - 10)
    t12 = new_table(BOARD, Options(dealt=12))
    assert t12.cards_of("germany").discard == 5 and t12.cards_of("germany").deck == 28


def test_json_round_trip():
    t = run(new_table(BOARD), play("status", card_id="ger_dive_bombers"))
    assert Table.from_dict(json.loads(json.dumps(t.to_dict()))) == t


def test_a_full_turn_moves_to_the_next_country():
    t = run(new_table(BOARD), play("build_army", space="eastern_europe"), *TURN)
    assert (t.round, t.turn, t.phase) == (1, 1, "play")
    assert t.vp_axis == 2 and t.cards_of("germany").hand == 7 and t.cards_of("germany").deck == 29


def test_only_the_active_country_and_the_current_phase():
    t = new_table(BOARD)
    assert "Порядок хода" in refused(t, {**play("build_army", space="united_kingdom"), "country": "united_kingdom"}).ru
    assert "Фазы хода" in refused(t, {"type": "score"}).ru


def test_must_play_a_card_unless_the_hand_is_empty():
    t = new_table(BOARD)
    assert refused(t, {"type": "end_play"}).code == "play.must_play"
    empty = replace(t, cards=tuple((c, replace(k, hand=0)) if c == "germany" else (c, k) for c, k in t.cards))
    assert refused(empty, play("event")).code == "play.empty_hand"
    assert run(empty, {"type": "end_play"}).phase == "supply"
    assert any(r.code == "reminder.empty_hand" for r in reminders(BOARD, empty))


def test_one_card_per_play_step():
    t = run(new_table(BOARD), play("event"))
    assert refused(t, play("event")).code == "play.already"


def test_build_card_refused_when_illegal_and_nothing_changes():
    t = new_table(BOARD)
    reason = refused(t, play("build_army", space="russia"))
    assert reason.code == "build_army.not_adjacent"


def test_supply_step_removes_the_active_countrys_unsupplied_pieces():
    t = run(new_table(BOARD), play("event"), {"type": "step", "country": "germany", "action": "recruit_army",
                                               "space": "russia"})
    assert any(r.code == "reminder.unsupplied" for r in reminders(BOARD, t))
    t = run(t, {"type": "end_play"}, {"type": "supply"})
    assert ("germany", "army", "russia") not in {(p.country, p.kind, p.space) for p in t.position.pieces}


def test_victory_step_skipped_when_home_is_occupied():
    t = new_table(BOARD)
    t = replace(t, position=pos("su army germany", "ger army western_europe", "su army moscow"))
    t = run(t, play("event"), {"type": "end_play"}, {"type": "supply"})
    out = apply_command(BOARD, t, {"type": "score"})
    assert out.ok and out.state.vp_axis == 0 and out.reason.code == "victory.skipped"


def test_discard_step_limits_and_draw_never_overdraws():
    t = run(new_table(BOARD), play("event"), {"type": "end_play"}, {"type": "supply"}, {"type": "score"})
    assert refused(t, {"type": "discard", "n": 7}).code == "discard.too_many"
    t = run(t, {"type": "discard", "n": 6})
    low = replace(t, cards=tuple((c, replace(k, deck=2)) if c == "germany" else (c, k) for c, k in t.cards))
    after = run(low, {"type": "draw"})
    assert after.cards_of("germany").hand == 2 and after.cards_of("germany").deck == 0


def test_draw_count_fills_the_hand_to_seven_from_what_the_deck_holds():
    t = new_table(BOARD)
    assert draw_count(t, "germany") == 0  # a full hand
    t = run(t, play("event"), {"type": "end_play"}, {"type": "supply"}, {"type": "score"}, {"type": "discard", "n": 3})
    assert draw_count(t, "germany") == 4  # the card played and the three discarded
    assert run(t, {"type": "draw"}).cards_of("germany").hand == 7
    low = replace(t, cards=tuple((c, replace(k, deck=2)) if c == "germany" else (c, k) for c, k in t.cards))
    assert draw_count(low, "germany") == 2
    empty = replace(t, cards=tuple((c, replace(k, deck=0)) if c == "germany" else (c, k) for c, k in t.cards))
    assert draw_count(empty, "germany") == 0
    over = replace(t, cards=tuple((c, replace(k, hand=9)) if c == "germany" else (c, k) for c, k in t.cards))
    assert draw_count(over, "germany") == 0


def test_discard_from_an_empty_deck_comes_from_the_hand_then_costs_vp():
    t = run(new_table(BOARD), play("economic_warfare"))
    t = replace(t, cards=tuple((c, replace(k, deck=1, hand=1)) if c == "united_kingdom" else (c, k)
                               for c, k in t.cards))
    t = run(t, {"type": "step", "country": "germany", "action": "discard_from_deck",
                "target_country": "united_kingdom", "n": 4})
    k = t.cards_of("united_kingdom")
    assert (k.deck, k.hand) == (0, 0) and t.vp_allies == -2


def test_named_status_changes_supply_and_scoring():
    t = new_table(BOARD)
    t = run(t, play("build_army", space="eastern_europe"), *TURN)  # Germany's turn done; the UK is active
    t = replace(t, position=t.position.with_piece(Piece("united_kingdom", "army", "canada")))
    t = run(t, play("status", card_id="uk_mackenzie_king"))
    assert "uk_mackenzie_king" in t.position.statuses
    # the status itself places nothing (no free step after a status)
    assert refused(t, {"type": "step", "country": "united_kingdom", "action": "recruit_army",
                       "space": "india"}).code == "step.no_card"
    t = run(t, {"type": "end_play"}, {"type": "supply"})
    assert any(p.space == "canada" for p in t.position.pieces)  # a source for the UK now
    t = run(t, {"type": "score"})
    assert t.vp_allies == 4


def test_named_event_scores_immediately_even_with_the_home_occupied():
    t = new_table(BOARD)
    t = replace(t, position=pos("su army germany", "ger army western_europe", "ger army balkans", "su army moscow"))
    t = run(t, play("event", card_id="ger_plunder"))
    assert t.vp_axis == 2


def test_named_card_must_come_from_the_active_countrys_deck():
    assert refused(new_table(BOARD), play("response", card_id="su_stalingrad")).code == "card.other_deck"
    with pytest.raises(CommandError):
        apply_command(BOARD, new_table(BOARD), play("event", card_id="ger_dive_bombers"))  # it is a status
    with pytest.raises(CommandError):
        apply_command(BOARD, new_table(BOARD), play("event", card_id="no_such_card"))


def test_status_use_once_per_turn_and_only_when_in_play():
    t = new_table(BOARD)
    assert refused(t, {"type": "use_card", "country": "germany", "card_id": "ger_dive_bombers"}).code == \
        "use.not_in_play"
    t = run(t, play("status", card_id="ger_dive_bombers"))
    assert t.window is None  # nobody can answer: the window closes by itself
    # usable only right after a land battle (a use whose trigger has not happened is refused)
    assert refused(t, {"type": "use_card", "country": "germany", "card_id": "ger_dive_bombers"}).code == \
        "use.no_trigger"
    t = replace(t, last={"battled": "ukraine", "domain": "land", "by": "germany"})
    t = run(t, {"type": "use_card", "country": "germany", "card_id": "ger_dive_bombers"})
    assert refused(t, {"type": "use_card", "country": "germany", "card_id": "ger_dive_bombers"}).code == \
        "use.once_per_turn"
    # the limit resets with the next turn
    t = run(t, *TURN)
    assert t.used == ()


def test_instead_of_play_status_replaces_the_play_step():
    t = run(new_table(BOARD), play("status", card_id="ger_conscription"), *TURN)
    for _ in range(5):  # the other five countries discard an unused card
        t = run(t, play("discard_unused"), *TURN)
    assert (t.round, t.active(BOARD)) == (2, "germany")
    t = run(t, {"type": "use_card", "country": "germany", "card_id": "ger_conscription"})
    assert t.played == "status_instead"
    assert refused(t, play("event")).code == "play.already"


def test_response_is_face_down_then_revealed_and_discarded():
    t = run(new_table(BOARD), play("event"), *TURN)
    t = run(t, play("discard_unused"), *TURN)  # UK
    t = run(t, play("discard_unused"), *TURN)  # Japan
    t = run(t, play("response"))  # the USSR plays a response face down: only the count is public
    k = t.cards_of("soviet_union")
    assert k.responses == 1 and "su_stalingrad" not in json.dumps(t.to_dict())
    # nobody could answer a face-down card with anything the decks hold (public facts only): no window
    assert (t.window, t.declined) == (None, ())
    assert refused(t, {"type": "pass", "country": "germany"}).code == "window.closed"
    t = run(t, {"type": "use_card", "country": "soviet_union", "card_id": "su_stalingrad"})
    k2 = t.cards_of("soviet_union")
    assert (k2.responses, k2.discard) == (0, k.discard + 1)
    assert refused(t, {"type": "use_card", "country": "soviet_union", "card_id": "su_stalingrad"}).code == \
        "use.no_response"


def test_response_window_opponents_first_then_alternate_until_two_passes():
    """Card rules 5 (a stored game): any country of the team whose turn it is passes for it."""
    t = run(new_table(BOARD, Options(card_rules=5)), play("land_battle", space="eastern_europe"))
    assert t.window == "allies"
    assert refused(t, {"type": "pass", "country": "italy"}).code == "window.not_yours"
    t = run(t, {"type": "pass", "country": "united_kingdom"})
    assert (t.window, t.window_passes) == ("axis", 1)
    t = run(t, {"type": "pass", "country": "germany"})
    assert t.window is None
    assert refused(t, {"type": "pass", "country": "germany"}).code == "window.closed"


def test_reallocate_resources_optional_rule():
    t = new_table(BOARD)
    cmd = {"type": "reallocate", "card_type": "land_battle"}
    assert refused(t, cmd).code == "reallocate.off"
    t = new_table(BOARD, Options(reallocate=True))
    t2 = run(t, cmd)
    k = t2.cards_of("germany")
    assert (k.hand, k.discard, k.deck) == (4, 7, 29)
    assert refused(t2, cmd).code == "reallocate.when"


def test_strait_change_is_reported():
    t = run(new_table(BOARD), play("event"))
    out = apply_command(BOARD, t, {"type": "step", "country": "germany", "action": "recruit_army",
                                   "space": "north_africa"})
    assert any(n.code == "reminder.strait" and "Гибралтар" in n.ru for n in out.notes)


def test_game_ends_after_round_20_and_a_tie_goes_to_the_axis():
    t = replace(new_table(BOARD), round=20, turn=5, vp_axis=2)
    t = run(t, play("discard_unused"), *TURN)  # the USA scores 2 for Eastern US: 2 : 2
    assert (t.vp_axis, t.vp_allies) == (2, 2)
    assert (t.winner, t.end_reason) == ("axis", "rounds")
    assert refused(t, {"type": "end_play"}).code == "game.over"


def test_early_victory_after_the_us_turn_when_30_ahead():
    t = replace(new_table(BOARD, Options(early_victory=True)), turn=5, vp_allies=31)
    t = run(t, play("discard_unused"), {"type": "end_play"}, {"type": "supply"})
    t = run(t, {"type": "score"}, {"type": "discard", "n": 0}, {"type": "draw"})
    assert (t.winner, t.end_reason) == ("allies", "early")
    off = replace(new_table(BOARD), turn=5, vp_allies=31)
    off = run(off, play("discard_unused"), *TURN)
    assert off.winner is None and off.round == 2


def test_malformed_commands_raise_command_error():
    for bad in ({"type": "warp"}, "x", {"type": "discard", "n": "lots"}, {"type": "play_card", "card_type": "x"},
                {"type": "step", "action": "fly", "country": "germany"},
                {"type": "use_card", "country": "germany", "card_id": [1, 2]},
                {"type": "step", "action": "remove", "country": "germany", "space": ["germany"]}):
        with pytest.raises(CommandError):
            t = new_table(BOARD)
            if isinstance(bad, dict) and bad.get("type") == "discard":
                t = replace(t, phase="discard")
            apply_command(BOARD, t, bad)


COMMANDS = st.sampled_from(COMMAND_TYPES)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(COMMANDS, st.integers(0, 10**6)), max_size=40))
def test_random_command_sequences_keep_the_table_consistent(steps):
    t = new_table(BOARD)
    spaces = list(BOARD.spaces)
    for kind, seed in steps:
        rng = random.Random(seed)
        cmd = {"type": kind, "country": rng.choice(BOARD.turn_order), "space": rng.choice(spaces),
               "card_type": rng.choice(["build_army", "build_navy", "land_battle", "sea_battle", "event", "status",
                                        "response", "discard_unused"]),
               "action": rng.choice(["build_army", "recruit_army", "recruit_navy", "eliminate", "remove"]),
               "n": rng.randint(0, 3), "target_country": rng.choice(BOARD.turn_order)}
        if kind in ("play_card", "end_play", "supply", "score", "discard", "draw", "reallocate"):
            cmd["country"] = t.active(BOARD)
        try:
            out = apply_command(BOARD, t, cmd)
        except CommandError:
            continue
        if out.ok:
            assert apply_ops(t, list(out.changes)) == out.state
            t = out.state
        for country, k in t.cards:
            assert min(k.deck, k.hand, k.discard, k.responses) >= 0
            assert k.deck + k.hand + k.discard + k.responses + len(k.statuses) == BOARD.countries[country].deck
        validate_position(BOARD, t.position)
