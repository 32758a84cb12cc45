"""The embedded render cache (tracker.core.textcache): text is kept as it is, everything else is a copy."""
from __future__ import annotations

import os

import pytest
from django.core.cache import caches
from django.utils.safestring import SafeString, mark_safe

from tracker.core.textcache import TextLocMemCache


@pytest.fixture
def store():
    c = TextLocMemCache("test-textcache", {"OPTIONS": {"MAX_ENTRIES": 3, "CULL_FREQUENCY": 3}})
    c.clear()
    yield c
    c.clear()


@pytest.mark.skipif(bool(os.environ.get("DJANGO_CACHE_URL", "").strip()), reason="the render cache is Redis here")
def test_the_default_cache_is_the_text_keeping_one():
    assert isinstance(caches["default"], TextLocMemCache)  # unless DJANGO_CACHE_URL names Redis


def test_text_comes_back_as_the_same_object_without_pickling(store):
    fragment = mark_safe("<p>Ход 1 · Германия</p>")
    skeleton = ("<div>", "bar", "</div>")
    store.set("f", fragment)
    store.set("s", skeleton)
    assert store.get("f") is fragment and isinstance(store.get("f"), SafeString)  # still safe: not escaped again
    assert store.get("s") is skeleton
    assert store._cache[store.make_and_validate_key("f")] is fragment  # kept as text, not as pickled bytes


def test_other_values_are_pickled_so_a_caller_cannot_change_the_cached_one(store):
    value = {"pieces": ["germany army berlin"]}
    store.set("d", value)
    got = store.get("d")
    assert got == value and got is not value
    got["pieces"].append("changed")
    assert store.get("d") == {"pieces": ["germany army berlin"]}
    listed = ["a", "b"]  # a list of text can be changed in place: pickled like any other value
    store.set("l", listed)
    assert store.get("l") == listed and store.get("l") is not listed
    store.set("b", b"raw")
    assert store.get("b") == b"raw"


def test_add_incr_expiry_and_culling_behave_like_django(store):
    assert store.add("t", "text") is True
    assert store.add("t", "other") is False
    assert store.get("t") == "text"
    store.set("n", 1)
    assert store.incr("n", 2) == 3 and store.get("n") == 3
    with pytest.raises(ValueError):
        store.incr("missing")
    store.set("gone", "soon", timeout=-1)
    assert store.get("gone", "default") == "default"
    for i in range(5):  # at most 3 entries: the oldest are culled
        store.set(f"k{i}", f"v{i}")
    assert len(store._cache) <= 3 and store.get("k4") == "v4"


@pytest.mark.skipif(bool(os.environ.get("DJANGO_CACHE_URL", "").strip()), reason="the render cache is Redis here")
def test_fragments_go_to_the_render_cache_under_their_own_alias():
    """``{% cache %}`` asks for "template_fragments" first: the same local-memory store as "default"."""
    caches["default"].set("shared-check", "Ход")
    assert caches["template_fragments"].get("shared-check") == "Ход"
    caches["default"].delete("shared-check")


def test_only_a_key_too_long_for_memcached_is_checked(store):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        store.set("skeleton:qmg:1:tok:12:ru:abc", "x")  # the app's own keys: no per-character check
        assert store.get("skeleton:qmg:1:tok:12:ru:abc") == "x"
    with pytest.warns(Warning):
        store.set("k" * 300, "x")
