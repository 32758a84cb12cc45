"""The card steps as commands: what the first open step offers (``step_choices``, ``pending_view``),
the ``step`` command that accepts only the card's legal choices (dispatching to guided, play_from and
the free step), ``skip``, and when free board actions are allowed."""
from __future__ import annotations

from dataclasses import replace

from gameplay.common import Outcome

from . import program
from .board import Board
from .cards import default_catalogue
from .commands_base import (
    RULE_PLAY_EN, RULE_PLAY_RU, RULE_USE_EN, RULE_USE_RU, STEP_WORDS, _card_title, _done, _int, _last_card, _r,
    _refused,
)
from .airretreat import air_retreat_choices
from .battles import _protected_refusal
from .guided import GUIDED_ACTIONS, _guided_refusal, _rebuild_count, _to_deck, guided_choices
from .legacy import _legacy_step, step_head
from .playfrom import _play_from, play_from_choices
from .program import AIR_RETREAT
from .state import Piece
from .steps import STEP_ACTION, _apply_step, _step_targets, run_pending
from .tablestate import STEP_TYPES, Table

def step_choices(board: Board, table: Table) -> list[dict]:
    """The legal choices of the first open step (what the phone offers), each with the command that
    makes it; a "may" step also offers ``skip``. The steps of an "any order" card's group at the head are
    offered together (card rules 6); a stranded air force's step offers its moves (``airsteps``)."""
    if not table.pending or table.hold:
        return []
    head = table.pending[0]
    if head["kind"] == AIR_RETREAT:
        return air_retreat_choices(board, table, head)
    if head["kind"] == "play_from":
        return play_from_choices(board, table, head)
    if head["kind"] == "manual":
        return guided_choices(board, table, head)
    out = []
    for st in table.pending[:max(1, program.any_order_group(table.pending))]:
        for cand in _step_targets(board, table, st):
            action = cand.get("action") if cand.get("action") in STEP_TYPES else _STEP_ACTION[st["kind"]]
            command = {"type": "step", "country": st["by"], "action": action}
            for key in ("space", "kind", "card_id"):
                if cand.get(key):
                    command[key] = cand[key]
            who = cand.get("target_country") or cand.get("country")
            if who and who != st["by"]:
                command["target_country"] = who
            out.append({**cand, "command": command})
    return out


_STEP_ACTION = STEP_ACTION


def pending_view(board: Board, table: Table, lang: str = "ru") -> list[dict]:
    """The open steps, first first, as the page and ``qmg_play`` show them."""
    out = []
    for i, st in enumerate(table.pending):
        item = {"card": st["card"], "kind": st["kind"], "by": st["by"], "optional": bool(st.get("optional")),
                "left": st.get("left", 1), "text": program.describe_head(board, table.pending[i:], lang) if i == 0
                else program.describe(board, st, lang)}
        if st.get("spaces") is not None:
            item["spaces"] = list(st["spaces"])
        if st.get("note"):
            item["note"] = st["note"]
        if i == 0:
            item["choices"] = [{k: v for k, v in c.items() if k != "command"} for c in step_choices(board, table)]
        out.append(item)
    return out


def _cmd_step(board, table, cmd) -> Outcome:
    """One step of the card being resolved: only the card's legal choices are accepted. Card rules 6: a step the
    engine has just carried out by itself (one legal choice left, a protection that saved the piece under attack)
    written out by hand is accepted as done (``step.automatic``), not refused."""
    out = _card_step(board, table, cmd)
    if out.ok or out.reason.code not in ("step.no_card", "step.not_on_card") or not table.options.at_least(6):
        return out
    entries = list((table.last or {}).get("auto") or ())
    found = next((e for e in entries if _names_auto(e, cmd)), None)
    if found is None:
        return out
    entries.remove(found)
    ru, en = _card_title(found["card"])
    what_ru, what_en = _auto_words(board, found)
    return _done(_r("step.automatic", f"«{ru}»: этот шаг движок уже выполнил сам — {what_ru} (шаг с единственным "
                    f"допустимым выбором выполняется сразу; {RULE_PLAY_RU}).", f"“{en}”: the engine has already "
                    f"carried out this step itself — {what_en} (a step with a single legal choice is carried out at "
                    f"once; {RULE_PLAY_EN})."), ({"op": "last", "last": {**table.last, "auto": entries}},))


def _names_auto(entry: dict, cmd: dict) -> bool:
    """Does the ``step`` command ``cmd`` spell the choice the engine made by itself (``entry``)?"""
    if cmd.get("action") != entry["action"]:
        return False
    for key in ("space", "kind", "card_id"):
        if cmd.get(key) and entry.get(key) and cmd[key] != entry[key]:
            return False
    who = cmd.get("target_country")
    return not who or who == entry.get("country")


def _auto_words(board, entry: dict) -> tuple[str, str]:
    words = STEP_WORDS.get(entry["action"], (entry["action"], entry["action"]))
    where = board.spaces.get(entry.get("space") or "")
    whose = board.countries.get(entry.get("country") or "")
    ru, en = words[0], words[1]
    if where is not None:
        ru += f": «{where.ru}»"
        en += f": {where.en}"
    if whose is not None:
        ru += f" ({whose.ru})"
        en += f" ({whose.en})"
    return ru, en


def _card_step(board, table, cmd) -> Outcome:
    action_type, country = step_head(cmd)
    if cmd.get("_legacy"):
        return _legacy_step(board, table, cmd)
    if action_type == "remove":
        out = _legacy_step(board, table, cmd)
        if out.ok and table.hold and any(op["op"] == "remove" and {k: op[k] for k in ("country", "kind", "space")}
                                         == table.hold["piece"] for op in out.changes):
            out = replace(out, changes=out.changes + ({"op": "hold", "hold": None},))
        manual = next((i for i, st in enumerate(table.pending) if st["kind"] == "manual" and st["by"] == country), None)
        if out.ok and manual is not None:  # The Autobahn: an army taken off may be built again
            out = replace(out, changes=out.changes + tuple(_rebuild_count(board, table, manual, country, cmd)))
        return out
    if table.hold:
        return _refused("window.hold", "Сначала ответы: удаление фишки ждёт, пока оба лагеря не спасуют или не "
                        f"сыграют защиту ({RULE_USE_RU}).",
                        f"Answers first: the removal waits until both teams pass or one protects ({RULE_USE_EN}).")
    ru, en = _card_title(_last_card(table) or table.played)
    if not table.pending and _unnamed_play(table):
        return _legacy_step(board, table, cmd)
    if not table.pending:
        if table.played == "discard_unused":
            return _refused("step.discarded", "Карта сброшена без розыгрыша — её текст не действует "
                            f"({RULE_PLAY_RU}).", f"The card was discarded unused — its text has no effect ({RULE_PLAY_EN}).")
        return _refused("step.no_card", f"У карты «{ru}» больше нет шагов: ничего сверх текста карты сделать нельзя "
                        f"({RULE_PLAY_RU}).", f"“{en}” has no step left: nothing beyond the card's text may be done "
                        f"({RULE_PLAY_EN}).")
    for i, st in enumerate(table.pending):
        if i > 0 and not table.pending[i - 1].get("optional"):
            break
        if st["by"] != country:
            continue
        if st["kind"] == "manual":
            problem = _guided_refusal(board, table, st, country, cmd)
            if problem:
                return problem
            if action_type == "to_deck":
                return _to_deck(board, table, i, country, cmd)
            out = _legacy_step(board, table, cmd)
            if out.ok and action_type == "discard_from_deck" and table.options.new_card_rules \
                    and "discard_from_deck" in GUIDED_ACTIONS.get(st["card"], {}):
                # the card's own deck discard entered by hand: remembered, so its to_deck does not charge it again
                steps = list(table.pending)
                steps[i] = {**st, "paid": int(st.get("paid", 0)) + _int(cmd.get("n"), 1, 40)}
                out = replace(out, changes=out.changes + ({"op": "pending", "steps": steps},))
            elif out.ok:
                out = replace(out, changes=out.changes + tuple(_rebuild_count(board, table, i, country, cmd)))
            return out
        if st["kind"] == "play_from":
            if action_type != "play_from":
                continue
            return _play_from(board, table, i, cmd)
        cands = _step_targets(board, table, st)
        choice = {"action": action_type, "space": cmd.get("space"), "kind": cmd.get("kind"),
                  "card_id": cmd.get("card_id")}
        if st["kind"] in ("build", "recruit"):
            choice["country"] = cmd.get("target_country") or country
        elif st["kind"] in ("eliminate", "protect"):
            choice["country"] = cmd.get("target_country")
        elif st["kind"] == "discard" and st.get("alternative"):  # the target chooses: its discard or its piece
            if action_type == "eliminate":
                found = [c for c in cands if c.get("action") == "eliminate" and c["space"] == cmd.get("space")
                         and c["kind"] == (cmd.get("kind") or c["kind"])
                         and c["country"] == (cmd.get("target_country") or country)]
            else:
                found = [c for c in cands if action_type == "discard_from_deck" and "action" not in c
                         and c["target_country"] == (cmd.get("target_country") or country)]
            if found:
                return _apply_step(board, table, i, found[0])
            continue
        elif st["kind"] in ("discard", "discard_status", "discard_response"):
            choice = {"target_country": cmd.get("target_country"), "card_id": cmd.get("card_id"),
                      "action": _STEP_ACTION[st["kind"]]}
            if action_type != choice["action"] and not (st.get("responses") and action_type == "discard_response"):
                continue
            found = [c for c in cands if c["target_country"] == choice["target_country"]
                     and (c.get("action", choice["action"]) == action_type)
                     and (action_type != "discard_status" or c.get("card_id") == choice["card_id"])]
            if found:
                return _apply_step(board, table, i, found[0])
            continue
        found = [c for c in cands if program.matches(st, choice, c) and c.get("action") == action_type]
        if found:
            return _apply_step(board, table, i, found[0])
    for p in table.protected:
        if p["space"] == cmd.get("space") and action_type in ("land_battle", "sea_battle", "eliminate"):
            return _protected_refusal(board, Piece(p["country"], p["kind"], p["space"]))
    head = table.pending[0]
    c_ru, c_en = _card_title(head["card"])
    return _refused("step.not_on_card", f"Карта «{c_ru}» этого не позволяет. Сейчас её шаг: "
                    f"{program.describe(board, head, 'ru')} ({RULE_PLAY_RU}: выполняется только текст карты).",
                    f"“{c_en}” does not allow that. Its step now: {program.describe(board, head, 'en')} "
                    f"({RULE_PLAY_EN}: only the card's text is carried out).")


def _unnamed_play(table) -> bool:
    """This turn's event (economic warfare, bombing) was played without its name, or a bolster card was
    played: the engine cannot know the text, so its board actions are entered one by one, each checked
    by the rules (the guided manual way; also how games stored before the card engine were played)."""
    if "bolster" in table.used:
        return True
    if table.phase != "play" or table.played not in ("event", "economic_warfare", "bombing"):
        return False
    cat = default_catalogue()
    return not any((c := cat.get(x)) is not None and c.type == table.played for x in table.used)


def free_steps_allowed(table: Table, legacy: bool = False) -> bool:
    """May board actions be entered freely (each checked by the rules)? Only for a card the engine cannot
    read (played without its name, a bolster card) or a card's guided manual step; in a game kept under the
    old rules (``legacy``), after any card played, as those rules allowed."""
    if legacy:
        return table.phase == "play" and bool(table.played) or "bolster" in table.used
    if table.pending:
        return table.pending[0]["kind"] == "manual"
    return _unnamed_play(table)


def _cmd_skip(board, table, cmd) -> Outcome:
    """Close the first open step: a "may" step, a guided manual step, or one with no legal target."""
    country = cmd.get("country")
    if not table.pending:
        return _refused("skip.nothing", f"Открытых шагов карты нет — пропускать нечего ({RULE_PLAY_RU}).",
                        f"No card step is open — there is nothing to skip ({RULE_PLAY_EN}).")
    head = table.pending[0]
    if head["by"] != country:
        c = board.countries[head["by"]]
        return _refused("skip.not_yours", f"Этот шаг выполняет страна {c.ru} ({RULE_PLAY_RU}).",
                        f"This step is {c.en}'s ({RULE_PLAY_EN}).")
    if table.hold:
        return _refused("window.hold", f"Сначала ответы: удаление фишки ждёт окна ответов ({RULE_USE_RU}).",
                        f"Answers first: the removal waits for the response window ({RULE_USE_EN}).")
    ru, en = _card_title(head["card"])
    if head["kind"] == AIR_RETREAT:
        return _refused("air.retreat_must_choose", "Авиация не может остаться без армии и флота: перелетите в "
                        "соседний сектор с ними или уберите её (Air Marshal: отступление).",
                        "The air force cannot stay with no army or navy: move it to an adjacent space with one, or "
                        "remove it (Air Marshal: air retreat).")
    if not (head.get("optional") or head["kind"] == "manual") and _step_targets(board, table, head):
        return _refused("skip.mandatory", f"«{ru}»: этот шаг обязателен, пока есть допустимая цель (текст карты "
                        f"не говорит «можете»; {RULE_PLAY_RU}).", f"“{en}”: this step is mandatory while it has a "
                        f"legal target (the card does not say “may”; {RULE_PLAY_EN}).")
    group = max(1, program.any_order_group(table.pending))  # an "any order" card: the rest of its steps at once
    more, notes = run_pending(board, table, list(table.pending[group:]))
    if group > 1:
        return _done(_r("skip.ok", f"«{ru}»: оставшиеся шаги карты пропущены.", f"“{en}”: the card's remaining steps "
                        "are skipped."), tuple(more), notes=tuple(notes))
    return _done(_r("skip.ok", f"«{ru}»: шаг пропущен.", f"“{en}”: step skipped."), tuple(more), notes=tuple(notes))
