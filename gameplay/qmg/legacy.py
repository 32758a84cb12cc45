"""The free rules of games stored before the card engine (replayed with ``apply_command(..., legacy=True)``):
a step is any board action the generic rules allow, a status or response is used without its trigger,
a pass never removes a held piece. ``_legacy_step`` is also today's free step: a guided card's manual step
and a card played without its name (``cardsteps``) are entered this way."""
from __future__ import annotations

from gameplay.common import Outcome, refused

from .cards import default_catalogue
from .commands_base import (
    CARD_TYPE_NAMES, CommandError, _action, _advance, _done, _int, _need_phase, _other, _piece_ops, _r, _refused,
    _step_summary, discard_from_deck,
)
from .effects import INSTEAD_OF_PLAY
from .inputs import a_an, listed, one_of, unknown
from .rules import apply_action
from .tablestate import FREE_STEP_TYPES, STEP_TYPES, turn_context


def step_head(cmd) -> tuple[str, str]:
    """A step command's action and country, or CommandError (a malformed command, not an illegal move)."""
    action_type = cmd.get("action")
    if action_type not in STEP_TYPES:
        raise CommandError(one_of("step action", action_type, STEP_TYPES) if action_type is not None
                           else f"a step needs 'action' — accepted: {listed(STEP_TYPES)}")
    country = cmd.get("country")
    if country is None:
        raise CommandError("a step needs a country")
    return action_type, country


def _legacy_step(board, table, cmd) -> Outcome:
    """The old, free step (games stored before the card engine, and a card's guided manual step):
    one board action validated by the generic rules only, or removing one's own piece (any time)."""
    action_type, country = step_head(cmd)
    if action_type != "remove" and (table.phase != "play" or not table.played) and "bolster" not in table.used:
        return _refused("step.no_card", "Эти шаги выполняют по тексту карты, сыгранной или использованной в фазе "
                        "розыгрыша, после того как карта сыграна (правило «Как сыграть карту»).",
                        "These steps follow the text of a card played or used in the play step, after the card "
                        "is played (rule “Playing a card”).")
    if action_type not in FREE_STEP_TYPES:
        return _refused("step.not_free", "Этот шаг делают только по тексту названной карты, когда движок его "
                        "предлагает; здесь вводят лишь действия на поле, сброс из колоды и ПО (правило «Как "
                        "сыграть карту»).", "This step is made only by a named card's text, when the engine offers "
                        "it; here only board actions, discards from a deck and VP are entered (rule “Playing a "
                        "card”).")
    if action_type == "gain_vp":
        n = _int(cmd.get("n"), -10, 20)
        team = board.team_of(country)
        return _done(_r("step.vp", f"Лагерь получает {n} ПО по карте.", f"The team gains {n} VP from the card."),
                     ({"op": "vp", "team": team, "n": n},))
    if action_type == "discard_from_deck":
        target = cmd.get("target_country")
        if target not in board.countries:
            raise CommandError(f"discard_from_deck needs 'target_country' (whose deck) — accepted: "
                               f"{listed(board.turn_order)}")
        return discard_from_deck(board, table, target, _int(cmd.get("n"), 1, 40))
    action = _action(board, {**cmd, "type": action_type})
    verdict, _ = apply_action(board, table.position, action, context=turn_context(table))
    if not verdict.legal:
        return refused(verdict.reason)
    return _done(_step_summary(board, action, verdict), tuple(_piece_ops(verdict, action)),
                 notes=(verdict.reason, *verdict.warnings))


def _legacy_end_play(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    if not table.played and table.cards_of(table.active(board)).hand > 0:
        return _refused("play.must_play", "В фазе розыгрыша нужно сыграть или сбросить одну карту; пропустить можно, "
                        "только если рука пуста (правило «Как сыграть карту»).",
                        "In the play step you must play or discard one card; you may skip only with an empty hand "
                        "(rule “Playing a card”).")
    next_phase = "air" if table.options.air_marshal else "supply"
    return _done(_r("play.end", "Фаза розыгрыша завершена.", "Play step finished."),
                 (_advance(table, next_phase, played=table.played), {"op": "window", "team": None}))


def _legacy_use_card(board, table, cmd) -> Outcome:
    """Use a status (it stays) or reveal a face-down response (it goes to the discard pile)."""
    country = cmd.get("country")
    card_id = cmd.get("card_id")
    cat = default_catalogue()
    card = cat.get(card_id) if card_id else None
    if card is None:
        raise CommandError(unknown("card id", card_id, [x.id for x in cat.by_country(country)
                                                      if x.type in ("status", "response")] or cat.ids)
                           if card_id else "use_card needs 'card_id' (the status or response used)")
    c = board.countries[country]
    if card.type not in ("status", "response"):
        kind_ru, kind_en = CARD_TYPE_NAMES.get(card.type, (card.type, card.type))
        return _refused("use.not_status", f"«{card.name_ru}» — карта типа «{kind_ru}»: её играют с руки в фазе "
                        "розыгрыша, а использовать можно только статус на столе или закрытый ответ (правило "
                        "«Использование карт статусов и ответов»).", f"“{card.name_en}” is {a_an(kind_en)} card: it "
                        "is played from the hand in the play step; only a status on the table or a face-down response "
                        "is used (rule “Using statuses and responses”).")
    if card.country != country:
        return _refused("card.other_deck", f"Карта «{card.name_ru}» не из колоды страны {c.ru}: чужие карты "
                        "использовать нельзя, если в тексте не сказано иное (правило «Карты союзников»).",
                        f"“{card.name_en}” is not {c.en}'s card: you may not use another country's cards unless "
                        "the text says so (rule “Allies' cards”).")
    k = table.cards_of(country)
    ops: list[dict] = []
    if card.type == "status":
        if card_id not in k.statuses:
            return _refused("use.not_in_play", f"Статуса «{card.name_ru}» нет на столе у страны {c.ru}: статус "
                            "сначала разыгрывают в фазе розыгрыша (правило «Статусы»).",
                            f"{c.en} has no “{card.name_en}” status on the table: a status is first played in the "
                            "play step (rule “Statuses”).")
        if card.once_per_turn and card_id in table.used:
            return _refused("use.once_per_turn", f"«{card.name_ru}» используют только один раз за ход (текст карты).",
                            f"“{card.name_en}” may be used only once per turn (card text).")
        instead = card.timing == INSTEAD_OF_PLAY
        if instead:
            if table.active(board) != country or table.phase != "play" or table.played:
                return _refused("use.instead", f"«{card.name_ru}» используют вместо розыгрыша карты с руки — "
                                "только в вашей фазе розыгрыша, пока карта не сыграна (правило «Статусы»).",
                                f"“{card.name_en}” replaces playing a card from hand — only in your own play step, "
                                "before a card is played (rule “Statuses”).")
            ops.append(_advance(table, "play", played="status_instead"))
        reason = _r("use.status", f"{c.ru} {c.verb_ru('использует', 'используют')} статус «{card.name_ru}».", f"{c.en} uses the status “{card.name_en}”.")
    else:
        if k.responses <= 0:
            return _refused("use.no_response", f"У страны {c.ru} нет карт ответа на столе: ответ сначала кладут "
                            "в закрытую в фазе розыгрыша (правило «Ответы»).",
                            f"{c.en} has no face-down response on the table: a response is first played face down "
                            "in the play step (rule “Responses”).")
        ops.append({"op": "cards", "country": country, "responses": k.responses - 1, "discard": k.discard + 1})
        reason = _r("use.response", f"{c.ru} {c.verb_ru('раскрывает', 'раскрывают')} ответ «{card.name_ru}» и "
                    f"{c.verb_ru('сбрасывает', 'сбрасывают')} его.",
                    f"{c.en} reveals the response “{card.name_en}” and discards it.")
    ops.append({"op": "used", "card": card_id})
    if table.window is not None:
        ops.append({"op": "window", "team": _other(board.team_of(country)), "passes": 0})
    return _done(reason, tuple(ops))


def _legacy_pass(board, table, cmd) -> Outcome:
    """The team whose turn it is in the response window uses nothing."""
    team = board.team_of(cmd["country"])
    if table.window is None:
        return _refused("window.closed", "Сейчас никто не ждёт ответа: окно ответов закрыто.",
                        "Nobody is waiting for an answer: the response window is closed.")
    if team != table.window:
        return _refused("window.not_yours", "Сейчас очередь другого лагеря решать, использовать ли статус или ответ "
                        "(правило «Использование карт статусов и ответов»).",
                        "It is the other team's turn to use a status or response or pass (rule “Using statuses "
                        "and responses”).")
    passes = table.window_passes + 1
    if passes >= 2:
        op = {"op": "window", "team": None}
        reason = _r("window.done", "Оба лагеря спасовали подряд — ответы закончены.",
                    "Both teams passed in a row — no more answers.")
    else:
        op = {"op": "window", "team": _other(team), "passes": passes}
        reason = _r("window.pass", "Пас. Очередь другого лагеря.", "Pass. The other team's turn.")
    return _done(reason, (op,))
