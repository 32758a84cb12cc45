"""A property: a random game played through the web forms awards, in every victory step, exactly
what ``qmg_check`` computes for the same pieces and statuses face up.

Each turn the active country's phone plays a random card through the play form (a build or battle card on a
random space — refused when illegal, then the card is discarded unused instead —, a scoring status, or a card
discarded unused), then the steps are tapped one by one. Just before the victory step the pieces and statuses
on the table are handed to ``check_position``; the VP the victory step adds must be its figure."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gameplay.qmg import check_position, load_board
from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.rules import Action, check_action
from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.qmg import selectors
from tracker.qmg.views import create_game

from .test_views import as_host, post

pytestmark = pytest.mark.django_db
BOARD = load_board()
SPACES = sorted(BOARD.spaces)
SCORING = {c: [x for x in default_catalogue().by_type("status", c)
               if any(e.kind.startswith("vp_") for e in x.effects)] for c in BOARD.turn_order}
MOVES = st.tuples(st.sampled_from(["build_army", "build_navy", "land_battle", "sea_battle", "status", "discard"]),
                  st.sampled_from(SPACES), st.integers(min_value=0, max_value=9))


def _play(client, game, country, move) -> None:
    kind, space, pick = move
    if kind == "status" and SCORING[country]:
        card = SCORING[country][pick % len(SCORING[country])]
        r = post(client, game, "play_card", card=card.name_ru, card_type="status")
    elif kind in ("build_army", "build_navy", "land_battle", "sea_battle"):
        # mostly a legal target (asked of the rules, as the phone's map would), sometimes the drawn space
        position = selectors.table_of(game).position
        legal = [s for s in SPACES if check_action(BOARD, position, Action(kind, country, s)).legal]
        target = legal[pick % len(legal)] if legal and pick < 8 else space
        r = post(client, game, "play_card", card_type=kind, space=target)
    else:
        r = None
    if r is None or r.status_code != 200:  # refused (illegal target, second copy…): the card goes unused
        assert r is None or r.status_code in (400, 409, 422), r.content.decode()[:300]
        assert post(client, game, "play_card", card_type="discard_unused").status_code == 200
    game.refresh_from_db()
    table = selectors.table_of(game)
    for _ in range(len(table.pending)):  # a card's own steps left: pass over them (they are "may" steps here)
        if post(client, game, "skip", country=country).status_code != 200:
            break


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(MOVES, min_size=6, max_size=14))
def test_every_victory_step_on_the_web_table_equals_qmg_check(client, moves):
    game = create_game("Свойство", list(zip(["Ось", "Союзники"], DEFAULT_SEATING[2])), {"step_by_step": True})
    as_host(client, game)
    for move in moves:
        game.refresh_from_db()
        table = selectors.table_of(game)
        if table.finished:
            break
        country = table.active(BOARD)
        _play(client, game, country, move)
        assert post(client, game, "end_play").status_code == 200
        assert post(client, game, "supply").status_code == 200
        game.refresh_from_db()
        before = selectors.table_of(game)
        statuses = [s for _c, k in before.cards for s in k.statuses]
        check = check_position({"pieces": [p.to_dict() for p in before.position.pieces], "statuses": statuses})
        expected = check["victory_phase"][country]["points"]
        assert post(client, game, "score").status_code == 200
        game.refresh_from_db()
        after = selectors.table_of(game)
        team = BOARD.team_of(country)
        assert after.vp(team) - before.vp(team) == expected, (country, check["victory_phase"][country])
        if after.finished:
            break
        assert post(client, game, "discard", n=0).status_code == 200
        assert post(client, game, "draw").status_code == 200
