"""When a status or response may be used (public facts only): its trigger — what must just have happened, where
the card says — the event a use answers (a status is used once per event), the statuses the engine applies by
itself, whether a country could use a status or a response kind now, and which countries the response window
asks (card rules 6). Below the battles and the card steps: a battle asks whether its removal waits."""
from __future__ import annotations

import json
from dataclasses import replace

from . import program
from .air import air_prompts
from .board import ALLIES, AXIS
from .cards import default_catalogue
from .commands_base import BATTLE_WAIVERS, _copies_left
from .effects import INSTEAD_OF_PLAY, is_automated
from .program import _neighbours
from .rules import compute_supply, victory_step
from .state import ARMY, NAVY
from .tablestate import turn_context


# when a status or response may be used: (what must have just happened, in words)
_TRIGGERS = {
    "when_you_battle_land": ("вы только что атаковали сектор суши", "you have just battled a land space"),
    "when_you_play_land_battle": ("вы только что атаковали сектор суши", "you have just battled a land space"),
    "when_you_battle_sea": ("вы только что атаковали сектор моря", "you have just battled a sea space"),
    "when_you_build_army": ("вы только что создали армию", "you have just built an army"),
    "when_you_play_build_army": ("вы только что создали армию", "you have just built an army"),
    "when_you_build_navy": ("вы только что создали флот", "you have just built a navy"),
    "when_axis_builds_or_recruits_army": ("армия «оси» только что создана или нанята",
                                          "an Axis army has just been built or recruited"),
    "when_allies_build_or_recruit_navy": ("флот коалиции только что создан или нанят",
                                          "an Allied navy has just been built or recruited"),
    "when_german_army_removed": ("немецкую армию только что убрали", "a German army has just been removed"),
    "when_your_navy_would_be_removed": ("ваш флот сейчас должны убрать", "your navy is about to be removed"),
    "when_axis_army_battled": ("армию «оси» только что атаковали", "an Axis army has just been battled"),
    "when_you_play_economic_warfare": ("вы только что сыграли «Экономическую войну»",
                                       "you have just played Economic Warfare"),
    "when_targeted_by_economic_warfare": ("против вас только что сыграли «Экономическую войну»",
                                          "Economic Warfare has just been played against you"),
    "after_you_play_card": ("вы только что сыграли карту", "you have just played a card"),
    "discard_phase": ("идёт ваша фаза сброса", "it is your discard step"),
    "victory_phase": ("идёт ваша фаза победных очков", "it is your victory step"),
    "start_of_turn": ("начало вашего хода, карта ещё не сыграна", "the start of your turn, before a card is played"),
}
_BATTLE_TIMINGS = {"when_you_battle_land": "land", "when_you_play_land_battle": "land", "when_you_battle_sea": "sea"}


# where the event a status or response answers happened, for the cards whose data names it (``trigger_spaces`` /
# ``trigger_where`` in data/cards_1e.yaml): the remembered space it is judged on, per timing — the space battled,
# the space of the piece just built or recruited, the space of the piece battled (card rules 5)
TRIGGER_SPACE_OF = {"when_you_battle_land": "battled", "when_you_play_land_battle": "battled",
                    "when_you_battle_sea": "battled", "when_you_build_army": "placed",
                    "when_you_play_build_army": "placed", "when_you_build_navy": "placed",
                    "when_axis_builds_or_recruits_army": "placed", "when_allies_build_or_recruit_navy": "placed",
                    "when_axis_army_battled": "hit"}
TRIGGER_WHERE = (None, "in_or_adjacent_to_spaces", "adjacent_to_own_piece")  # the trigger_where tokens judged


def trigger_where_holds(board, position, card, country, space) -> bool:
    """Did the card's trigger happen where its text says (``space``: where it happened; None: not known)?
    ``trigger_spaces`` alone: in one of them; ``in_or_adjacent_to_spaces``: in or bordering one of them
    («Распутица»); ``adjacent_to_own_piece``: bordering an army or navy of the card's country («Камикадзе»)."""
    fixed, where = list(card.trigger_spaces), card.trigger_where
    if not fixed and where is None:
        return True
    if space is None or where not in TRIGGER_WHERE:
        return False
    team = board.team_of(country)
    if where == "in_or_adjacent_to_spaces":
        return space in fixed or space in _neighbours(board, position, team, fixed)
    if fixed and space not in fixed:
        return False
    if where == "adjacent_to_own_piece":
        own = {p.space for p in position.of_country(country)}
        return bool(own & _neighbours(board, position, team, [space]))
    return True


def _where_words(board, card) -> tuple[str, str]:
    """Where the card's trigger must happen, in words (Russian, English)."""
    ru = ", ".join(f"«{board.spaces[s].ru}»" for s in card.trigger_spaces)
    en = ", ".join(board.spaces[s].en for s in card.trigger_spaces)
    if card.trigger_where == "in_or_adjacent_to_spaces":
        return f"в секторе {ru} или рядом с ним", f"in or next to {en}"
    if card.trigger_where == "adjacent_to_own_piece":
        return "рядом с вашей армией или флотом", "next to an army or navy of yours"
    return f"в одном из секторов: {ru}", f"in one of: {en}"


def battle_context(table, card, country, board=None) -> dict | None:
    """What a card used "when you battle a land (sea) space" answers: the last battle of that kind that
    ``country`` fought this turn — by its played card or any card that followed from it (card rules 4: a
    response such as «Транспортировка на эсминцах» may still answer the sea battle after «Внезапная атака»'s
    land battle, as the rulebook's example 2 does); card rules 5 (with ``board``): only a battle where the card
    says («Наступление в Китае»: China, Szechuan or Southeast Asia). None: no such battle (or card rules ≤3, or
    not such a card)."""
    domain = _BATTLE_TIMINGS.get(card.timing)
    if domain is None or not table.options.at_least(4):
        return None
    last = table.last or {}
    battles = last.get("battles") or ([{"space": last["battled"], "domain": last.get("domain"), "by": last.get("by")}]
                                      if last.get("battled") else [])
    where = board is not None and table.options.at_least(5)
    for b in reversed(battles):
        if b.get("by") == country and b.get("domain") == domain and (
                not where or trigger_where_holds(board, table.position, card, country, b.get("space"))):
            return {**last, "battled": b["space"], "domain": domain, "by": country}
    return None


def _trigger_happened(board, table, card, country) -> bool:
    """Has the event the card answers happened — from card rules 5 also where the card says?"""
    if card.timing in _BATTLE_TIMINGS and table.options.at_least(4):
        return battle_context(table, card, country, board) is not None
    if not _event_happened(board, table, card, country):
        return False
    if not table.options.at_least(5):
        return True
    remembered = (table.last or {}).get(TRIGGER_SPACE_OF.get(card.timing, "")) or {}
    return trigger_where_holds(board, table.position, card, country, remembered.get("space"))


def _event_happened(board, table, card, country) -> bool:
    last = table.last or {}
    team = board.team_of(country)
    placed = last.get("placed") or {}
    removed = last.get("removed") or {}
    hit = last.get("hit") or {}
    active = table.active(board)
    t = card.timing
    if t in ("when_you_battle_land", "when_you_play_land_battle"):
        return last.get("by") == country and last.get("domain") == "land" and bool(last.get("battled"))
    if t == "when_you_battle_sea":
        return last.get("by") == country and last.get("domain") == "sea" and bool(last.get("battled"))
    if t in ("when_you_build_army", "when_you_play_build_army"):
        return placed.get("country") == country and placed.get("kind") == ARMY and placed.get("how") == "build"
    if t == "when_you_build_navy":
        return placed.get("country") == country and placed.get("kind") == NAVY and placed.get("how") == "build"
    if t == "when_axis_builds_or_recruits_army":
        return bool(placed) and board.team_of(placed["country"]) == AXIS and placed["kind"] == ARMY
    if t == "when_allies_build_or_recruit_navy":
        return bool(placed) and board.team_of(placed["country"]) == ALLIES and placed["kind"] == NAVY
    if t == "when_german_army_removed":
        return removed.get("country") == "germany" and removed.get("kind") == ARMY
    if t == "when_your_navy_would_be_removed":
        held = (table.hold or {}).get("piece") or {}
        return held.get("country") == country and held.get("kind") == NAVY
    if t == "when_axis_army_battled":
        return bool(hit) and board.team_of(hit["country"]) == AXIS and hit["kind"] == ARMY
    if t == "when_you_play_economic_warfare":
        return active == country and table.played == "economic_warfare"
    if t == "when_targeted_by_economic_warfare":
        return table.played == "economic_warfare" and board.team_of(active) != team
    if t == "after_you_play_card":
        return active == country and table.played not in (None, "discard_unused")
    if t == "discard_phase":
        return active == country and table.phase == "discard"
    if t == "victory_phase":
        return active == country and table.phase == "victory"
    if t == "start_of_turn":
        return active == country and table.phase == "play" and not table.played
    return True


# the timings of a status used in its owner's own step (no window): the step, and whether a card must not be
# played yet (start of turn, instead of the play step) or must have been (after a card is played)
_STEP_TIMINGS = {"start_of_turn": "play", INSTEAD_OF_PLAY: "play", "after_you_play_card": "play",
                 "when_you_play_build_army": "play", "when_you_play_economic_warfare": "play",
                 "discard_phase": "discard", "victory_phase": "victory"}


def spent(table) -> list:
    """[card id, trigger] pairs: the statuses used this turn, each for the event it answered (card rules 6)."""
    return [list(x) for x in (table.last or {}).get("spent") or ()]


def trigger_token(board, table, card, country) -> str:
    """Which event a status used now answers: the same battle, build, removal or card answered twice is the same
    token, so a status is used once per event (a new battle or build is a new event)."""
    last = table.last or {}
    t = card.timing

    def dump(value) -> str:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    if t in _BATTLE_TIMINGS:
        ctx = battle_context(table, card, country, board) or {}
        battles = last.get("battles") or []
        index = max((i for i, b in enumerate(battles) if b.get("space") == ctx.get("battled")
                     and b.get("by") == country and b.get("domain") == ctx.get("domain")), default=-1)
        # the battle, and whether its removal has happened since (a removal is a new moment to answer: Blitzkrieg)
        return f"battle:{index}:{ctx.get('battled')}:{dump(last.get('removed'))}"
    key = TRIGGER_SPACE_OF.get(t)
    if key in ("placed", "hit"):
        return f"{key}:{dump(last.get(key))}:{len(last.get('battles') or ())}"
    if t == "when_german_army_removed":
        return f"removed:{dump(last.get('removed'))}"
    if t in ("when_your_navy_would_be_removed", "any_time"):  # the attack whose removal waits (each battle its own)
        return f"hold:{dump(table.hold)}:{len(last.get('battles') or ())}:{table.phase}"
    if t in ("when_you_play_economic_warfare", "when_targeted_by_economic_warfare"):
        return f"ew:{last.get('ew')}"
    return f"{t}:{table.phase}:{table.played}"


def engine_applied(card, table) -> bool:
    """A status whose effect the engine applies by itself, never "used": supply, building and scoring statuses (a
    scoring status is shown in its owner's victory step all the same), the Economic Warfare modifiers (Wolf Packs,
    Flying Fortress) and, from card rules 5, «Фольксштурм» (its basic Land Battle waiver)."""
    if card.timing == "victory_phase":
        return False
    if is_automated(card) or all(e.kind == "modify_ew_discard" for e in card.effects):
        return True
    return card.id in BATTLE_WAIVERS and table.options.at_least(5)


def status_usable(board, table, country: str, card) -> bool:
    """May ``country`` use its face-up status ``card`` right now? Public facts only: the status is in play, its
    trigger has just happened (where the card says), it is not spent for that event, once-per-turn is kept, it is
    the country's team's turn in an open window — and the engine would not apply it by itself."""
    if table.finished or card.type != "status" or card.country != country \
            or card.id not in table.cards_of(country).statuses or engine_applied(card, table):
        return False
    if card.once_per_turn and card.id in table.used:
        return False
    if table.window is not None and table.window != board.team_of(country):
        return False
    if table.options.at_least(6) and [card.id, trigger_token(board, table, card, country)] in spent(table):
        return False
    step = _STEP_TIMINGS.get(card.timing)
    if step is not None:
        if table.active(board) != country or table.phase != step:
            return False
        if card.timing in ("start_of_turn", INSTEAD_OF_PLAY):
            return not table.played
        if card.timing == "victory_phase":
            return _scores_now(board, table, country, card)
        if card.timing in ("discard_phase",):
            return True
        return _event_happened(board, table, card, country)
    if card.timing in (None, "always", "any_time") or table.phase != "play":
        return False
    return _trigger_happened(board, table, card, country)


def _scores_now(board, table, country, card) -> bool:
    """Does this scoring status add points in its owner's victory step now (the step's own count)?"""
    result = victory_step(board, table.position, country, context=turn_context(table))
    return not result.skipped and any(line.card == card.id and line.points > 0 for line in result.lines)


def response_usable(board, table, country: str, card) -> bool:
    """Could ``country`` use response ``card`` right now if it held it face down? Public facts only: it holds
    face-down responses, a copy may still be face down, it is its team's turn in the window, and the card's trigger
    has happened — for a response usable "at any time", that it has something to do now: it saves the piece under
    attack, or (Truk) a navy it keeps supplied is out of supply in the owner's own step or window."""
    if table.finished or card.type != "response" or card.country != country \
            or table.cards_of(country).responses <= 0 or _copies_left(table, card) <= 0:
        return False
    if table.options.at_least(6) and [card.id, trigger_token(board, table, card, country)] in spent(table):
        return False  # declined for this event
    team = board.team_of(country)
    own_step = table.active(board) == country and table.phase in ("play", "supply")
    if table.window != team and not (table.window is None and own_step):
        return False
    if card.timing == "any_time":
        protects = [e for e in card.effects if e.kind == "protect"]
        if protects:
            held = (table.hold or {}).get("piece")
            if not held:
                return False
            steps = program.compile_card(board, table.position, card, country, table.last, lazy=True)
            return any(t["country"] == held["country"] and t["kind"] == held["kind"] and t["space"] == held["space"]
                       for st in steps if st["kind"] == "protect" for t in program.targets(board, table.position, st, table.protected, turn_context(table)))
        kept = [e for e in card.effects if e.kind == "always_supplied"]
        if kept:
            supply = compute_supply(board, table.position, turn_context(table))
            return card.id not in table.used and any(
                not supply.supplied(p) for e in kept for p in table.position.pieces
                if p.country == (e.get("country") or country) and p.kind == e.get("piece", p.kind) and p.kind != "air")
        return False
    if card.timing in _STEP_TIMINGS or card.timing in (None, "always"):
        return False
    if not _trigger_happened(board, table, card, country):
        return False
    if all(e.kind == "eliminate" for e in card.effects):  # it must have its piece to eliminate
        steps = program.compile_card(board, table.position, card, country,
                                     battle_context(table, card, country, board) or table.last, lazy=True)
        return any(program.targets(board, table.position, st, table.protected, turn_context(table)) for st in steps)
    if card.effects_of("cancel_card"):
        flt = card.effects_of("cancel_card")[0].get("card_filter") or {}
        last = table.last or {}
        ew = default_catalogue().get(last.get("ew") or "")
        stems = [x for x in (flt.get("title_stem"), flt.get("title_stem_ru")) if x]
        return ew is not None and (last.get("ew_hits") or {}).get(flt.get("target") or country) is not None \
            and any(st.casefold() in name.casefold() for st in stems for name in (ew.name_en, ew.name_ru))
    return True


def asked(board, table, team: str, air: bool = True) -> list[str]:
    """The countries of ``team`` the window asks, in turn order, from public facts only: a status of theirs usable
    now; face-down responses held (the count is public) while a response card of their deck could answer now (the
    deck's cards are public, which of them are held is not — so the answer is the same whichever is held); with Air
    Marshal, air defence or an air strike open to them."""
    probe = replace(table, window=team)
    cat = default_catalogue()
    air = _air_answers(board, table, team) if air and table.options.air_marshal and table.attack else set()
    out = []
    for c in board.turn_order:
        if board.team_of(c) != team:
            continue
        k = table.cards_of(c)
        if c in air or any(status_usable(board, probe, c, cat[s]) for s in dict.fromkeys(k.statuses)
                           if cat.get(s) is not None) \
                or (k.responses > 0 and any(response_usable(board, probe, c, r) for r in cat.by_type("response", c))):
            out.append(c)
    return out


def _air_answers(board, table, team: str) -> set[str]:
    """The countries of ``team`` that may answer the last attack now: air defence (its air force where its piece was
    attacked) or an air strike (the attacker's air force next to a defended space)."""
    supply = compute_supply(board, table.position, turn_context(table))
    # a stranded air force's own step (card rules 6) offers its air defence: its owner is asked there, not here
    in_step = {st["by"] for st in table.pending if st["kind"] == program.AIR_RETREAT and st.get("defence")}
    found = set()
    for c in board.turn_order:
        if board.team_of(c) == team:
            prompts = air_prompts(board, table.position, table.attack, supply, [c])
            if (prompts.defence and c not in in_step) or prompts.strike_from:
                found.add(c)
    return found


def waiting_for(board, table) -> list[str]:
    """The countries whose answer the open window waits for (asked, not yet declined); [] when it is closed."""
    if table.window is None:
        return []
    return [c for c in asked(board, table, table.window) if c not in table.declined]
