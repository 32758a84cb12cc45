"""The history's rows built in Python (``tracker.templatetags.logrows``) are, character for character, what
the template loop they replaced rendered, for any text in any field, in both languages."""
from types import SimpleNamespace

from django.template import engines
from django.utils import translation
from hypothesis import HealthCheck, given, settings, strategies as st

from tracker.templatetags import logrows

# the row markup of templates/_log.html before the rows were built in Python
OLD_LOOP = """{% for row in history %}
  <li class="event event-{{ row.event.kind }}{% if row.undone %} is-undone{% endif %}">
    {% if round_label %}<span class="when">{{ round_label }}{{ row.event.round }}</span>{% endif %}
    {% if lang == "en" %}{{ row.text_en }}{% else %}{{ row.text_ru }}{% endif %}
    <span class="who">{% if row.event.by_host %}({% translate "host" %}){% elif row.event.seat %}({{ row.event.seat.player_name }}){% endif %}</span>
    {% if row.undone %}<span class="tag">{% translate "undone" %}</span>{% endif %}
  </li>
{% endfor %}"""
NEW = "{% load logrows %}{% logrows history %}"

TEXT = st.lists(st.sampled_from(list("aZя Ё<>&\"'%{}") + ["%%", "&amp;", "<b>"]), max_size=8).map("".join)
SEAT = st.one_of(st.none(), st.builds(lambda name: SimpleNamespace(player_name=name), TEXT))
ROW = st.builds(
    lambda kind, rnd, host, seat, undone, ru, en: {
        "event": SimpleNamespace(kind=kind, round=rnd, by_host=host, seat=seat),
        "undone": undone, "text_ru": ru, "text_en": en},
    st.sampled_from(["move", "undo", "redo", "create", "x\"<y"]), st.integers(0, 99), st.booleans(), SEAT,
    st.booleans(), TEXT, TEXT)


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(ROW, max_size=4), lang=st.sampled_from(["ru", "en"]),
       label=st.sampled_from([None, "", "R", "Р", "<R>"]))
def test_the_rows_equal_the_old_template_loop(rows, lang, label):
    old = engines["django"].from_string("{% load i18n %}" + OLD_LOOP)
    new = engines["django"].from_string(NEW)
    context = {"history": rows, "lang": lang, "round_label": label}
    with translation.override(lang):
        want = old.render(context)
        assert new.render(context) == want
        assert new.render(context) == want  # from the memo
        if rows:
            assert ("host" if lang == "en" else "ведущий") in want or not any(r["event"].by_host for r in rows)


def test_a_row_kept_for_one_language_is_not_shown_in_the_other():
    row = {"event": SimpleNamespace(kind="move", round=2, by_host=True, seat=None), "undone": True,
           "text_ru": "Германия строит", "text_en": "Germany builds"}
    new = engines["django"].from_string(NEW)
    for lang in ("ru", "en", "ru"):
        with translation.override(lang):
            html = new.render({"history": [row], "lang": lang, "round_label": "R"})
        assert (("Germany builds" in html) == (lang == "en")) and (("Германия строит" in html) == (lang == "ru"))
        assert (">undone<" in html) == (lang == "en") and (">отменено<" in html) == (lang == "ru")
    assert logrows._ROWS  # kept
