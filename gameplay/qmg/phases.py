"""The turn's phases as commands: playing a card from hand (and its board action or text), ending the play
step, supply, victory points, discard, draw and the next turn, the optional «Перераспределение ресурсов»
(reallocate) and «Подготовка к войне» (prepare) before round 1."""
from __future__ import annotations

from dataclasses import replace

from gameplay.common import Outcome, refused

from . import program
from .battles import _answerable, _battle_ops, _held_note, _is_protected, _place_ops, _protected_refusal
from .board import ALLIES, AXIS, Board
from .cards import default_catalogue
from .commands_base import (
    BATTLE_WAIVERS, CARD_TYPE_NAMES, CommandError, RULE_PLAY_EN, RULE_PLAY_RU, RULE_USE_EN, RULE_USE_RU, _action, _advance,
    _card_title, _check_named, _copies_left, _copies_refusal, _done, _int, _need_phase, _other, _piece_ops, _r,
    _refused, piece_names, pieces_moved, play_condition_refusal,
)
from .effects import card_names
from .inputs import a_an, cards_en, cards_ru, listed, one_of, unknown
from .legacy import _legacy_end_play
from .reasons import KIND_NAMES, Reason
from .rules import apply_action, compute_supply, immediate_vp, victory_step
from .state import Piece
from .steps import _step_targets, run_pending
from .triggers import waiting_for
from .tablestate import BASIC_CARD_ACTION, CARD_TYPES, HAND_SIZE, Table, apply_ops, new_table, turn_context



def _battle_waiver(table, action):
    """The basic card's action, with the status in play of its country that waives the adjacent piece, if any."""
    if not table.options.at_least(5):
        return action
    for sid in table.cards_of(action.country).statuses:
        if BATTLE_WAIVERS.get(sid) == (action.type, action.space):
            card = default_catalogue()[sid]
            return replace(action, waiver=(card.name_ru, card.name_en))
    return action


def _cmd_play_card(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    country = table.active(board)
    card_type = cmd.get("card_type")
    if card_type == "deploy_air":  # Air Marshal's own card: played in the air step, never as the play step's card
        if not table.options.air_marshal:
            return _air_off()
        return _refused("air.deploy_in_air_step", "Карту «Развёртывание авиации» играют в фазе авиации, после розыгрыша "
                        "карты (команда deploy_air); в фазе розыгрыша её можно только сбросить без розыгрыша (Air "
                        "Marshal: порядок хода).", "A Deploy Air Force card is played in the air step, after the play "
                        "step (the deploy_air command); in the play step it can only be discarded unused (Air "
                        "Marshal: turn order).")
    if card_type not in CARD_TYPES:
        raise CommandError(one_of("card_type", card_type, CARD_TYPES) if card_type is not None
                           else f"play_card needs 'card_type' — accepted: {listed(CARD_TYPES)}")
    if card_type == "bombing" and not table.options.air_marshal:
        return _refused("air.off", "Карты «Бомбардировка» есть только в дополнении Air Marshal, а в этой игре его нет.",
                        "Bombing cards belong to the Air Marshal expansion, which this game does not use.")
    if table.played:
        return _refused("play.already", "В этом ходу карта уже сыграна: с руки играют одну карту (правило «Как сыграть карту»).",
                        "A card was already played this turn: one card from hand per turn (rule “Playing a card”).")
    cards = table.cards_of(country)
    if cards.hand <= 0:
        return _refused("play.empty_hand", "На руке нет карт — фаза розыгрыша пропускается, очки не теряются (правило «Карты»).",
                        "The hand is empty — the play step is skipped, nothing is lost (rule “Cards”).")
    ops: list[dict] = []
    notes = []
    named = cmd.get("card_id")
    if named:
        problem = _check_named(board, country, named, card_type)
        if problem:
            return problem
    card_id = named or card_type
    card = default_catalogue().get(named) if named else None
    if card is not None and not cmd.get("_legacy") and _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    if card is not None and not cmd.get("_legacy"):
        problem = play_condition_refusal(board, table, card, country)
        if problem:
            return problem
    if card_type == "status":
        ops.append({"op": "cards", "country": country, "hand": cards.hand - 1,
                    "statuses": list(cards.statuses) + [card_id]})
    elif card_type == "response":
        ops.append({"op": "cards", "country": country, "hand": cards.hand - 1, "responses": cards.responses + 1})
    else:
        ops.append({"op": "cards", "country": country, "hand": cards.hand - 1, "discard": cards.discard + 1})
    action_type = BASIC_CARD_ACTION.get(card_type)
    ru_name, en_name = CARD_TYPE_NAMES[card_type]
    if named and card_type != "response":  # a face-down response stays anonymous
        ru_name, en_name = card_names(named)
    reason = _r("play.ok", f"Сыграна карта «{ru_name}».", f"Card played: {en_name}.")
    if named and card_type in ("event", "economic_warfare"):
        points, lines = immediate_vp(board, table.position, named, country, context=turn_context(table))
        if points:
            ops.append({"op": "vp", "team": board.team_of(country), "n": points, "country": country,
                        "detail_ru": [ln.reason.ru for ln in lines], "detail_en": [ln.reason.en for ln in lines]})
        notes += [ln.reason for ln in lines]
    if action_type:
        if not cmd.get("space"):
            raise CommandError(f"play_card with card_type {action_type} needs 'space' (the space id it builds in or "
                               f"battles)")
        action = _battle_waiver(table, _action(board, {**cmd, "type": action_type, "country": country}))
        verdict, _ = apply_action(board, table.position, action, context=turn_context(table))
        if not verdict.legal and verdict.reason.code == "stacking.own" and action_type in ("build_army", "build_navy") \
                and not cmd.get("_legacy") and table.options.at_least(6):
            return _declared_build(board, table, country, action, verdict, ops, notes)
        if not verdict.legal:
            return refused(verdict.reason)
        if cmd.get("_legacy"):
            ops += _piece_ops(verdict, action)
        elif action_type in ("land_battle", "sea_battle"):
            if verdict.removes and _is_protected(table, verdict.removes[0]):
                return _protected_refusal(board, verdict.removes[0])
            ops += _battle_ops(board, table, verdict, action)  # the attack remembered, held or not
            if not table.options.new_card_rules:  # card rules 2: a held battle forgot the attack
                if any(op["op"] == "hold" for op in ops):
                    ops.append({"op": "attack", "attack": None})
                else:
                    ops += [op for op in _piece_ops(verdict, action) if op["op"] == "attack"]
        else:
            ops += [op for op in _place_ops(board, table, verdict, "build", country) if op["op"] != "window"]
        # the log is everyone's: it says what happened, in the third person; the verdict addressed to
        # the player ("your supplied army…") is a note for the phone that tapped
        moved_ru, moved_en = pieces_moved(board, verdict)
        if any(op["op"] == "hold" for op in ops):  # the removal waits for the defender's answer
            r, e = piece_names(board, verdict.removes)
            moved_ru = f" — под ударом: {r}; удаление ждёт ответа противника"
            moved_en = f" — under attack: {e}; the removal waits for the opponents' answer"
        c = board.countries[country]
        reason = _r("play.ok", f"{c.ru}: сыграна карта «{ru_name}»{moved_ru}.", f"{c.en}: {en_name} card played{moved_en}.")
        held_now = any(op["op"] == "hold" for op in ops)
        notes += [_held_note(board, verdict) if held_now else verdict.reason, *verdict.warnings]
    # the phase stays "play": statuses and responses may still be used, then "end_play";
    # the opponents of the active country answer first
    ops.append(_advance(table, "play", played=card_type))
    held = next((op["hold"] for op in ops if op["op"] == "hold"), None)
    # the opponents of the active country answer first (the defender, when a removal is held)
    ops.append({"op": "window", "team": board.team_of(held["piece"]["country"]) if held
                else _other(board.team_of(country)), "passes": 0})
    if cmd.get("_legacy"):
        return _done(reason, tuple(ops), notes=tuple(notes))
    if card is not None and card_type in ("event", "economic_warfare"):
        ops.append({"op": "gone", "card": card.id})  # discarded before its text takes effect
        ops.append({"op": "used", "card": card.id})  # this turn's card is known: no free steps
        if card_type == "economic_warfare":
            ops.append({"op": "last", "last": {"by": country, "ew": card.id}})
        after = apply_ops(table, ops)
        more, more_notes = run_pending(board, after, program.compile_card(
            board, after.position, card, country, after.last, alternatives=table.options.new_card_rules,
            per_piece=table.options.at_least(4), lazy=table.options.at_least(6)))
        ops += more
        notes += more_notes
    else:  # an unnamed event is entered by hand, each board action checked (``_unnamed_play``)
        ops.append({"op": "pending", "steps": []})
    return _done(reason, tuple(ops), notes=tuple(notes))


DECLARE_RULE = ("правило «Использовать карту «Создайте» без создания»", "rule “Using a Build card without building”")
# the timings a Build card's play can meet without a new piece: "when you build an army (a navy)", and Women
# Conscripts' "when you play a Build Army card"
DECLARE_TIMINGS = {"army": ("when_you_build_army", "when_you_play_build_army"), "navy": ("when_you_build_navy",)}


def declared_build_users(board, table, country: str, kind: str) -> tuple[list[str], bool]:
    """What could use a Build card played on ``country``'s own supplied ``kind`` (card rules 6): its statuses face up
    whose trigger is building that kind (a once-per-turn one not used yet), and whether it holds face-down responses
    while its deck has a response card with such a trigger (the engine never knows which responses are held)."""
    cat = default_catalogue()
    timings = DECLARE_TIMINGS[kind]
    statuses = [sid for sid in dict.fromkeys(table.cards_of(country).statuses)
                if (c := cat.get(sid)) is not None and c.timing in timings
                and not (c.once_per_turn and sid in table.used)]
    responses = table.cards_of(country).responses > 0 and any(
        r.timing in timings and _copies_left(table, r) > 0 for r in cat.by_type("response", country))
    return statuses, responses


def _declared_build(board, table, country, action, verdict, ops, notes) -> Outcome:
    """A Build card played on the country's own supplied piece of that kind (seed 000 «Использовать карту «Создайте»
    без создания», seed 001 «“Строительство” и “появление”»): nothing is placed, the piece counts as just built
    for the conditions of this turn, the card is spent — only when a status or response of the country could use
    that; otherwise (a mis-tap) the stacking refusal, saying why the declaration does not apply."""
    kind = "army" if action.type == "build_army" else "navy"
    piece = Piece(country, kind, action.space)
    c, sp = board.countries[country], board.spaces[action.space]
    kind_ru = KIND_NAMES[kind][0]
    supplied = compute_supply(board, table.position, turn_context(table)).supplied(piece)
    statuses, responses = declared_build_users(board, table, country, kind)
    rule_ru, rule_en = DECLARE_RULE
    if not supplied:
        why_ru = (f" Объявить {'эту армию' if kind == 'army' else 'этот флот'} заново "
                  f"{'созданной' if kind == 'army' else 'созданным'} нельзя: без снабжения ({rule_ru}).")
        why_en = f" It cannot be declared newly built either: it is out of supply ({rule_en})."
    elif not statuses and not responses:
        trigger_ru = "вы создаёте армию" if kind == "army" else "вы создаёте флот"
        trigger_en = "you build an army" if kind == "army" else "you build a navy"
        why_ru = (f" Объявить {'эту армию' if kind == 'army' else 'этот флот'} заново "
                  f"{'созданной' if kind == 'army' else 'созданным'} можно, только чтобы применить свой статус или "
                  f"ответ «когда {trigger_ru}», а у страны {c.ru} такого нет ({rule_ru}).")
        why_en = (f" Declaring it newly built is allowed only to use a status or response of yours “when "
                  f"{trigger_en}”, and {c.en} has none ({rule_en}).")
    else:
        why_ru = why_en = ""
    if why_ru:
        r = verdict.reason
        return refused(Reason(r.code, r.ru + why_ru, r.en + why_en, r.rule))
    cat = default_catalogue()
    names_ru = ", ".join(f"«{cat[x].name_ru}»" for x in statuses)
    names_en = ", ".join(f"“{cat[x].name_en}”" for x in statuses)
    if responses:
        names_ru += (", " if names_ru else "") + "закрытый ответ с таким условием"
        names_en += (", " if names_en else "") + "a face-down response with that condition"
    ops = list(ops) + [{"op": "last", "last": {**(table.last or {}), "by": country,
                                               "placed": {**piece.to_dict(), "how": "build", "declared": True}}},
                       _advance(table, "play", played=action.type),
                       {"op": "window", "team": _other(board.team_of(country)), "passes": 0},
                       {"op": "pending", "steps": []}]
    declared_ru = "объявлена заново созданной" if kind == "army" else "объявлен заново созданным"
    reason = _r("play.build_declared", f"{c.ru}: сыграна карта «{CARD_TYPE_NAMES[action.type][0]}» — {kind_ru} в секторе "
                f"«{sp.ru}» {declared_ru}, новая фишка не ставится ({rule_ru}).",
                f"{c.en}: {CARD_TYPE_NAMES[action.type][1]} card played — the {kind} in {sp.en} is declared newly "
                f"built; no new piece is placed ({rule_en}).")
    note = _r("play.build_declared_for", f"Это условие «когда вы создаёте» теперь выполнено для: {names_ru}.",
              f"The condition “when you build” now holds for: {names_en}.")
    return _done(reason, tuple(ops), notes=tuple(notes) + (note,))


def _air_off() -> Outcome:
    return _refused("air.off", "Карты «Развёртывание авиации» есть только в дополнении Air Marshal, а в этой игре его "
                    "нет.", "Deploy Air Force cards belong to the Air Marshal expansion, which this game does not use.")


def _cmd_supply(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "supply")
    if problem:
        return problem
    country = table.active(board)
    supply = compute_supply(board, table.position, turn_context(table))
    gone = supply.unsupplied_of(country)
    ops = [{"op": "remove", **p.to_dict()} for p in gone]
    ops.append(_advance(table, "victory"))
    names_ru, names_en = piece_names(board, gone)
    if gone:
        reason = _r("supply.removed", f"Убраны фишки без снабжения: {names_ru}.", f"Unsupplied pieces removed: {names_en}.")
    else:
        reason = _r("supply.none", "Все фишки снабжаются — убирать нечего.", "Every piece is supplied — nothing to remove.")
    return _done(reason, tuple(ops))


def _cmd_score(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "victory")
    if problem:
        return problem
    country = table.active(board)
    result = victory_step(board, table.position, country, context=turn_context(table))
    team = board.team_of(country)
    ops = []
    if result.points:
        ops.append({"op": "vp", "team": team, "n": result.points, "country": country,
                    "detail_ru": result.detail("ru"), "detail_en": result.detail("en")})
    ops.append(_advance(table, "discard"))
    if result.skipped:
        return _done(result.skip_reason, tuple(ops))
    c = board.countries[country]
    return _done(_r("victory.scored", f"{c.ru}: {result.points} ПО — " + ", ".join(result.detail("ru")),
                    f"{c.en}: {result.points} VP — " + ", ".join(result.detail("en"))), tuple(ops))


def _cmd_discard(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "discard")
    if problem:
        return problem
    country = table.active(board)
    k = table.cards_of(country)
    n = _int(cmd.get("n", 0), 0, 99)
    if n > k.hand:
        return _refused("discard.too_many", f"На руке только {cards_ru(k.hand)} (правило «Фазы хода»: сброс с руки).",
                        f"Only {cards_en(k.hand)} in hand (rule “Turn phases”: discard from hand).")
    ops = []
    if n:
        ops.append({"op": "cards", "country": country, "hand": k.hand - n, "discard": k.discard + n})
    ops.append(_advance(table, "draw"))
    return _done(_r("discard.ok", f"Сброшено с руки: {n}.", f"Discarded from hand: {n}."), tuple(ops))


def _cmd_draw(board, table, cmd) -> Outcome:
    problem = _need_phase(board, table, cmd, "draw")
    if problem:
        return problem
    country = table.active(board)
    k = table.cards_of(country)
    n = draw_count(table, country)
    ops = []
    if n:
        ops.append({"op": "cards", "country": country, "hand": k.hand + n, "deck": k.deck - n})
    ops += _next_turn(board, table)
    ru = f"Взято карт: {n}."
    en = f"Cards drawn: {n}."
    if k.deck < HAND_SIZE - k.hand:
        ru += " Колода закончилась."
        en += " The deck has run out."
    return _done(_r("draw.ok", ru, en), tuple(ops))


def draw_count(table: Table, country: str) -> int:
    """Cards ``country`` takes in its draw step: up to a hand of 7, never more than its deck holds."""
    k = table.cards_of(country)
    return max(0, min(HAND_SIZE - k.hand, k.deck))


def _next_turn(board, table) -> list[dict]:
    if table.turn + 1 < len(board.turn_order):
        return [{"op": "step", "round": table.round, "turn": table.turn + 1, "phase": "play", "played": None}]
    # end of the round, after the US turn: the optional early victory, then the 20-round limit
    diff = table.vp_axis - table.vp_allies
    if table.options.early_victory and abs(diff) >= 30:
        return [{"op": "end", "winner": AXIS if diff > 0 else ALLIES, "reason": "early"}]
    if table.round >= board.rounds:
        return [{"op": "end", "winner": AXIS if diff >= 0 else ALLIES, "reason": "rounds"}]  # a tie goes to the Axis
    return [{"op": "step", "round": table.round + 1, "turn": 0, "phase": "play", "played": None}]


def _cmd_reallocate(board, table, cmd) -> Outcome:
    """Optional rule: discard 4 from hand to take a Build or Battle card from the deck (shown to all)."""
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    country = table.active(board)
    wanted = cmd.get("card_type")
    allowed = tuple(BASIC_CARD_ACTION) + (("deploy_air",) if table.options.air_marshal else ())
    if wanted == "deploy_air" and not table.options.air_marshal:
        return _air_off()
    if wanted not in allowed:
        raise CommandError(one_of("reallocate card_type", wanted, allowed))
    k = table.cards_of(country)
    rule_ru, rule_en = "(необязательное правило «Перераспределение ресурсов»)", "(optional rule “Reallocate Resources”)"
    if not table.options.reallocate:
        return _refused("reallocate.off", f"В этой игре правило не используется {rule_ru}.",
                        f"This game does not use the rule {rule_en}.")
    if table.played or "reallocate" in table.used:
        return _refused("reallocate.when", f"Только раз за ход и в начале фазы розыгрыша, до карты {rule_ru}.",
                        f"Only once per turn, at the start of the play step, before a card {rule_en}.")
    if k.hand < 4 or k.deck < 1:
        return _refused("reallocate.cards", f"Нужно 4 карты на руке и карта в колоде {rule_ru}.",
                        f"You need 4 cards in hand and a card in the deck {rule_en}.")
    ru, en = CARD_TYPE_NAMES[wanted]
    return _done(_r("reallocate.ok", f"Сброшено 4 карты с руки; из колоды взята карта «{ru}» (показана всем), "
                    "колода перемешана.", f"4 cards discarded from hand; {a_an(en)} card taken from the deck "
                    "(shown to all), the deck shuffled."),
                 ({"op": "cards", "country": country, "hand": k.hand - 3, "discard": k.discard + 4,
                   "deck": k.deck - 1}, {"op": "used", "card": "reallocate"}))


def _cmd_end_play(board, table, cmd) -> Outcome:
    if cmd.get("_legacy"):
        out = _legacy_end_play(board, table, cmd)
        if out.ok and table.hold:
            out = replace(out, changes=({"op": "remove", **table.hold["piece"]}, {"op": "hold", "hold": None})
                          + out.changes)
        return replace(out, changes=out.changes + ({"op": "pending", "steps": []},)) if out.ok else out
    problem = _need_phase(board, table, cmd, "play")
    if problem:
        return problem
    if table.options.at_least(6):  # card rules 6: only the countries asked keep the step open
        problem = _window_waits(board, table)
        if problem:
            return problem
    opponents = _other(board.team_of(table.active(board)))
    if table.hold or (table.window == opponents and _answerable(board, table, opponents)
                      and not table.options.at_least(6)):
        return _refused("window.open", "Окно ответов ещё открыто, а у противника есть закрытые ответы: фаза "
                        f"заканчивается, только когда оба лагеря спасуют подряд ({RULE_USE_RU}).",
                        "The response window is still open and the opponents hold face-down responses: the step "
                        f"ends only after both teams pass in a row ({RULE_USE_EN}).")
    for st in table.pending:
        if st["kind"] != "manual" and not st.get("optional") and _step_targets(board, table, st):
            ru, en = _card_title(st["card"])
            return _refused("play.steps_open", f"«{ru}»: обязательный шаг ещё не выполнен — "
                            f"{program.describe(board, st, 'ru')} ({RULE_PLAY_RU}).",
                            f"“{en}”: a mandatory step is still open — {program.describe(board, st, 'en')} "
                            f"({RULE_PLAY_EN}).")
        break
    out = _legacy_end_play(board, table, cmd)
    if not out.ok:
        return out
    return replace(out, changes=out.changes + ({"op": "pending", "steps": []},))


def _window_waits(board, table) -> Outcome | None:
    """Card rules 6: the play step ends while a country other than the active one is still asked (it has a face-down
    response or a status usable now and has not passed), or a removal waits; the active country's own turn to answer
    is declined by ending the step."""
    active = table.active(board)
    others = [c for c in waiting_for(board, table) if c != active]
    if table.hold and (others or table.window is not None):
        names_ru = ", ".join(board.countries[c].ru for c in others) or board.countries[active].ru
        names_en = ", ".join(board.countries[c].en for c in others) or board.countries[active].en
        return _refused("window.open", f"Удаление фишки ждёт окна ответов: сначала ответ или пас — {names_ru} "
                        f"({RULE_USE_RU}).", f"A removal waits for the response window: first an answer or a pass — "
                        f"{names_en} ({RULE_USE_EN}).")
    if others:
        names_ru = ", ".join(board.countries[c].ru for c in others)
        names_en = ", ".join(board.countries[c].en for c in others)
        return _refused("window.open", f"Окно ответов открыто: ждём ответа или паса — {names_ru} ({RULE_USE_RU}).",
                        f"The response window is open: waiting for an answer or a pass — {names_en} ({RULE_USE_EN}).")
    return None


def _cmd_prepare(board, table, cmd) -> Outcome:
    """001's optional rule «Подготовка к войне»: before the first round each country may take one status
    or response from its deck and play it (a status face up by id; a response face down, anonymous)."""
    country = cmd.get("country")
    rule_ru, rule_en = "необязательное правило «Подготовка к войне»", "optional rule “Preparing for war”"
    if not table.options.prepare_for_war:
        return _refused("prepare.off", f"В этой игре не используется {rule_ru}.", f"This game does not use the {rule_en}.")
    if not _before_round_1(board, table):
        return _refused("prepare.when", f"Только до начала первого раунда ({rule_ru}).",
                        f"Only before the first round starts ({rule_en}).")
    if f"prepare:{country}" in table.used:
        return _refused("prepare.once", f"Одна карта на страну ({rule_ru}).", f"One card per country ({rule_en}).")
    k = table.cards_of(country)
    if k.deck <= 0:
        return _refused("prepare.deck", f"Колода пуста ({rule_ru}).", f"The deck is empty ({rule_en}).")
    card_type = cmd.get("card_type")
    ops: list[dict] = [{"op": "used", "card": f"prepare:{country}"}]
    if card_type == "response":
        c = board.countries[country]
        if table.options.new_card_rules and not any(_copies_left(table, r) > 0
                                                    for r in default_catalogue().by_type("response", country)):
            return _refused("prepare.no_response", f"В колоде страны {c.ru} нет карт ответа ({rule_ru}).",
                            f"{c.en}'s deck holds no response card ({rule_en}).")
        ops.insert(0, {"op": "cards", "country": country, "deck": k.deck - 1, "responses": k.responses + 1})
        return _done(_r("prepare.response", f"{c.ru} {c.verb_ru('кладёт', 'кладут')} из колоды закрытый ответ ({rule_ru}).",
                        f"{c.en} puts a face-down response from its deck on the table ({rule_en})."), tuple(ops))
    card = default_catalogue().get(cmd.get("card_id") or "")
    if card_type != "status":
        raise CommandError(one_of("prepare card_type", card_type, ("status", "response")))
    if card is None or card.type != "status":
        statuses = [c.id for c in default_catalogue().by_type("status", country)]
        raise CommandError("prepare with card_type status needs the card_id of a status — " + (
            unknown("status card id", cmd.get("card_id"), statuses) if card is None else
            f"{card.id} is {a_an(card.type)} card; accepted: {listed(statuses)}"))
    if card.country != country:
        return _check_named(board, country, card.id, "status")
    if _copies_left(table, card) <= 0:
        return _copies_refusal(card)
    ops.insert(0, {"op": "cards", "country": country, "deck": k.deck - 1, "statuses": list(k.statuses) + [card.id]})
    return _done(_r("prepare.status", f"Из колоды сыгран статус «{card.name_ru}» ({rule_ru}).",
                    f"The status “{card.name_en}” is played from the deck ({rule_en})."), tuple(ops))


def _before_round_1(board, table) -> bool:
    """Has the first round not begun yet (the setup table, nothing played)?"""
    return (table.round, table.turn, table.phase) == (1, 0, "play") and not table.played and \
        table.position.pieces == new_table(board, table.options).position.pieces


def prepare_choices(board: Board, table: Table, country: str) -> list[dict]:
    """The «Подготовка к войне» taps open to ``country`` now (001's optional rule), each with its command:
    one per status card id of its deck that may still be put in play, and one face-down response
    (anonymous: no card_id; the owner's phone keeps which one) when its deck has responses left. Empty
    when the option is off, the country has prepared already, its deck is empty or round 1 has begun.
    Keys: action ("prepare"), country, card_type ("status" or "response"), card_id (None for the response),
    response_ids (the response only: the ids of the country's response cards that may still go face down,
    for its owner's phone), command."""
    if not table.options.prepare_for_war or country not in board.countries or table.finished \
            or f"prepare:{country}" in table.used or table.cards_of(country).deck <= 0 \
            or not _before_round_1(board, table):
        return []
    cat = default_catalogue()
    out = []
    for card in cat.by_type("status", country):
        if _copies_left(table, card) > 0:
            out.append({"action": "prepare", "country": country, "card_type": "status", "card_id": card.id,
                        "command": {"type": "prepare", "country": country, "card_type": "status",
                                    "card_id": card.id}})
    ids = [card.id for card in cat.by_type("response", country) if _copies_left(table, card) > 0]
    if ids:  # never cut off by the statuses' bound
        out = out[:program.MAX_CANDIDATES - 1]
        out.append({"action": "prepare", "country": country, "card_type": "response", "card_id": None,
                    "response_ids": ids, "command": {"type": "prepare", "country": country, "card_type": "response"}})
    return out[:program.MAX_CANDIDATES]
