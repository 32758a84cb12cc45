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
from .legacy import _legacy_pass, _legacy_use_card
from .reasons import Reason
from .state import ARMY, NAVY
from .steps import _step_targets, run_pending
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
    "start_of_turn": ("начало вашего хода, карта ещё не сыграна", "the start of your turn, before a card is played"),
}
_BATTLE_TIMINGS = {"when_you_battle_land": "land", "when_you_play_land_battle": "land", "when_you_battle_sea": "sea"}


def battle_context(table, card, country) -> dict | None:
    """What a card used "when you battle a land (sea) space" answers: the last battle of that kind that
    ``country`` fought this turn — by its played card or any card that followed from it (card rules 4: a
    response such as «Транспортировка на эсминцах» may still answer the sea battle after «Внезапная атака»'s
    land battle, as the rulebook's example 2 does). None: no such battle (or card rules ≤3, or not such a card)."""
    domain = _BATTLE_TIMINGS.get(card.timing)
    if domain is None or not table.options.at_least(4):
        return None
    last = table.last or {}
    battles = last.get("battles") or ([{"space": last["battled"], "domain": last.get("domain"), "by": last.get("by")}]
                                      if last.get("battled") else [])
    for b in reversed(battles):
        if b.get("by") == country and b.get("domain") == domain:
            return {**last, "battled": b["space"], "domain": domain, "by": country}
    return None


def _trigger_happened(board, table, card, country) -> bool:
    if card.timing in _BATTLE_TIMINGS and table.options.at_least(4):
        return battle_context(table, card, country) is not None
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
    card = default_catalogue().get(cmd.get("card_id") or "")
    if card is None or card.type not in ("status", "response"):
        raise CommandError(f"not a status or response card: {cmd.get('card_id')!r}")
    team = board.team_of(country)
    out = _legacy_use_card(board, table, cmd)
    if not out.ok:
        return out
    if table.window is not None and table.window != team and _answerable(board, table, table.window):
        return _refused("window.not_yours", "Сейчас очередь другого лагеря отвечать: лагеря используют карты по "
                        f"очереди, начиная с противника сыгравшего ({RULE_USE_RU}).",
                        f"It is the other team's turn to answer: teams take turns, the player's opponents first "
                        f"({RULE_USE_EN}).")
    if card.country == country and card.type == "response" and table.cards_of(country).responses > 0 \
            and _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    if card.country == country and card.timing not in (None, "any_time", "always", "victory_phase",
                                                       INSTEAD_OF_PLAY) and not _trigger_happened(board, table, card, country):
        ru, en = _TRIGGERS.get(card.timing, ("условие карты", "the card's condition"))
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
                                 battle_context(table, card, country) or table.last,
                                 alternatives=table.options.new_card_rules, per_piece=table.options.at_least(4))
    notes: list[Reason] = []
    held = table.hold
    if held is not None:
        for st in steps:
            if st["kind"] == "protect" and any(c["country"] == held["piece"]["country"] and c["space"] == held["piece"]["space"]
                                               and c["kind"] == held["piece"]["kind"]
                                               for c in _step_targets(board, after, st)):
                ops += [{"op": "protect", "piece": dict(held["piece"])}, {"op": "hold", "hold": None},
                        *_attack_over(table)]
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
