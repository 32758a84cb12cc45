"""Every answer of the engine carries a reason in Russian and English that names the rule.

Templates use ``str.format`` fields; space and country names are filled in per language.
"""
from __future__ import annotations

from dataclasses import dataclass

from gameplay.common import Reason


# code: (ru template, en template)
TEMPLATES: dict[str, tuple[str, str]] = {
    # --- legal -------------------------------------------------------------------------------
    "build.ok": (
        "Можно: {piece_ru} в секторе «{space_ru}» — {why_ru} (правило «{rule_ru}»).",
        "Legal: {piece_en} in {space_en} — {why_en} (rule “{rule_en}”).",
    ),
    "recruit.ok": (
        "Можно: при найме снабжение не требуется (правило «Создать или нанять»).",
        "Legal: recruiting ignores supply (rule “Build or recruit”).",
    ),
    "battle.ok": (
        "Можно атаковать сектор «{space_ru}»: рядом ваша снабжаемая фишка в секторе «{from_ru}» (правило «{rule_ru}»). {result_ru}",
        "{space_en} may be attacked: your supplied piece in {from_en} is adjacent (rule “{rule_en}”). {result_en}",
    ),
    "battle.ok_card": (
        "Можно атаковать сектор «{space_ru}» без соседней снабжаемой фишки: это разрешает статус «{card_ru}» (текст карты). {result_ru}",
        "{space_en} may be attacked with no adjacent supplied piece: the status “{card_en}” allows it (card text). {result_en}",
    ),
    "eliminate.ok": (
        "Можно: уничтожение не требует условий атаки — {target_ru} убирается (правило «Атака или уничтожение»).",
        "Legal: elimination needs none of the attack conditions — {target_en} is removed (rule “Attack or eliminate”).",
    ),
    "remove.ok": (
        "Можно: свою фишку разрешено убрать с поля в любой момент (правило «Фишки»).",
        "Legal: you may remove your own piece at any time (rule “Pieces”).",
    ),
    # --- refusals ----------------------------------------------------------------------------
    "army_on_land": (
        "Армия может стоять только на суше, а «{space_ru}» — море (правило «Фишки»).",
        "An army can only stand on land, and {space_en} is a sea (rule “Pieces”).",
    ),
    "navy_at_sea": (
        "Флот может стоять только в море, а «{space_ru}» — суша (правило «Фишки»).",
        "A navy can only stand at sea, and {space_en} is land (rule “Pieces”).",
    ),
    "stacking.own": (
        "В секторе «{space_ru}» уже есть {piece_gen_ru} страны {country_ru}: одна фишка каждого вида от страны на сектор (правило «Фишки»).",
        "{space_en} already holds {country_en}'s {kind_en}: one piece of each kind per country in a space (rule “Pieces”).",
    ),
    "stacking.enemy": (
        "В секторе «{space_ru}» стоит {piece_ru} противника ({other_ru}): фишки противоборствующих лагерей не могут делить сектор (правило «Фишки»).",
        "{space_en} holds an enemy {kind_en} ({other_en}): pieces of opposing teams cannot share a space (rule “Pieces”).",
    ),
    "limit": (
        "У страны {country_ru} не осталось свободных фишек ({piece_pl_ru}: все {limit} на поле). Уберите свою фишку, чтобы её освободить (правило «Фишки»).",
        "{country_en} has no {kind_en} left (all {limit} are on the board). Remove one of yours to free it (rule “Pieces”).",
    ),
    "build_army.not_adjacent": (
        "Создать армию можно только рядом с вашей снабжаемой армией или флотом, или в домашнем секторе (правило «Создайте армию»).",
        "An army can only be built next to your supplied army or navy, or in your home space (rule “Build Army”).",
    ),
    "build_navy.not_adjacent": (
        "Создать флот можно только рядом с вашим снабжаемым флотом или армией (правило «Создайте флот»){straits_ru}.",
        "A navy can only be built next to your supplied navy or army (rule “Build Navy”){straits_en}.",
    ),
    "build_navy.unsupplied": (
        "Созданный флот должен быть снабжаемым, а рядом с «{space_ru}» нет армии вашего лагеря (правило «Снабжение»: условие для флотов).",
        "A built navy must be supplied, and no army of your team is on land next to {space_en} (rule “Supply”: the navy condition).",
    ),
    "battle.wrong_domain_land": (
        "«Атака на суше» бьёт только по сектору суши, а «{space_ru}» — море (правило «Атака на суше»).",
        "A Land Battle targets only a land space, and {space_en} is a sea (rule “Land Battle”).",
    ),
    "battle.wrong_domain_sea": (
        "«Атака на море» бьёт только по сектору моря, а «{space_ru}» — суша (правило «Атака на море»).",
        "A Sea Battle targets only a sea space, and {space_en} is land (rule “Sea Battle”).",
    ),
    "battle.own_team": (
        "Нельзя атаковать сектор, где стоит фишка вашего лагеря ({other_ru}) (правило «Атака»).",
        "You cannot attack a space holding a piece of your own team ({other_en}) (rule “Battle”).",
    ),
    "battle.not_adjacent": (
        "Атаковать «{space_ru}» можно, только если рядом стоит ваша снабжаемая армия или флот (правило «{rule_ru}»){straits_ru}.",
        "{space_en} can only be attacked from an adjacent supplied army or navy of yours (rule “{rule_en}”){straits_en}.",
    ),
    "battle.no_such_target": (
        "В секторе «{space_ru}» нет фишки страны {country_ru}, которую можно атаковать (правило «Атака»).",
        "{space_en} holds no piece of {country_en} that could be attacked (rule “Battle”).",
    ),
    "eliminate.nothing": (
        "В секторе «{space_ru}» нет такой фишки противника — уничтожать нечего (правило «Атака или уничтожение»).",
        "{space_en} holds no such enemy piece — there is nothing to eliminate (rule “Attack or eliminate”).",
    ),
    "eliminate.own_team": (
        "Уничтожают фишки противника; свою фишку уберите действием «убрать свою фишку», фишку союзника убирает только он сам (правило «Фишки»).",
        "Eliminate removes enemy pieces; remove your own piece with “remove own piece”, an ally's piece only its owner may remove (rule “Pieces”).",
    ),
    "remove.not_own": (
        "Убрать можно только свою фишку; фишку союзника убирает только он сам (правило «Фишки»).",
        "You may only remove your own piece; an ally's piece only its owner may remove (rule “Pieces”).",
    ),
    "remove.nothing": (
        "В секторе «{space_ru}» нет вашей фишки этого вида (правило «Фишки»).",
        "{space_en} holds no piece of yours of that kind (rule “Pieces”).",
    ),
    # --- supply explanations -----------------------------------------------------------------
    "supply.source": (
        "Снабжается: стоит на источнике снабжения «{space_ru}».",
        "Supplied: it stands on the supply source {space_en}.",
    ),
    "supply.card_source": (
        "Снабжается: «{space_ru}» — источник снабжения для страны {country_ru} по карте.",
        "Supplied: {space_en} is a supply source for {country_en} through a card.",
    ),
    "supply.chain": (
        "Снабжается по цепочке: {chain_ru}.",
        "Supplied through the chain {chain_en}.",
    ),
    "supply.card_source_named": (
        "Снабжается: пока в игре карта «{card_ru}», «{space_ru}» служит источником снабжения только для страны {country_ru}.",
        "Supplied: while the card “{card_en}” is in play, {space_en} is a supply source for {country_en} alone.",
    ),
    "supply.card_always": (
        "Снабжается независимо от цепочки: карта «{card_ru}» делает {piece_pl_ru} страны {country_ru} снабжаемыми.",
        "Supplied whatever its chain: the card “{card_en}” keeps every {kind_en} of {country_en} in supply.",
    ),
    "supply.navy_condition": (
        "Не снабжается: рядом с флотом нет армии вашего лагеря на суше (правило «Снабжение»: условие для флотов).",
        "Unsupplied: no army of its team stands on land next to this navy (rule “Supply”: the navy condition).",
    ),
    "supply.no_chain": (
        "Не снабжается: нет непрерывной цепочки своих фишек до источника снабжения с вашей армией (правило «Снабжение»).",
        "Unsupplied: no unbroken chain of its own country's pieces leads to a supply source holding its army (rule “Supply”).",
    ),
    "supply.source_blocked": (
        "«{space_ru}» сейчас не источник снабжения для лагеря {team_ru} (карта в игре).",
        "{space_en} is currently not a supply source for the {team_en} (a card in play).",
    ),
    "air.supplied": (
        "Авиация снабжается: в этом секторе снабжаемая армия или флот её страны (Air Marshal).",
        "The air force is supplied: its country's supplied army or navy is in this space (Air Marshal).",
    ),
    "air.unsupplied": (
        "Авиация не снабжается: армия или флот её страны здесь без снабжения (Air Marshal).",
        "The air force is unsupplied: its country's army or navy here is out of supply (Air Marshal).",
    ),
    "air.stranded": (
        "В секторе нет армии или флота этой страны: авиация должна сразу перелететь в соседний сектор с ними "
        "или уйти с поля (Air Marshal: отступление).",
        "No army or navy of its country is in this space: the air force must at once move to an adjacent space "
        "with one, or leave the board (Air Marshal: air retreat).",
    ),
    # --- victory -----------------------------------------------------------------------------
    "victory.skipped": (
        "Фаза победных очков пропущена: в домашнем секторе «{space_ru}» армия чужого лагеря ({other_ru}) (правило «Подсчёт очков»).",
        "Victory step skipped: an enemy army ({other_en}) stands in the home space {space_en} (rule “Scoring”).",
    ),
    "victory.alone": ("{space_ru} {points}", "{space_en} {points}"),
    "victory.shared": ("{space_ru} {points} (вместе с {with_ru})", "{space_en} {points} (shared with {with_en})"),
    "victory.card_source": ("{space_ru} {points} (источник по карте)", "{space_en} {points} (card source)"),
    "victory.card_source_named": (
        "{space_ru} {points} (источник только для вас по карте «{card_ru}»)",
        "{space_en} {points} (a source for you alone through “{card_en}”)",
    ),
    "victory.status": ("«{card_ru}» +{points} ({detail_ru})", "“{card_en}” +{points} ({detail_en})"),
    "vp_immediate.ok": (
        "«{card_ru}»: +{points} сразу ({detail_ru}); такие очки засчитываются и при занятом домашнем секторе (правило «Подсчёт очков»).",
        "“{card_en}”: +{points} at once ({detail_en}); such points count even with the home space occupied (rule “Scoring”).",
    ),
    "vp_immediate.not_met": (
        "«{card_ru}»: условие карты не выполнено ({detail_ru}) — очков нет.",
        "“{card_en}”: the card's condition is not met ({detail_en}) — no points.",
    ),
    "victory.nothing": ("Нет армий на источниках снабжения: 0", "No army on a supply source: 0"),
    "sudden_victory": (
        "Досрочная победа: армии лагеря {team_ru} занимают два домашних сектора противника ({spaces_ru}).",
        "Sudden victory: the {team_en} armies hold two enemy home spaces ({spaces_en}).",
    ),
    # --- reminders ---------------------------------------------------------------------------
    "reminder.recruit_unsupplied": (
        "Нанятая фишка не снабжается и будет убрана в следующей фазе снабжения страны {country_ru}.",
        "The recruited piece is unsupplied and will be removed in the next supply step of {country_en}.",
    ),
    "reminder.empty_target": (
        "Сектор пуст: атака ничего не убирает (так делают, чтобы сработал статус или ответ).",
        "The space is empty: the battle removes nothing (done to trigger a status or response).",
    ),
}

TEAM_NAMES = {"axis": ("«оси»", "Axis"), "allies": ("коалиции", "Allies")}
KIND_NAMES = {
    # kind: (ru nominative, ru genitive, ru plural, en)
    "army": ("армия", "армия", "армии", "army"),
    "navy": ("флот", "флот", "флоты", "navy"),
}


def reason(code: str, **fields) -> Reason:
    ru, en = TEMPLATES[code]
    return Reason(code=code, ru=ru.format(**fields).strip(), en=en.format(**fields).strip())


@dataclass(frozen=True)
class ScoreLine:
    """One line of a score: the points, why, and the space or card that gave them."""

    points: int
    reason: Reason
    space: str | None = None
    card: str | None = None


# the reasons that only explain why an accepted move was legal (the rule that allows it): a phone shows them on
# demand after a success, and always with a refusal
LEGALITY_CODES = frozenset({"build.ok", "recruit.ok", "battle.ok", "battle.ok_card", "eliminate.ok", "remove.ok"})


def explains_legality(reason: Reason) -> bool:
    """Does ``reason`` only say why an accepted move was allowed (not what it did)?"""
    return reason.code in LEGALITY_CODES

