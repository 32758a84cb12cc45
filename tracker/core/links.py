"""``reverse`` kept per process: the same name and arguments always give the same address (for one URL
configuration and script prefix, both part of the key). Django's ``reverse`` costs ~35 µs on the machines
this runs on; a game page asks for a dozen addresses (its forms, the shell's links) on every refresh.
"""
from __future__ import annotations

from django.urls import get_script_prefix, get_urlconf, reverse

from .memo import Memo

_KEPT = Memo(20_000)


def where() -> tuple:
    """What an address depends on besides its name and arguments: the script prefix and the URL
    configuration of the running request (each a context-local read; a page asks once)."""
    return get_script_prefix(), get_urlconf()


def link(viewname, args=(), kwargs=None, current_app=None, at: tuple | None = None) -> str:
    """``reverse(viewname, args=args, kwargs=kwargs, current_app=current_app)``, kept by all of them
    (``at``: ``where()``, if the caller has it already)."""
    try:
        key = (*(at or where()), viewname, tuple(args), tuple(sorted(kwargs.items())) if kwargs else (), current_app)
        found = _KEPT.get(key)
    except TypeError:  # an argument that is not hashable: not kept
        return reverse(viewname, args=args, kwargs=kwargs, current_app=current_app)
    if found is None:
        found = _KEPT.keep(key, reverse(viewname, args=args, kwargs=kwargs, current_app=current_app))
    return found
