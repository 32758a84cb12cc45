"""Year-end commands of the stepper (§2.13): the checklist 3.1-3.12 in order, then the new year.

Steps 3.5 and 3.6 run once per side, the side without the superiority token first; with
``reinforcement_timing == "before_production"`` step 3.12 comes before 3.5.
Each handler is ``handler(st, table, command) -> Outcome`` (see ``commands_base``).
"""
from __future__ import annotations

import random
from typing import Callable

from gameplay.common import Outcome

from . import year_end as ye
from .board import SIDES, other
from .cards import card_list_size_ok, parse_card_list
from .commands_base import R, BadCommand, done, no, side_en, side_ru
from .limits import MAX_CARD_TEXT, MAX_CARDS
from .state import GameState

# year-end checklist: (engine 'done' key, command type); 3.5 and 3.6 run once per side
YEAR_END_ORDER = ("3.1", "3.2", "3.3", "3.5", "3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "then")
YE_COMMANDS = {"ye_score_vp": "3.1", "ye_split_wins": "3.2", "ye_refresh_intel": "3.3", "ye_spend": "3.5",
               "ye_recall": "3.6", "ye_balkans": "3.7", "ye_usa": "3.8", "ye_ussr": "3.9", "ye_new_decks": "3.10",
               "ye_advance": "3.11", "ye_reinforcements": "3.12", "ye_start_year": "then"}
STEP_COMMANDS = {key: command for command, key in YE_COMMANDS.items()}
YE_SIDE_COMMANDS = ("ye_spend", "ye_recall")  # once per side
PER_SIDE_STEPS = ("3.5", "3.6")


def year_end_order(st: GameState) -> list[str]:
    """The checklist's step keys in this game's order (B-: reinforcements before production, if set)."""
    order = list(YEAR_END_ORDER)
    if st.settings.reinforcement_timing == "before_production":
        order.remove("3.12")
        order.insert(order.index("3.5"), "3.12")
    return order


def year_end_rows(st: GameState) -> list[tuple[str, str | None]]:
    """Every row of the checklist: (step key, side) — side only for the per-side steps, non-holder first."""
    first = other(st.superiority)
    rows = []
    for key in year_end_order(st):
        rows += [(key, s) for s in (first, st.superiority)] if key in PER_SIDE_STEPS else [(key, None)]
    return rows


def _row_done(done_keys: list[str], key: str, side: str | None) -> bool:
    return (f"{key}:{side}" if side else key) in done_keys


def year_end_next(st: GameState) -> tuple[str, str | None] | None:
    """The next year-end step: (key, side) — side for the per-side steps 3.5 and 3.6."""
    if st.phase != "year_end":
        return None
    done_keys = st.year_end.get("done", [])
    return next(((k, s) for k, s in year_end_rows(st) if not _row_done(done_keys, k, s)), None)


def checklist(st: GameState) -> dict | None:
    """The year-end checklist for a page: rows with done/next, the next command and the figures it needs.

    ``numbers``: ``vp_gain`` (with a map), per side ``pp_<side>`` (production points, None without a map),
    ``split_<side>`` (wins to discard, to losses), ``losses_<side>``, ``newdeck_<side>``, and ``first``
    (the side that plays first in the new year).
    """
    nxt = year_end_next(st)
    if nxt is None:
        return None
    done_keys = st.year_end.get("done", [])
    steps = [{"key": k, "side": s, "done": _row_done(done_keys, k, s), "next": (k, s) == nxt,
              "command": STEP_COMMANDS[k]} for k, s in year_end_rows(st)]
    numbers: dict = {}
    names = lambda keys: [st.pdef(k).name_en or k for k in keys]  # noqa: E731
    if st.board is not None:
        gain = ye.axis_vp_gain(st)
        if gain is not None:
            numbers["vp_gain"] = gain
        else:  # asked only where the map is blank
            numbers["vp_known"] = ye.known_income(st, "axis", "vp")
            numbers["vp_unknown"] = names(ye.unknown_income(st, "axis", "vp"))
    for s in SIDES:
        side = st.sides[s]
        numbers[f"pp_{s}"] = ye.production_points(st, s)
        unknown = ye.unknown_income(st, s, "resources")
        if numbers[f"pp_{s}"] is None and unknown:
            numbers[f"res_known_{s}"] = ye.known_income(st, s, "resources")
            numbers[f"res_unknown_{s}"] = names(unknown)
        numbers[f"split_{s}"] = ((len(side.wins) + 1) // 2, len(side.wins) // 2)
        numbers[f"losses_{s}"] = len(side.losses)
        numbers[f"newdeck_{s}"] = len(side.deck) + len(side.discard)
    numbers["first"] = ye.first_side(st)
    return {"steps": steps, "next": nxt[0], "next_side": nxt[1], "next_command": STEP_COMMANDS[nxt[0]],
            "numbers": numbers, "year": st.year, "last_year": st.year == ye.LAST_YEAR}


def _check_order(st: GameState, c: dict) -> Outcome | None:
    nxt = year_end_next(st)
    if nxt is None:
        return no("ye_not_now", "Сейчас не конец года.", "It is not the year end now.", "§2.13")
    key, side = nxt
    if key != YE_COMMANDS[c["type"]] or (side and c.get("side") != side):
        who_ru, who_en = (f" ({side_ru(side)})", f" ({side_en(side)})") if side else ("", "")
        return no("ye_order", f"Шаги конца года идут по порядку: сейчас шаг {key}{who_ru}.",
                  f"The year-end steps go in order: now step {key}{who_en}.", "§2.13")
    return None


Summary = Callable[[Outcome], str]


def _step(st: GameState, c: dict, fn: Callable[[], Outcome], ru: Summary, en: Summary) -> Outcome:
    """Run one checklist step in its turn; the summary is written from the engine's figures."""
    bad = _check_order(st, c)
    if bad:
        return bad
    r = fn()
    if not r.ok:
        return r
    return done(r.state, R(c["type"], ru(r), en(r)))


def _axis_wins(r: Outcome, lang: str) -> str:
    if not r.data["axis_wins"]:
        return ""
    return " The Axis wins (70 VP)!" if lang == "en" else " Победа Оси (70 ПО)!"


def score_vp(st: GameState, table: dict, c: dict) -> Outcome:
    gain = c.get("vp_gain")
    gain = None if gain in (None, "") else int(gain)
    miss = c.get("vp_missing")
    miss = None if miss in (None, "") else int(miss)
    if (gain is not None and not 0 <= gain <= 200) or (miss is not None and not 0 <= miss <= 200):
        raise BadCommand("vp")
    return _step(st, c, lambda: ye.score_vp(st, gain, miss),
                 lambda r: f"3.1: Ось получает {r.data['vp_gain']} ПО, всего {r.data['vp']}." + _axis_wins(r, "ru"),
                 lambda r: f"3.1: the Axis scores {r.data['vp_gain']} VP, {r.data['vp']} in all." + _axis_wins(r, "en"))


def split_wins(st: GameState, table: dict, c: dict) -> Outcome:
    seed = int(c.get("seed", 0))

    def text(r, name, to_discard, to_losses):
        return ", ".join(f"{name(s)} {v['discard']} {to_discard} / {v['losses']} {to_losses}" for s, v in r.data["counts"].items())

    return _step(st, c, lambda: ye.split_wins(st, rng=random.Random(seed)),
                 lambda r: "3.2: стопки побед разделены: " + text(r, side_ru, "в сброс", "в потери") + ".",
                 lambda r: "3.2: wins piles split: " + text(r, side_en, "to discard", "to losses") + ".")


def refresh_intel(st: GameState, table: dict, c: dict) -> Outcome:
    return _step(st, c, lambda: ye.refresh_intel(st), lambda r: "3.3: жетоны разведки восстановлены.",
                 lambda r: "3.3: intel tokens refreshed.")


def spend(st: GameState, table: dict, c: dict) -> Outcome:
    side = c["side"]
    s = st.sides[side]
    n_losses = int(c.get("losses", 0))
    if n_losses < 0 or n_losses > len(s.losses):
        return no("losses_count", f"В стопке потерь только {len(s.losses)} карт.",
                  f"The losses pile holds only {len(s.losses)} cards.", "§2.13 3.5")
    ids = [x.id for x in s.losses[:n_losses]] if "losses_ids" not in c else list(c["losses_ids"])
    res = c.get("resources")
    res = None if res in (None, "") else int(res)
    miss = c.get("resources_missing")
    miss = None if miss in (None, "") else int(miss)
    return _step(st, c, lambda: ye.spend_production(st, side, losses_to_discard=ids, level=int(c.get("level", 0)),
                                                    intel_pairs=int(c.get("intel_pairs", 0)), vp=int(c.get("vp", 0)),
                                                    resources=res, resources_missing=miss),
                 lambda r: f"3.5: {side_ru(side)} — ОП {r.data['pp']}, потрачено {r.data['spent']}, сгорело {r.data['lost']}." + _axis_wins(r, "ru"),
                 lambda r: f"3.5: {side_en(side)} — {r.data['pp']} PP, {r.data['spent']} spent, {r.data['lost']} lost." + _axis_wins(r, "en"))


def recall(st: GameState, table: dict, c: dict) -> Outcome:
    side = c["side"]
    for k in c.get("provinces", []):
        if k not in st.provinces:
            raise BadCommand("province")
    provinces = {k: [x.id for x in st.provinces[k].defence[side]] for k in c.get("provinces", [])}
    cancel = list(c.get("cancel", []))
    return _step(st, c, lambda: ye.recall(st, side, provinces=provinces, cancel=cancel),
                 lambda r: f"3.6: {side_ru(side)} — отозваны карты из {len(provinces)} провинций, отменено операций: {len(r.data['cancelled'])}.",
                 lambda r: f"3.6: {side_en(side)} — cards recalled from {len(provinces)} province(s), {len(r.data['cancelled'])} operation(s) cancelled.")


def balkans(st: GameState, table: dict, c: dict) -> Outcome:
    ru = {"allies": "к Союзникам.", "axis": "под контролем Оси.", None: "в этом году ничего.", "unknown": "нет на карте."}
    en = {"allies": "to the Allies.", "axis": "Axis control.", None: "nothing this year.", "unknown": "not on the map."}
    return _step(st, c, lambda: ye.balkans_step(st), lambda r: "3.7: Балканы — " + ru[r.data["balkans"]],
                 lambda r: "3.7: Balkans — " + en[r.data["balkans"]])


def usa(st: GameState, table: dict, c: dict) -> Outcome:
    return _step(st, c, lambda: ye.usa_step(st),
                 lambda r: "3.8: США " + ("вступают в войну." if r.data["usa_cards"] is not None else "— в этом году ничего."),
                 lambda r: "3.8: USA " + ("enters the war." if r.data["usa_cards"] is not None else "— nothing this year."))


def ussr(st: GameState, table: dict, c: dict) -> Outcome:
    return _step(st, c, lambda: ye.ussr_step(st),
                 lambda r: "3.9: СССР " + ("вступает в войну." if r.data["ussr_provinces"] is not None else "— в этом году ничего."),
                 lambda r: "3.9: USSR " + ("enters the war." if r.data["ussr_provinces"] is not None else "— nothing this year."))


def new_decks(st: GameState, table: dict, c: dict) -> Outcome:
    seed = int(c.get("seed", 0))
    return _step(st, c, lambda: ye.new_decks(st, rng=random.Random(seed)),
                 lambda r: "3.10: новые колоды, взято " + ", ".join(f"{side_ru(s)} {n}" for s, n in r.data["drawn"].items()) + ".",
                 lambda r: "3.10: new decks, drawn " + ", ".join(f"{side_en(s)} {n}" for s, n in r.data["drawn"].items()) + ".")


def advance(st: GameState, table: dict, c: dict) -> Outcome:
    objectives = [p for p in c.get("objectives", []) if p] or None
    return _step(st, c, lambda: ye.advance_year(st, objectives),
                 lambda r: (f"3.11: наступает {r.data['year']} год." if "year" in r.data
                            else f"3.11: конец игры по тайным целям — побеждает {side_ru(r.data['winner'])}."),
                 lambda r: (f"3.11: the year {r.data['year']} begins." if "year" in r.data
                            else f"3.11: game over by the objectives — the {side_en(r.data['winner'])} win."))


def reinforcements(st: GameState, table: dict, c: dict) -> Outcome:
    """3.12: each side's new cards (a count or card codes), at most ``limits.MAX_CARDS`` a side: a larger
    set is refused before anything is built."""
    texts = {}
    for side in SIDES:
        raw = c.get(side)
        if not isinstance(raw, (str, int, type(None))):
            raise BadCommand(side)
        texts[side] = text = str(raw or "").strip()
        if not card_list_size_ok(text):
            return no("reinforcements_limit",
                      f"Подкрепления ({side_ru(side)}): не больше {MAX_CARDS} карт за год "
                      f"(число или коды карт, до {MAX_CARD_TEXT} символов).",
                      f"Reinforcements ({side_en(side)}): at most {MAX_CARDS} cards a year "
                      f"(a count or card codes, up to {MAX_CARD_TEXT} characters).", "§2.13 3.12")
    cards = {}
    for side in SIDES:
        text = texts[side]
        rng = random.Random(int(c.get("seed", 0)))
        prefix = f"{side[:2]}-r{st.year}-{len(st.year_end.get('done', []))}"
        cards[side] = parse_card_list(text, side, prefix, rng) or []
    return _step(st, c, lambda: ye.add_reinforcements(st, cards),
                 lambda r: "3.12: подкрепления в потери: " + ", ".join(f"{side_ru(s)} {len(v)}" for s, v in cards.items()) + ".",
                 lambda r: "3.12: reinforcements into losses: " + ", ".join(f"{side_en(s)} {len(v)}" for s, v in cards.items()) + ".")


def start_year(st: GameState, table: dict, c: dict) -> Outcome:
    return _step(st, c, lambda: ye.start_new_year(st),
                 lambda r: f"Новый год: первым ходит {side_ru(r.data['first'])} (больше карт в колоде).",
                 lambda r: f"New year: the {side_en(r.data['first'])} play first (more cards in the deck).")


HANDLERS = {"ye_score_vp": score_vp, "ye_split_wins": split_wins, "ye_refresh_intel": refresh_intel,
            "ye_spend": spend, "ye_recall": recall, "ye_balkans": balkans, "ye_usa": usa, "ye_ussr": ussr,
            "ye_new_decks": new_decks, "ye_advance": advance, "ye_reinforcements": reinforcements,
            "ye_start_year": start_year}
