"""The response window: using a status or revealing a face-down response (its trigger must have happened,
its cost is paid first, a protection may save a held piece), passing (two passes in a row close the window
and a held removal happens), and the privacy of face-down responses."""
from __future__ import annotations

from dataclasses import dataclass, replace

from gameplay.common import Outcome

from . import program
from .battles import _answerable, _attack_over
from .cards import default_catalogue
from .commands_base import (
    RULE_USE_EN, RULE_USE_RU, _card_cost, _copies_left, _copies_refusal, _done, _other as _other_team, _pay_cost,
    _r, _refused,
)
from .effects import INSTEAD_OF_PLAY
from .legacy import _legacy_pass, _legacy_use_card
from .reasons import Reason
from .steps import _remember_auto, _step_targets, run_pending
from .tablestate import Table, apply_ops
from .triggers import (
    _TRIGGERS, _trigger_happened, _where_words, asked, battle_context, response_usable, spent, status_usable,
    trigger_token, waiting_for,
)


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
