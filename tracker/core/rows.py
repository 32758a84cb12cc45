"""The few reads every page refresh makes, as plain SQL: Django's documented way of running a query the ORM
would otherwise compile anew on each request (``connection.cursor()``), its rows made into model instances by
``Model.from_db`` and each value converted by its field (``from_db_value``: JSON from text).

The queryset behind each read costs ~0.5–1 ms to compile on the machines this runs on, the query itself
~0.03 ms, and six phones refresh after every move (docs/architecture.md, "What is hand-made"). Only
``select`` reads a model's fields whose values need no conversion beyond ``from_db_value``: dates are left
out (deferred: reading one on such an instance would load it from the database).
"""
from __future__ import annotations

from functools import cache

from django.db import connection, models

_DATES = (models.DateField, models.TimeField)


@cache
def columns(model) -> tuple:
    """The concrete fields ``select`` reads: every one but the dates (once per model)."""
    return tuple(f for f in model._meta.concrete_fields if not isinstance(f, _DATES))


def select(model, where: str, order: str = "") -> str:
    """The SQL text of ``SELECT <columns> FROM <table> WHERE <where> [ORDER BY order]``."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(f.column) for f in columns(model))
    sql = f"SELECT {names} FROM {quote(model._meta.db_table)} WHERE {where}"
    return sql + (f" ORDER BY {order}" if order else "")


def _value(field, value):
    if value is None:
        return None
    if isinstance(field, models.BooleanField):
        return bool(value)  # SQLite gives 0 or 1
    if hasattr(field, "from_db_value"):
        return field.from_db_value(value, None, connection)
    return value


def instance(model, values):
    """A model instance from the values of ``columns(model)``, as the ORM would make it."""
    fields = columns(model)
    return model.from_db(connection.alias, [f.attname for f in fields], [_value(f, v) for f, v in zip(fields, values)])


def fetch(model, where: str, params, order: str = "") -> list:
    """The instances of ``model`` whose rows match ``where`` (its own columns, ``%s`` placeholders)."""
    with connection.cursor() as cursor:
        cursor.execute(select(model, where, order), params)
        rows = cursor.fetchall()
    return [instance(model, row) for row in rows]


def table(model) -> str:
    """The model's table name, quoted for the database."""
    return connection.ops.quote_name(model._meta.db_table)


def fetch_with(model, related_name: str, where: str, params, order: str = "", outer: bool = False) -> list:
    """``model.objects.select_related(related_name).filter(…)``: each instance with its foreign-key target,
    read in one query (``where`` and ``order`` name the columns of ``model``'s table; ``outer``: a nullable
    foreign key, None where it is)."""
    field = model._meta.get_field(related_name)
    target = field.related_model
    own, other = columns(model), columns(target)
    quote = connection.ops.quote_name
    mine, joined = table(model), table(target)
    names = ", ".join([f"{mine}.{quote(f.column)}" for f in own] + [f"{joined}.{quote(f.column)}" for f in other])
    sql = (f"SELECT {names} FROM {mine} {'LEFT OUTER' if outer else 'INNER'} JOIN {joined} ON "
           f"{mine}.{quote(field.column)} = {joined}.{quote(target._meta.pk.column)} WHERE {where}"
           + (f" ORDER BY {order}" if order else ""))
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    out, made = [], {}
    for row in rows:
        obj = instance(model, row[:len(own)])
        related = row[len(own):]
        if related[0] is not None and related not in made:  # one instance per target row (a seat's many events)
            made[related] = instance(target, related)
        # the relation's cache, as select_related fills it
        setattr(obj, related_name, made[related] if related[0] is not None else None)
        out.append(obj)
    return out
