"""The shared log says what happened, in the third person, for every phone: never a verdict addressed
to the player («ваша снабжаемая армия»); the pieces a supply step removes are named with their owner."""
from dataclasses import replace

from gameplay.qmg.table import apply_command, new_table, piece_names

from .helpers import BOARD, pos


def test_a_played_build_is_logged_neutrally_and_the_verdict_is_a_note_for_the_player():
    out = apply_command(BOARD, new_table(BOARD), {"type": "play_card", "card_type": "build_army",
                                                   "space": "eastern_europe"})
    assert out.ok
    assert out.reason.ru == ("Германия: сыграна карта «Создайте армию» — поставлена: армия (Германия) в секторе "
                             "«Восточная Европа».")
    assert "ваш" not in out.reason.ru and "your" not in out.reason.en
    assert any("ваша снабжаемая армия" in n.ru for n in out.notes)  # the tapping phone still hears why


def test_a_supply_step_names_kind_owner_and_space_of_what_leaves():
    t = replace(new_table(BOARD), position=pos("ger army germany", "ger army north_africa", "ita navy black_sea"))
    t = apply_command(BOARD, t, {"type": "play_card", "card_type": "event"}).state
    t = apply_command(BOARD, t, {"type": "end_play"}).state
    out = apply_command(BOARD, t, {"type": "supply"})
    assert out.reason.ru == "Убраны фишки без снабжения: армия (Германия) в секторе «Северная Африка»."
    assert out.reason.en == "Unsupplied pieces removed: Germany army in North Africa."


def test_piece_names_in_both_languages():
    ru, en = piece_names(BOARD, pos("uk navy north_sea", "su army moscow").pieces)
    assert "флот (Великобритания) в секторе «Северное море»" in ru and "Soviet Union army in Moscow" in en
