"""The per-viewer blocks built in Python (``tracker.core.blocks``, ``tracker.qmg.blocks``): every value they insert
is escaped as a template escapes it, a page's forms share one masked CSRF token, and a block shows what the
viewer's role allows. (That they give the markup the templates gave was checked against the templates of
stop 27 on the 2,275 pages the view tests render; the view and browser tests check what players see.)"""
import re
from types import SimpleNamespace

import pytest
from django.test import RequestFactory
from django.utils import translation
from hypothesis import given, settings, strategies as st

from tracker.core import blocks
from tracker.core.markup import esc
from tracker.qmg import blocks as qmg_blocks

pytestmark = pytest.mark.django_db
EVIL = '<script>alert("x")</script> & \'q\''


def actor(seat=None, host=False, write=True):
    return SimpleNamespace(seat=seat, is_host=host, can_write=write)


def request():
    return RequestFactory().get("/")


def test_whoami_escapes_the_roles_and_every_line_of_the_answer():
    with translation.override("en"):
        html = blocks.whoami({"you": EVIL, "actor": actor(), "my_turn": True, "can_write": True,
                              "flash": {"level": "error", "text": EVIL, "steps": [EVIL], "notes": [EVIL]}})
    assert "<script>" not in html
    assert html.count(esc(EVIL)) == 4  # the roles, the answer, its step and its note
    assert 'class="your-move"' in html and 'class="flash flash-error"' in html


@pytest.mark.parametrize("ctx, shown", [
    ({"actor": actor(host=True)}, "You: the host"),
    ({"actor": actor(write=False)}, "You: spectator"),
    ({"actor": actor(), "you": "Germany", "waiting_for": EVIL}, "waiting for " + esc(EVIL)),
])
def test_whoami_names_the_viewer_and_whom_the_table_waits_for(ctx, shown):
    with translation.override("en"):
        html = blocks.whoami(ctx)
    assert shown in html and "flash" not in html and "your-move" not in html


def test_the_forms_of_one_page_share_one_masked_token_and_a_page_without_a_request_has_none():
    req = request()
    first, second = blocks.csrf_input({"request": req}), blocks.csrf_input({"request": req})
    assert first == second and re.fullmatch(r'<input type="hidden" name="csrfmiddlewaretoken" value="\w+">', first)
    assert blocks.csrf_input({"request": request()}) != first  # another request: another mask
    assert blocks.csrf_input({}) == ""  # the skeleton is rendered without a request


def test_a_lazy_value_is_called_as_a_template_calls_it():
    assert blocks.val({}, "x") is None
    assert blocks.val({"x": lambda: 3}, "x") == 3
    assert blocks.val({"x": "text"}, "x") == "text"


@given(st.text(max_size=40))
@settings(max_examples=60, deadline=None)
def test_a_hand_note_is_escaped_with_its_line_breaks_kept(text):
    shown = qmg_blocks._lines(text)
    assert "<" not in shown.replace("<br>", "")
    assert shown.count("<br>") == text.replace("\r\n", "\n").count("\n") + text.replace("\r\n", "\n").count("\r")


def test_the_history_offers_undo_and_redo_only_to_a_writer_and_says_why_undo_is_sealed():
    game = SimpleNamespace(pk=7, spectator_token="t", version=3)
    base = {"game": game, "lang": "en", "history": [], "version": 3, "request": request(),
            "undo_url": "/g/7/undo/", "redo_url": "/g/7/redo/", "done_moves": True, "undone_moves": False}
    with translation.override("en"):
        reader = blocks.history({**base, "can_write": False})
        writer = blocks.history({**base, "can_write": True, "undo_sealed": EVIL})
    assert "undo-redo" not in reader and 'class="log"' in reader
    assert writer.count('name="csrfmiddlewaretoken"') == 2 and writer.count('name="version" value="3"') == 2
    undo, redo = re.findall(r"<button[^>]*>(?:Undo|Redo)</button>", writer)
    assert "disabled" in undo and 'aria-describedby="undo-sealed"' in undo  # sealed: the move showed a hidden card
    assert "disabled" in redo  # nothing undone
    assert esc(EVIL) in writer and "<script>" not in writer


def test_the_notes_block_is_only_a_seats():
    assert qmg_blocks.notes({"actor": actor(write=False)}) == ""
    assert qmg_blocks.host_links({"actor": actor()}) == ""


# the QMG partial as it was written in templates before tracker.core.blocks.shell: core/_shell.html around
# the two QMG blocks (G and The Fog of War still extend that template; this keeps the two shells alike)
SHELL_TEMPLATE = ('{% extends "core/_shell.html" %}{% load blocks %}{% block section_class %}team-{{ active_team }}'
                  '{% endblock %}{% block status %}{% qmg_block "status" %}{% endblock %}'
                  '{% block table %}{% qmg_block "table" %}{% endblock %}')


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("who", ["skeleton", "spectator", "germany", "host"])
def test_the_shell_in_python_is_the_template_shell(lang, who):
    from django.template import engines
    from django.template.context import make_context

    from gameplay.qmg.seating import DEFAULT_SEATING
    from tracker.core import log, responses, statecache
    from tracker.core.registry import adapter_of
    from tracker.qmg import page
    from tracker.qmg.views import create_game

    game = create_game("Shell <&>", list(zip(["a", "b", "c", "d", "e", "f"], DEFAULT_SEATING[6])), {})
    adapter = adapter_of(game)
    state = statecache.load(game, adapter)
    template = engines["django"].from_string(SHELL_TEMPLATE).template
    with translation.override(lang):
        if who == "skeleton":
            ctx = dict(page.public_context(game, state), skeleton=True)
            assert adapter.skeleton_html(ctx) == template.render(make_context(ctx))
            return
        seat = game.seats.get(number=1) if who == "germany" else None
        actor_ = log.Actor(is_host=who == "host", seat=seat)
        req = request()
        ctx = responses._context(req, game, actor_, adapter, state, flash={"level": "info", "text": "<b>ok</b>"})
        made = make_context(ctx, req)
        with made.bind_template(template):
            expected = template.render(made)
            assert qmg_blocks.page(made) == expected
    assert "&lt;b&gt;ok&lt;/b&gt;" in expected and f'data-version="{game.version}"' in expected


def test_a_masked_token_is_djangos_form_of_the_secret_under_a_fresh_mask():
    from django.middleware.csrf import CSRF_ALLOWED_CHARS, _unmask_cipher_token

    req = request()
    req.META["CSRF_COOKIE"] = secret = "".join(CSRF_ALLOWED_CHARS[(7 * i) % 62] for i in range(32))
    tokens = {blocks.masked_token(req) for _ in range(200)}
    assert len(tokens) == 200 and all(len(t) == 64 and set(t) <= set(CSRF_ALLOWED_CHARS) for t in tokens)
    assert {_unmask_cipher_token(t) for t in tokens} == {secret}
    assert req.META["CSRF_COOKIE_NEEDS_UPDATE"] is True
    masks = "".join(t[:32] for t in tokens)  # every character can be drawn, none favoured much (6,400 draws)
    counts = [masks.count(ch) for ch in CSRF_ALLOWED_CHARS]
    assert min(counts) > 50 and max(counts) < 170
    fresh = request()  # no secret yet: Django's get_token makes one
    assert _unmask_cipher_token(blocks.masked_token(fresh)) == fresh.META["CSRF_COOKIE"]


def test_the_page_s_token_is_accepted_by_the_csrf_check_and_a_changed_one_is_refused():
    from django.test import Client

    from gameplay.qmg.seating import DEFAULT_SEATING
    from tracker.core.models import PrivateNote
    from tracker.qmg.views import create_game

    game = create_game("CSRF", list(zip(["a", "b"], DEFAULT_SEATING[2])), {})
    phone = Client(enforce_csrf_checks=True)
    phone.get(f"/join/{game.seats.get(number=1).token}/")
    phone.get(f"/g/{game.pk}/", HTTP_HX_REQUEST="true")  # the CSRF cookie set: the next page masks its secret
    assert "csrftoken" in phone.cookies
    page = phone.get(f"/g/{game.pk}/", HTTP_HX_REQUEST="true").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    note = {"csrfmiddlewaretoken": token, "country": "germany", "text": "x"}
    bad = token[:-1] + ("a" if token[-1] != "a" else "b")
    assert phone.post(f"/g/{game.pk}/note/", {**note, "csrfmiddlewaretoken": bad}).status_code == 403
    assert not PrivateNote.objects.filter(game=game, text="x").exists()
    assert phone.post(f"/g/{game.pk}/note/", note).status_code == 302  # saved, back to the game
    assert PrivateNote.objects.filter(game=game, country="germany", text="x").exists()
