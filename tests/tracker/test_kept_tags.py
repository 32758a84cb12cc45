"""Template tags that keep what cannot change (``fasti18n``'s constant ``{% translate %}``, ``{% url %}`` through
``tracker.core.links``): the same output as Django's own tags, in every form of the tag."""
import pytest
from django.template import Context, Engine, TemplateSyntaxError
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from tracker.core import links

TRANSLATE = ('{% translate "Deck" context "short column head" %}|{% translate "Undo" %}|{% translate "100%% sure" %}|'
             '{% translate "50% off" %}|{% translate "a < b" %}|{% translate "Undo" noop %}|'
             '{% translate "Undo" as u %}[{{ u }}]|{% translate msg %}|{% translate "Deck" context ctx %}|'
             '{% translate "Undo"|upper %}')


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_fast_translate_renders_what_django_renders(lang):
    django_t = Engine(libraries={"i18n": "django.templatetags.i18n"}).from_string("{% load i18n %}" + TRANSLATE)
    fast_t = Engine(libraries={"fasti18n": "tracker.templatetags.fasti18n"}).from_string(
        "{% load fasti18n %}" + TRANSLATE)
    for values in ({"msg": "History", "ctx": "short column head"}, {"msg": "Redo", "ctx": "other"}):
        with translation.override(lang):
            for autoescape in (True, False):
                want = django_t.render(Context(values, autoescape=autoescape))
                assert fast_t.render(Context(values, autoescape=autoescape)) == want
                assert fast_t.render(Context(values, autoescape=autoescape)) == want  # kept
    with translation.override("ru"):
        assert fast_t.render(Context({"msg": "", "ctx": ""})).startswith("Кол.|Отменить|")
    with translation.override("en"):
        assert fast_t.render(Context({"msg": "", "ctx": ""})).startswith("Deck|Undo|")


URLS = ("{% url 'game' pk %}|{% url 'rule' 'undo_seen' %}|{% url 'game' pk as here %}[{{ here }}]|"
        "{% url 'no-such-view' as nothing %}[{{ nothing }}]")


def test_kept_url_renders_what_reverse_gives_and_fails_as_django_fails():
    engine = Engine(builtins=["tracker.templatetags.fasturl"])
    t = engine.from_string(URLS)
    for pk in (1, 2, 1):
        want = (f"{reverse('game', args=[pk])}|{reverse('rule', args=['undo_seen'])}|"
                f"[{reverse('game', args=[pk])}]|[]")
        assert t.render(Context({"pk": pk})) == want
    with pytest.raises(NoReverseMatch):
        engine.from_string("{% url 'no-such-view' %}").render(Context({}))
    with pytest.raises(TemplateSyntaxError):
        engine.from_string("{% url %}")
    assert links.link("game", (7,)) == reverse("game", args=[7])
    with pytest.raises(NoReverseMatch):  # an argument that cannot be a key: asked of reverse itself, not kept
        links.link("game", [[7]])


def test_a_kept_address_follows_the_script_prefix():
    from django.urls import set_script_prefix
    try:
        set_script_prefix("/club/")
        assert links.link("game", (3,)) == "/club/g/3/"
    finally:
        set_script_prefix("/")
    assert links.link("game", (3,)) == "/g/3/"


def test_a_page_reads_its_script_prefix_once_however_many_links_it_has(monkeypatch):
    from tracker.templatetags import fasturl

    asked = []
    real = fasturl.where
    monkeypatch.setattr(fasturl, "where", lambda: asked.append(1) or real())
    t = Engine(builtins=["tracker.templatetags.fasturl"]).from_string("{% url 'game' 1 %}{% url 'game' 2 %}"
                                                                     "{% url 'rule' 'undo_seen' %}")
    assert t.render(Context({})) == reverse("game", args=[1]) + reverse("game", args=[2]) + \
        reverse("rule", args=["undo_seen"])
    assert asked == [1]
