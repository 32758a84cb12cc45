"""Bounds on what a setup, a map or a command may ask the engine to build.

The source (spec §1.1) names 21 provinces, 15 neutral cards and two battle decks whose size the
group types in (the new-game form always allowed a count of 1-200 a side). Anything far beyond the
physical game is refused *before* any work, so one request can never cost seconds or megabytes:

- a card list (a side's deck, the neutral cards, a year's reinforcements) holds at most
  ``MAX_CARDS`` cards and is typed in at most ``MAX_CARD_TEXT`` characters (``"L3 "`` × 200 is 600);
- a printed card value is at most ``MAX_CARD_VALUE`` (the game's own run 0-4 or so);
- a map holds at most ``MAX_PROVINCES`` provinces, each with at most ``MAX_NEIGHBOURS`` neighbours
  (so at most 100 × 30 = 3,000 edges), keys of at most ``MAX_KEY`` and names of at most ``MAX_NAME``
  characters, VP and resources of at most ``MAX_PROVINCE_NUMBER``; typed, at most ``MAX_MAP_TEXT``
  characters.
"""
from __future__ import annotations

MAX_CARDS = 200
MAX_CARD_TEXT = 2_000
MAX_CARD_VALUE = 99
MAX_PROVINCES = 100
MAX_NEIGHBOURS = 30
MAX_KEY = 40
MAX_NAME = 80
MAX_PROVINCE_NUMBER = 99
MAX_MAP_TEXT = 20_000


class LimitError(ValueError):
    """An input beyond the bounds above: ``ru`` and ``en`` say which, in the players' words."""

    def __init__(self, ru: str, en: str):
        super().__init__(en)
        self.ru, self.en = ru, en


def cards_over_limit(what_ru: str, what_en: str) -> LimitError:
    return LimitError(f"{what_ru}: не больше {MAX_CARDS} карт ({MAX_CARD_TEXT} символов).",
                      f"{what_en}: at most {MAX_CARDS} cards ({MAX_CARD_TEXT} characters).")
