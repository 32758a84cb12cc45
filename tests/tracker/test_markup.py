"""``tracker.core.markup``: escaping exactly as Django's ``conditional_escape``, and ``<option>`` lists exactly
as the ``format_html_join`` they replaced (the game page's selects, its cards table)."""
from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given, settings, strategies as st

from tracker.core.markup import esc, options
from tracker.qmg.forms import FastSelect

TEXT = st.text(alphabet=st.sampled_from(list("aZя Ё<>&\"'%{}/=")), max_size=10)
VALUE = st.one_of(TEXT, st.integers(-5, 99), TEXT.map(mark_safe))


@settings(max_examples=150, deadline=None, database=None)
@given(value=VALUE)
def test_esc_is_conditional_escape(value):
    assert esc(value) == str(conditional_escape(value))


def test_esc_of_a_lazy_translation_is_its_escaped_text():
    assert esc(gettext_lazy("Deck")) == str(conditional_escape(gettext_lazy("Deck")))


@settings(max_examples=100, deadline=None, database=None)
@given(choices=st.lists(st.tuples(st.one_of(TEXT, st.integers(0, 9)), VALUE), max_size=5), chosen=TEXT)
def test_options_are_what_format_html_join_made(choices, chosen):
    old = format_html_join("", '<option value="{}"{}>{}</option>',
                           ((v, mark_safe(" selected") if str(v) in {chosen} else "", label) for v, label in choices))
    assert options(choices, {chosen}) == old


def test_a_fast_select_marks_the_chosen_space_and_escapes_names():
    widget = FastSelect(choices=[("", "—"), ("germany", "Германия"), ("x\"<y", "<b>злое</b> & имя")])
    html = widget.render("space", "germany", {"id": "id_space"})
    assert html == ('<select name="space" id="id_space"><option value="">—</option>'
                    '<option value="germany" selected>Германия</option>'
                    '<option value="x&quot;&lt;y">&lt;b&gt;злое&lt;/b&gt; &amp; имя</option></select>')
