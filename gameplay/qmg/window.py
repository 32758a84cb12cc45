"""The response window: using a status or revealing a face-down response (its trigger must have happened,
its cost is paid first, a protection may save a held piece), passing (two passes in a row close the window
and a held removal happens), and the privacy of face-down responses."""
from __future__ import annotations

from gameplay.common import Outcome

from . import program
from .battles import _answerable, _attack_over
from .board import ALLIES, AXIS
from .cards import default_catalogue
from .commands_base import (
    CommandError, RULE_USE_EN, RULE_USE_RU, _card_cost, _copies_left, _copies_refusal, _done, _pay_cost, _r,
    _refused,
)
from .effects import INSTEAD_OF_PLAY
from .program import _neighbours
from .legacy import _legacy_pass, _legacy_use_card
from .reasons import Reason
from .state import ARMY, NAVY
from .steps import _remember_auto, _step_targets, run_pending
from .tablestate import Table, apply_ops

def _cmd_pass(board, table, cmd) -> Outcome:
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
    if table.window is not None and table.window != team and _answerable(board, table, table.window):
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
    ops = list(out.changes)
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
    if held is not None:
        for st in steps:
            if st["kind"] == "protect" and any(c["country"] == held["piece"]["country"] and c["space"] == held["piece"]["space"]
                                               and c["kind"] == held["piece"]["kind"]
                                               for c in _step_targets(board, after, st)):
                ops += [{"op": "protect", "piece": dict(held["piece"])}, {"op": "hold", "hold": None},
                        *_attack_over(table)]
                ops += _remember_auto(apply_ops(table, ops), st, {"action": "protect", **held["piece"]})
                steps = []
                break
        if card.timing == "when_your_navy_would_be_removed":
            ops += [{"op": "hold", "hold": None}, *_attack_over(table)]  # saved from this removal only
            steps = []
    if card.type == "response" and steps and all(s["kind"] == "eliminate" for s in steps) \
            and not any(_step_targets(board, after, s) for s in steps):
        return _refused("use.no_trigger", f"«{card.name_ru}»: того, на что отвечает карта, не было — уничтожать "
                        f"нечего (текст карты; {RULE_USE_RU}).", f"“{card.name_en}”: what the card answers has not "
                        f"happened — there is nothing to eliminate (card text; {RULE_USE_EN}).")
    after = apply_ops(table, ops)
    more, more_notes = run_pending(board, after, steps + list(after.pending))
    return _done(out.reason, tuple(ops + more), notes=tuple(notes + more_notes))
