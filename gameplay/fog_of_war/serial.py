"""Generic dataclass <-> JSON-compatible dict conversion, driven by type hints."""
from __future__ import annotations

import dataclasses
import types
import typing
from functools import lru_cache


@lru_cache(maxsize=None)
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


def to_dict(obj):
    """Convert a dataclass (or nested containers of them) into plain JSON-compatible data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): to_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_dict(v) for v in obj]
    return obj


def from_dict(tp, data):
    """Build a value of type ``tp`` from data produced by :func:`to_dict`.

    Raises ``ValueError`` on malformed data (wrong shape or unknown fields).
    """
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return from_dict(inner[0], data)
        return data  # plain unions of primitives (e.g. int | str) are kept as-is
    if origin is list:
        if not isinstance(data, list):
            raise ValueError(f"expected a list, got {type(data).__name__}")
        (arg,) = typing.get_args(tp) or (typing.Any,)
        return [from_dict(arg, v) for v in data]
    if origin is dict:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object, got {type(data).__name__}")
        _, arg = typing.get_args(tp) or (str, typing.Any)
        return {k: from_dict(arg, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise ValueError(f"{tp.__name__}: expected an object, got {type(data).__name__}")
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"{tp.__name__}: unknown field(s) {sorted(unknown)}")
        return tp(**{k: from_dict(hints[k], v) for k, v in data.items()})
    return data
