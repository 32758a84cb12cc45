"""Queries that run on every refresh of a game page, compiled to SQL once per database connection.

Django compiles a queryset to SQL each time it is evaluated: for the seat-and-game lookup of every
request that costs ~0.6 ms, twenty times the query itself on SQLite. A ``Prepared`` query is an
ordinary queryset built once with placeholder values; its SQL, the order of its parameters and the
ORM's own way from rows to model instances (converters, ``select_related``) are kept per connection,
so a run only executes the SQL and builds the instances, exactly as the queryset would.

Nothing but SQL text and the ORM's column bookkeeping is kept: never a row, never a value.
"""
from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models.query import get_related_populators


class Prepared:
    """``Prepared(build, name=placeholder, …)``: ``build(**values)`` returns the queryset; each
    placeholder is a value of its parameter's type (as passed to the database) that appears exactly once
    among the compiled query's parameters. ``run(**values)`` returns the model instances."""

    def __init__(self, build, **placeholders):
        self.build = build
        self.placeholders = placeholders

    def _compile(self, alias: str):
        queryset = self.build(**self.placeholders)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        order = []
        for value in params:
            names = [n for n, p in self.placeholders.items() if type(p) is type(value) and p == value]
            if len(names) != 1:
                raise ValueError(f"a parameter of the prepared query is not a placeholder: {value!r}")
            order.append(names[0])
        if sorted(order) != sorted(self.placeholders):
            raise ValueError("each placeholder must appear once in the prepared query")
        select, klass_info = compiler.select, compiler.klass_info
        if compiler.annotation_col_map or queryset._known_related_objects:
            raise ValueError("a prepared query selects model fields only")
        columns = [s[0] for s in select[0:compiler.col_count]]
        if compiler.has_composite_fields(columns):
            raise ValueError("a prepared query selects plain columns only")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        init_list = [f[0].target.attname for f in select[start:end]]
        return (sql, tuple(order), compiler, compiler.get_converters(columns), klass_info["model"], init_list,
                start, end, get_related_populators(klass_info, select, alias))

    def run(self, using: str = DEFAULT_DB_ALIAS, **values) -> list:
        """The instances the queryset ``build(**values)`` would return (``values``: the database's types,
        e.g. an int for a primary key)."""
        connection = connections[using]
        memo = connection.__dict__.setdefault("_prepared_queries", {})  # per connection: per thread
        entry = memo.get(self)
        if entry is None:
            entry = memo[self] = self._compile(using)
        sql, order, compiler, converters, model, init_list, start, end, populators = entry
        with connection.cursor() as cursor:
            cursor.execute(sql, [values[name] for name in order])
            rows = cursor.fetchall()
        if converters:  # as the queryset does (e.g. JSON from text on SQLite)
            rows = compiler.apply_converters(rows, converters)
        out = []
        for row in rows:
            obj = model.from_db(using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            out.append(obj)
        return out
