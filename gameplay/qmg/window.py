"""The response window: using a status or revealing a face-down response (its trigger must have happened,
its cost is paid first, a protection may save a held piece), passing (two passes in a row close the window
and a held removal happens), and the privacy of face-down responses."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace

from gameplay.common import Outcome

from . import program
from .battles import _answerable, _attack_over
from .board import ALLIES, AXIS
from .cards import default_catalogue
from .commands_base import (
    RULE_USE_EN, RULE_USE_RU, _card_cost, _copies_left, _copies_refusal, _done, _pay_cost, _r,
    _refused,
)
from .commands_base import BATTLE_WAIVERS, _other as _other_team
from .effects import INSTEAD_OF_PLAY, is_automated
from .program import _neighbours
from .legacy import _legacy_pass, _legacy_use_card
from .reasons import Reason
from .state import ARMY, NAVY
from .steps import _remember_auto, _step_targets, run_pending
from .tablestate import Table, apply_ops

def _cmd_pass(board, table, cmd) -> Outcome:
    if table.options.at_least(6) and not cmd.get("_legacy"):
        return _pass_asked(board, table, cmd)
    out = _legacy_pass(board, table, cmd)
    if not out.ok or cmd.get("_legacy"):
        return out
    closes = any(op["op"] == "window" and op.get("team") is None for op in out.changes)
    if closes and table.hold:  # nobody protected it: the held removal happens now
        piece = table.hold["piece"]
        last = {**(table.last or {}), "removed": dict(piece)}
        after = apply_ops(table, [{"op": "remove", **piece}, {"op": "hold", "hold": None}])
        more, notes = run_pending(board, after, list(table.pending))
        c, sp = board.countries[piece["country"]], board.spaces[piece["space"]]
        reason = _r("window.removed", f"Оба лагеря спасовали — фишка страны {c.ru} в «{sp.ru}» убрана.",
                    f"Both teams passed — {c.en}'s piece in {sp.en} is removed.")
        return _done(reason, out.changes + ({"op": "remove", **piece}, {"op": "hold", "hold": None},
                                            {"op": "last", "last": last}) + tuple(more), notes=tuple(notes))
    return out


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


def is_face_down_play(command: dict) -> bool:
    """Does this command put a response face down (its identity private: out of the public log)?"""
    return isinstance(command, dict) and command.get("card_type") == "response" and (
        command.get("type") in ("play_card", "prepare")
        or (command.get("type") == "step" and command.get("action") == "play_from"))


def face_down_refusal(table: Table, country: str, card_id, face_down) -> Reason | None:
    """Why a reveal (``use_card``) of this response is refused by its owner's private list of face-down
    responses (``face_down``: the ids the owner put face down by name), or None. The table holds only the
    count; a face-down card played without its name may be any response, so then any is accepted. The web
    table (the owner's private notes) and ``qmg_play`` (``responses_by_id``) both ask this."""
    card = default_catalogue().get(card_id) if isinstance(card_id, str) else None
    if card is None or card.type != "response" or card.country != country:
        return None
    face_down = list(face_down or ())
    count = table.cards_of(country).responses
    if card_id in face_down or count > len(face_down):
        return None
    return Reason("use.not_face_down", f"Ответа «{card.name_ru}» нет среди закрытых карт этой страны на столе "
                  f"({RULE_USE_RU}).", f"“{card.name_en}” is not among this country's face-down responses "
                  f"({RULE_USE_EN}).")


def _cmd_use_card(board, table, cmd) -> Outcome:
    """Use a status (it stays) or reveal a face-down response (it goes to the discard pile): its trigger
    must have happened, its cost is paid first, then its steps open (protections may cancel a held removal)."""
    if cmd.get("_legacy"):
        return _legacy_use_card(board, table, cmd)
    country = cmd.get("country")
    out = _legacy_use_card(board, table, cmd)  # an unknown card is bad input; an event or a basic card, refused
    if not out.ok:
        return out
    card = default_catalogue()[cmd["card_id"]]
    team = board.team_of(country)
    asked_rules = table.options.at_least(6)  # card rules 6: a window is open only for a team that has someone asked
    if table.window is not None and table.window != team and (asked_rules or _answerable(board, table, table.window)):
        return _refused("window.not_yours", "Сейчас очередь другого лагеря отвечать: лагеря используют карты по "
                        f"очереди, начиная с противника сыгравшего ({RULE_USE_RU}).",
                        f"It is the other team's turn to answer: teams take turns, the player's opponents first "
                        f"({RULE_USE_EN}).")
    if card.country == country and card.type == "response" and table.cards_of(country).responses > 0 \
            and _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    # a victory-step status: from card rules 5 only in its owner's victory step (before: at any time, doing nothing)
    untimed = (None, "any_time", "always", INSTEAD_OF_PLAY) + (() if table.options.at_least(5) else ("victory_phase",))
    if card.country == country and card.timing not in untimed and not _trigger_happened(board, table, card, country):
        ru, en = _TRIGGERS.get(card.timing, ("условие карты", "the card's condition"))
        if table.options.at_least(5) and (card.trigger_spaces or card.trigger_where):
            ru, en = f"{ru} {_where_words(board, card)[0]}", f"{en} {_where_words(board, card)[1]}"
        return _refused("use.no_trigger", f"«{card.name_ru}» можно использовать, только когда {ru}; этого не было "
                        f"(текст карты; {RULE_USE_RU}).", f"“{card.name_en}” may be used only when {en}; that has "
                        f"not happened (card text; {RULE_USE_EN}).")
    if asked_rules and card.type == "status" and card.country == country \
            and [card.id, trigger_token(board, table, card, country)] in spent(table):
        return _refused("use.spent", f"«{card.name_ru}» уже использован на это событие: он сработает снова, когда "
                        f"событие повторится (текст карты; {RULE_USE_RU}).", f"“{card.name_en}” has already been "
                        f"used for this event: it may be used again when the event happens again (card text; "
                        f"{RULE_USE_EN}).")
    ops = list(out.changes)
    if asked_rules and card.type == "status" and card.country == country:
        ops.append({"op": "last", "last": {**(table.last or {}), "spent": [
            *spent(table), [card.id, trigger_token(board, table, card, country)]]}})
    if asked_rules and table.window is None:  # a card used with no window open gives the other team its turn
        ops.append({"op": "window", "team": _other_team(team), "passes": 0})
    if card.type == "response":
        ops.append({"op": "gone", "card": card.id})
    ops += _pay_cost(board, apply_ops(table, ops), country, _card_cost(card))  # discarded before it acts
    cancel = card.effects_of("cancel_card")
    if cancel:  # «Опытные пилоты»: the Economic Warfare card just played against you is ignored
        flt = cancel[0].get("card_filter") or {}
        last = table.last or {}
        ew = default_catalogue().get(last.get("ew") or "")
        hit = (last.get("ew_hits") or {}).get(flt.get("target") or country)
        stems = [x for x in (flt.get("title_stem"), flt.get("title_stem_ru")) if x]
        if ew is None or hit is None or ew.type != flt.get("type", ew.type) or not any(
                st.casefold() in name.casefold() for st in stems for name in (ew.name_en, ew.name_ru)):
            return _refused("use.no_trigger", f"«{card.name_ru}» отменяет только подходящую карту «Экономической "
                            f"войны», только что сыгранную против вас; такой не было (текст карты; {RULE_USE_RU}).",
                            f"“{card.name_en}” cancels only a matching Economic Warfare card just played against "
                            f"you; there was none (card text; {RULE_USE_EN}).")
        now = apply_ops(table, ops).cards_of(country)
        ops.append({"op": "cards", "country": country, "deck": hit["deck"], "hand": hit["hand"],
                    "discard": hit["discard"] + (now.discard - table.cards_of(country).discard)})
        if hit.get("vp"):
            ops.append({"op": "vp", "team": board.team_of(country), "n": hit["vp"]})
    after = apply_ops(table, ops)
    steps = program.compile_card(board, after.position, card, country,
                                 battle_context(table, card, country, board) or table.last,
                                 alternatives=table.options.new_card_rules, per_piece=table.options.at_least(4),
                                 lazy=table.options.at_least(6))
    notes: list[Reason] = []
    held = table.hold
    saved = None
    if held is not None:
        for st in steps:
            if st["kind"] == "protect" and any(c["country"] == held["piece"]["country"] and c["space"] == held["piece"]["space"]
                                               and c["kind"] == held["piece"]["kind"]
                                               for c in _step_targets(board, after, st)):
                ops += [{"op": "protect", "piece": dict(held["piece"])}, {"op": "hold", "hold": None},
                        *_attack_over(table)]
                ops += _remember_auto(apply_ops(table, ops), st, {"action": "protect", **held["piece"]})
                steps = []
                saved = held
                break
        if card.timing == "when_your_navy_would_be_removed":
            ops += [{"op": "hold", "hold": None}, *_attack_over(table)]  # saved from this removal only
            steps = []
            saved = held
    if card.type == "response" and steps and all(s["kind"] == "eliminate" for s in steps) \
            and not any(_step_targets(board, after, s) for s in steps):
        return _refused("use.no_trigger", f"«{card.name_ru}»: того, на что отвечает карта, не было — уничтожать "
                        f"нечего (текст карты; {RULE_USE_RU}).", f"“{card.name_en}”: what the card answers has not "
                        f"happened — there is nothing to eliminate (card text; {RULE_USE_EN}).")
    after = apply_ops(table, ops)
    more, more_notes = run_pending(board, after, steps + list(after.pending))
    reason, data = out.reason, {}
    if saved is not None and table.options.at_least(6):  # what the answer did, for everyone's log line
        said = saved_words(board, saved, card)
        reason = Reason(reason.code, f"{reason.ru} {said.ru}", f"{reason.en} {said.en}", reason.rule)
        data = {"window": {"saved": dict(saved["piece"]), "by_card": card.id, "attacker": saved.get("by")}}
    outcome = _done(reason, tuple(ops + more), notes=tuple(notes + more_notes))
    return replace(outcome, data=data) if data else outcome


# ------------------------------------------------------------------------------------------
# Card rules 6: the window asks only who can answer (public facts only)
# ------------------------------------------------------------------------------------------

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
    from .rules import victory_step  # the victory step's own count: the status adds points in it now
    from .tablestate import turn_context
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
                       for st in steps if st["kind"] == "protect" for t in _step_targets(board, table, st))
        kept = [e for e in card.effects if e.kind == "always_supplied"]
        if kept:
            from .rules import compute_supply
            from .tablestate import turn_context
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
        return any(_step_targets(board, table, st) for st in steps)
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
    from .air import air_prompts
    from .rules import compute_supply
    from .tablestate import turn_context
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


def settle_window(board, table) -> tuple[list[dict], list[Reason], dict]:
    """Card rules 6: the window after a command — a team with nobody left to ask passes by itself, two passes in a
    row close it, and a removal held for it happens then. (ops, what it did for the log line, data)."""
    if not table.options.at_least(6) or table.window is None or table.finished:
        return [], [], {}
    team, passes, declined = table.window, table.window_passes, list(table.declined)
    moved = False
    for _ in range(3):
        if passes >= 2:
            ops, said, data = _close_window(board, table)
            if data["window"].get("removed"):  # the removal is a new event: its owner's team may answer it
                more, more_said, _ = settle_window(board, apply_ops(table, ops))
                ops, said = ops + more, said + more_said
            return ops, said, data
        if any(c not in declined for c in asked(board, table, team)):
            break
        passes, team, declined, moved = passes + 1, _other_team(team), [], True
    if not moved:
        return [], [], {}
    return [{"op": "window", "team": team, "passes": passes}], [], {}


def _close_window(board, table) -> tuple[list[dict], list[Reason], dict]:
    ops: list[dict] = [{"op": "window", "team": None}]
    if not table.hold:
        return ops, [], {"window": {"closed": True}}
    held = table.hold
    piece = held["piece"]
    ops += [{"op": "remove", **piece}, {"op": "hold", "hold": None},
            {"op": "last", "last": {**(table.last or {}), "removed": dict(piece)}},
            {"op": "window", "team": board.team_of(piece["country"]), "passes": 0}]
    after = apply_ops(table, ops)
    more, notes = run_pending(board, after, list(table.pending))
    said = removed_words(board, held)
    return ops + more, [said, *notes], {"window": {"closed": True, "removed": dict(piece), "attacker": held.get("by")}}


def _piece_words(board, piece: dict) -> tuple[str, str]:
    c, sp = board.countries[piece["country"]], board.spaces[piece["space"]]
    kind_ru = {"army": "армия", "navy": "флот"}.get(piece["kind"], "авиация")
    return f"{kind_ru} {c.of_ru()} в секторе «{sp.ru}»", f"{c.en}'s {piece['kind']} in {sp.en}"


def removed_words(board, held: dict) -> Reason:
    ru, en = _piece_words(board, held["piece"])
    verb = "убран" if held["piece"]["kind"] == "navy" else "убрана"
    return _r("window.removed", f"Ответов больше нет: {ru} {verb}.", f"No more answers: {en} is removed.")


def saved_words(board, held: dict, card) -> Reason:
    ru, en = _piece_words(board, held["piece"])
    pronoun = "его" if held["piece"]["kind"] == "navy" else "её"
    return _r("window.saved", f"Атака отбита: {ru} остаётся на поле — {pronoun} спасла карта «{card.name_ru}».",
              f"The attack is answered: {en} stays on the board — saved by “{card.name_en}”.")


def stake_of(board, table) -> Reason | None:
    """What the open window is about, in words: the attack whose removal waits («Япония атакует флот
    Великобритании в секторе «Южно-Китайское море»»), else the last move that opened it."""
    held = table.hold
    if held:
        a = board.countries[held.get("by") or table.active(board)]
        ru, en = _piece_words(board, held["piece"])
        return _r("window.stake", f"{a.ru} {a.verb_ru('атакует', 'атакуют')} — под ударом {ru}",
                  f"{a.en} attacks {en}")
    stake = (table.last or {}).get("stake")
    if stake:
        return _r("window.stake", f"Ответ на ход: {stake['ru']}", f"Answering: {stake['en']}")
    return None


@dataclass(frozen=True)
class WindowView:
    """The open response window as every phone may see it (public facts only)."""

    team: str  # the team whose turn it is to answer or pass
    waiting: tuple[str, ...]  # the countries asked that have not answered yet, in turn order
    declined: tuple[str, ...]  # the countries of that team that have passed
    passes: int  # team passes in a row (the window closes at two)
    held: dict | None  # the piece whose removal waits for the window, with the attacker ("by"), or None
    stake: Reason | None  # what is at stake, in both languages


def window_view(board, table) -> WindowView | None:
    """The response window now, or None when it is closed (card rules 6: only the countries that can answer)."""
    if table.window is None or table.finished:
        return None
    waiting = waiting_for(board, table) if table.options.at_least(6) else [
        c for c in board.turn_order if board.team_of(c) == table.window]
    return WindowView(table.window, tuple(waiting), tuple(table.declined), table.window_passes,
                      dict(table.hold) if table.hold else None, stake_of(board, table))


def _pass_asked(board, table, cmd) -> Outcome:
    """Card rules 6: a pass is a country's own decline; the team passes when each of its asked countries has."""
    country = cmd["country"]
    c = board.countries[country]
    if table.window is None:
        return _refused("window.closed", "Сейчас никто не ждёт ответа: окно ответов закрыто.",
                        "Nobody is waiting for an answer: the response window is closed.")
    waiting = waiting_for(board, table)
    names_ru = ", ".join(board.countries[x].ru for x in waiting)
    names_en = ", ".join(board.countries[x].en for x in waiting)
    if board.team_of(country) != table.window:
        return _refused("window.not_yours", f"Сейчас отвечает другой лагерь — ждём: {names_ru} ({RULE_USE_RU}).",
                        f"It is the other team's turn to answer — waiting for: {names_en} ({RULE_USE_EN}).")
    if country in table.declined:
        return _refused("window.declined", f"{c.ru} уже {c.verb_ru('спасовал', 'спасовали')}; ждём: {names_ru} "
                        f"({RULE_USE_RU}).", f"{c.en} has already passed; waiting for: {names_en} ({RULE_USE_EN}).")
    if country not in waiting:
        return _refused("window.not_asked", f"{c.ru} не спрашивают: у {'них' if c.ru_plural else 'страны'} нет "
                        f"закрытых ответов и статуса, который можно использовать сейчас; решает {names_ru} "
                        f"({RULE_USE_RU}).",
                        f"{c.en} is not asked: no face-down response and no status usable now; {names_en} "
                        f"decides ({RULE_USE_EN}).")
    declined = [*table.declined, country]
    ops = [{"op": "window", "team": table.window, "passes": table.window_passes, "declined": declined}]
    # what it declines now it declines for this event: not offered (nor accepted) again until a new event
    cat = default_catalogue()
    probe = replace(table, window=board.team_of(country))
    now = [s for s in dict.fromkeys(table.cards_of(country).statuses)
           if cat.get(s) is not None and status_usable(board, probe, country, cat[s])]
    now += [r.id for r in cat.by_type("response", country) if response_usable(board, probe, country, r)]
    if now:
        ops.append({"op": "last", "last": {**(table.last or {}), "spent": [
            *spent(table), *([x, trigger_token(board, table, cat[x], country)] for x in now)]}})
    return _done(_r("window.pass", f"{c.ru}: пас.", f"{c.en}: pass."), tuple(ops))
