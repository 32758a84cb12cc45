"""A stranded air force (quick reference 001, «Размещение и перемещение авиации», «Отступление»): the moment an
air force stands where its country has no army or navy, its owner is offered the adjacent spaces with one, air
defence while its piece's attack may still be answered, and «Убрать» — nothing else goes on until it chooses;
with no space and no air defence it is removed at once, said in everyone's log line."""
import pytest

from gameplay.qmg.scenario import run_scenario
from gameplay.qmg.table import pending_view, step_choices

from .helpers import BOARD, answer, apply, play, step, table_of

AIR = {"air_marshal": True}
UKRAINE = ["germany army germany", "germany army eastern_europe", "soviet_union army moscow",
           "soviet_union army ukraine", "soviet_union air ukraine"]


def attacked(rules=6):
    t = table_of(UKRAINE, active="germany", options={**AIR, "card_rules": rules})
    return apply(t, play("germany", "land_battle", "ger_land_battle", space="ukraine"))


def pieces(t):
    return {(p.country, p.kind, p.space) for p in t.position.pieces}


def test_the_owner_is_offered_air_defence_the_adjacent_spaces_and_remove():
    t = attacked()
    assert ("soviet_union", "army", "ukraine") not in pieces(t)  # no face-down response: removed at once
    head = t.pending[0]
    assert (head["kind"], head["by"], head["space"], head.get("defence")) == ("air_retreat", "soviet_union", "ukraine",
                                                                              True)
    offered = step_choices(BOARD, t)
    assert [c["command"] for c in offered] == [
        {"type": "step", "country": "soviet_union", "action": "air_defence"},
        {"type": "step", "country": "soviet_union", "action": "air_retreat", "space": "moscow"},
        {"type": "step", "country": "soviet_union", "action": "air_retreat"}]
    assert [c["label"]["ru"] for c in offered] == ["Применить авиазащиту", "Перелететь: Москва", "Убрать авиацию"]
    view = pending_view(BOARD, t, "ru")[0]
    assert view["text"].startswith("Отступление авиации: авиация СССР в секторе «Юг СССР» без армии и флота")


@pytest.mark.parametrize("cmd", [
    {"type": "end_play", "country": "germany"},
    {"type": "play_card", "country": "germany", "card_type": "event"},
    {"type": "use_card", "country": "germany", "card_id": "ger_blitzkrieg"},
    {"type": "pass", "country": "soviet_union"},
    {"type": "skip", "country": "germany"},
])
def test_nothing_else_goes_on_until_the_owner_has_chosen(cmd):
    out = answer(attacked(), cmd)
    assert not out.ok and out.reason.code == "air.retreat_first"
    assert "СССР" in out.reason.ru and "Soviet Union" in out.reason.en and "Air Marshal" in out.reason.en


def test_only_the_owner_moves_it_and_a_remove_of_ones_own_piece_still_goes():
    t = attacked()
    out = answer(t, step("germany", "air_retreat", space="moscow"))
    assert not out.ok and out.reason.code == "air.not_stranded"
    assert answer(t, step("germany", "remove", space="eastern_europe", kind="army")).ok


def test_moving_to_moscow_closes_the_step_and_the_turn_goes_on():
    t = apply(attacked(), step("soviet_union", "air_retreat", space="moscow"))
    assert ("soviet_union", "air", "moscow") in pieces(t) and ("soviet_union", "air", "ukraine") not in pieces(t)
    assert t.pending == ()
    assert answer(t, {"type": "end_play", "country": "germany"}).ok


def test_remove_is_the_owners_choice_even_with_somewhere_to_go():
    out = answer(attacked(), step("soviet_union", "air_retreat"))
    assert out.ok and out.reason.code == "air.retreat_removed"
    assert not any(k == "air" for _, k, _ in pieces(out.state)) and out.state.pending == ()
    old = answer(table_of(UKRAINE[:-2] + ["soviet_union air ukraine"], active="germany",
                          options={**AIR, "card_rules": 5}),
                 {"type": "air_retreat", "country": "soviet_union", "from_space": "ukraine"})
    assert not old.ok and old.reason.code == "air.retreat_must_move"  # card rules 5: it had to move


def test_air_defence_from_the_step_puts_the_army_back():
    t = apply(attacked(), step("soviet_union", "air_defence"))
    assert ("soviet_union", "army", "ukraine") in pieces(t) and ("soviet_union", "air", "ukraine") not in pieces(t)
    assert t.pending == ()


def test_a_retreat_elsewhere_than_the_offered_spaces_is_refused():
    out = answer(attacked(), step("soviet_union", "air_retreat", space="russia"))
    assert not out.ok and out.reason.code == "air.retreat_where"


def test_with_nowhere_to_go_it_is_removed_at_once_and_the_log_line_says_so():
    """An elimination (no air defence against it) of the only German army next to nothing of Germany's."""
    t = table_of(["germany army germany", "germany army ukraine", "germany air ukraine", "soviet_union army moscow",
                  "united_kingdom army united_kingdom"], active="soviet_union", options=AIR)
    out = answer(t, play("soviet_union", "event", "su_general_winter"))
    assert out.ok
    out = answer(out.state, step("soviet_union", "eliminate", space="ukraine", target_country="germany"))
    assert out.ok and ("germany", "air", "ukraine") not in pieces(out.state)
    assert "air force in Ukraine" in out.reason.en and "it is removed" in out.reason.en  # everyone's log line
    assert "снята с поля" in out.reason.ru
    assert "air.retreat_removed" in [n.code for n in out.notes]
    assert not any(s["kind"] == "air_retreat" for s in out.state.pending)


def test_a_supply_step_that_removes_the_army_strands_its_air_force_and_it_goes():
    """Germany's armies in Russia and Siberia have no chain to a source: the supply step removes both, and the
    air force in Russia has no German piece to fly to — it leaves the board in the same step."""
    t = table_of(["germany army germany", "germany army russia", "germany air russia", "germany army siberia",
                  "soviet_union army moscow"], active="germany", phase="supply", options=AIR)
    out = answer(t, {"type": "supply", "country": "germany"})
    assert out.ok and pieces(out.state) == {("germany", "army", "germany"), ("soviet_union", "army", "moscow")}
    assert "air force in Russia" in out.reason.en and out.state.pending == ()


def test_card_rules_5_leaves_the_air_force_waiting_as_a_stored_game_did():
    t = attacked(rules=5)
    assert t.pending == () and answer(t, {"type": "end_play", "country": "germany"}).ok


def test_qmg_play_shows_the_choices_of_the_step():
    out = run_scenario({"options": AIR, "pieces": [dict(zip(("country", "kind", "space"), p.split())) for p in UKRAINE],
                        "active": "germany",
                        "commands": [{"type": "play_card", "card_type": "land_battle", "card_id": "ger_land_battle",
                                      "space": "ukraine"}]}, BOARD, lang="en")
    assert out["choices"][-1] == {"type": "step", "country": "soviet_union", "action": "air_retreat"}
    assert out["state"]["pending"][0]["kind"] == "air_retreat"
    assert [c.get("space") for c in out["state"]["pending"][0]["choices"]] == [None, "moscow", None]
