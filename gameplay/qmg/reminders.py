"""Reminders of the rules people forget, for the current moment of the table (shown, never enforced)."""
from __future__ import annotations

from .board import ALLIES, AXIS, Board
from .commands_base import _r
from .reasons import Reason
from .rules import compute_supply, home_occupier, strait_status
from .state import Piece
from .tablestate import Table, turn_context

def reminders(board: Board, table: Table, supply=None) -> list[Reason]:
    if table.finished:
        return []
    out = []
    country = table.active(board)
    c = board.countries[country]
    supply = supply or compute_supply(board, table.position, turn_context(table))
    k = table.cards_of(country)
    if table.phase == "play" and k.hand == 0 and not table.played:
        out.append(_r("reminder.empty_hand", "Рука пуста: пропустите фазу розыгрыша — это ничего не стоит.",
                      "The hand is empty: skip the play step — it costs nothing."))
    if table.phase in ("play", "supply"):
        gone = supply.unsupplied_of(country)
        if gone:
            where_ru = ", ".join(board.spaces[p.space].ru for p in gone)
            where_en = ", ".join(board.spaces[p.space].en for p in gone)
            out.append(_r("reminder.unsupplied", f"Без снабжения ({where_ru}): эти фишки уйдут в фазе снабжения страны {c.ru}.",
                          f"Unsupplied ({where_en}): these pieces leave in {c.en}'s supply step."))
        for p in supply.pieces:
            if p.country == country and supply.pieces[p].code == "supply.navy_condition":
                sp = board.spaces[p.space]
                out.append(_r("reminder.navy", f"У флота в «{sp.ru}» нет армии вашего лагеря на соседней суше.",
                              f"The navy in {sp.en} has no army of its team on adjacent land."))
    if table.phase in ("play", "supply", "victory"):
        occ = home_occupier(board, table.position, country)
        if occ is not None:
            out.append(_r("reminder.home", f"Домашний сектор страны {c.ru} занят противником: фаза победных очков "
                          "пропускается целиком, даже очки статусов. Карты, дающие очки сразу в фазе розыгрыша "
                          "(«Разграбление», «Субмарины»), очки всё равно приносят.",
                          f"{c.en}'s home space is held by the enemy: the victory step is skipped entirely, status "
                          "points included. Cards that score at once in the play step (Plunder, Submarines) still "
                          "score."))
            out.append(_r("reminder.ew_home", "Экономическая война действует на страну и при занятом домашнем "
                          "секторе.", "Economic Warfare hits a country even while its home space is occupied."))
    if table.phase == "play":
        closed = [board.straits[sid] for sid, team in strait_status(board, table.position).items()
                  if team != c.team]
        if closed:
            to_ru, to_en = ("для «Оси» (сейчас её ход)", "the Axis, whose turn it is") if c.team == AXIS else (
                "для Коалиции (сейчас её ход)", "the Allies, whose turn it is")
            out.append(_r("reminder.straits", f"Проливы, закрытые {to_ru}: " + ", ".join(
                f"«{s.ru}» ({' – '.join(board.spaces[x].ru for x in s.seas)})" for s in closed) + ".",
                f"Straits closed to {to_en}: " + ", ".join(
                f"{s.en} ({' – '.join(board.spaces[x].en for x in s.seas)})" for s in closed) + "."))
        for team in (AXIS, ALLIES):
            held = [h for owner, h in board.homes().items() if board.team_of(owner) != team
                    and home_occupier(board, table.position, owner) is not None]
            if len(held) == 1:
                t_ru, t_en = ("«Ось»", "The Axis") if team == AXIS else ("Коалиция", "The Allies")
                out.append(_r("reminder.one_home", f"{t_ru} уже держит один вражеский домашний сектор "
                              f"(«{board.spaces[held[0]].ru}»): второй — и игра сразу окончена.",
                              f"{t_en} already hold one enemy home space ({board.spaces[held[0]].en}): "
                              "a second one ends the game at once."))
        if table.played or table.pending:
            out.append(_r("reminder.discard_first", "Использованная карта уходит в сброс до того, как подействует "
                          "её текст; стоимость карты тоже платится заранее.",
                          "A used card is discarded before its text takes effect; its cost is paid first too."))
    if table.options.air_marshal:
        for p in supply.stranded_air():
            sp = board.spaces[p.space]
            oc = board.countries[p.country]
            out.append(_r("reminder.air_retreat", f"Авиация страны {oc.ru} в «{sp.ru}» осталась без армии и флота: "
                          "она сразу перелетает в соседний сектор с ними или уходит с поля.",
                          f"{oc.en}'s air force in {sp.en} has no army or navy with it: it moves at once to an "
                          "adjacent space with one, or leaves the board."))
        hit = table.attack
        if hit and not hit["defended"] and Piece(hit["country"], "air", hit["space"]) in table.position.pieces:
            out.append(_r("reminder.air_defence", "Атакована фишка, рядом с которой её авиация: защитник может "
                          "применить авиазащиту (убрать авиацию вместо фишки).",
                          "An attacked piece has its air force with it: the defender may use air defence "
                          "(remove the air force instead)."))
        elif hit and hit["defended"]:
            out.append(_r("reminder.air_strike", "Защитник применил авиазащиту: атакующий может ответить авианалётом "
                          "авиацией из соседнего сектора.", "The defender used air defence: the attacker may answer "
                          "with an air strike from an adjacent space."))
        if table.phase == "air":
            out.append(_r("reminder.air_cost", "Фаза авиации: размещение требует карты «Развёртывание авиации», "
                          "перемещение стоит любой карты с руки.", "Air step: deploying needs a Deploy Air Force "
                          "card; moving costs any card from your hand."))
    if k.hand == 0 and table.phase != "draw":
        out.append(_r("reminder.hand_empty_discard", "Рука пуста: сброс «с руки» по карте берётся из колоды.",
                      "The hand is empty: a discard “from the hand” a card asks for comes from the deck."))
    if k.deck == 0:
        out.append(_r("reminder.deck_empty", "Колода пуста: сбросы из колоды теперь идут с руки, а без карт стоят ПО.",
                      "The deck is empty: discards from the deck now come from the hand, and without cards they cost VP."))
    out.append(_r("reminder.remove_own", "Свою фишку можно убрать с поля в любой момент, даже в чужой ход.",
                  "You may remove your own piece at any time, even in another country's turn."))
    return out
