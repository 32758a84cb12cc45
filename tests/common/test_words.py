"""Counted nouns agree with their number (gameplay.common.words)."""
import pytest

from gameplay.common.words import cards, cards_en, cards_ru, plural_ru


@pytest.mark.parametrize("n, text", [(0, "0 карт"), (1, "1 карта"), (2, "2 карты"), (4, "4 карты"), (5, "5 карт"),
                                     (11, "11 карт"), (12, "12 карт"), (14, "14 карт"), (21, "21 карта"),
                                     (22, "22 карты"), (25, "25 карт"), (101, "101 карта"), (111, "111 карт"),
                                     (112, "112 карт"), (122, "122 карты")])
def test_russian_cards(n, text):
    assert cards_ru(n) == text == cards(n, "ru")


def test_english_cards():
    assert [cards_en(n) for n in (0, 1, 2, 21)] == ["0 cards", "1 card", "2 cards", "21 cards"]
    assert cards(1, "en") == "1 card"


def test_other_nouns():
    assert [plural_ru(n, "жетон", "жетона", "жетонов") for n in (1, 3, 7, 13)] == ["жетон", "жетона", "жетонов", "жетонов"]
