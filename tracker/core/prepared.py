"""Queries that run on every refresh of a game page, and the writes of every move, compiled to SQL once
per database connection.

Django compiles a queryset to SQL each time it is evaluated: for the seat-and-game lookup of every
request that costs ~0.6 ms, twenty times the query itself on SQLite. A ``Prepared`` query is an
ordinary queryset built once with placeholder values; its SQL, the order of its parameters and the
ORM's own way from rows to model instances (converters, ``select_related``) are kept per connection,
so a run only executes the SQL and builds the instances, exactly as the queryset would.

Nothing but SQL text and the ORM's column bookkeeping is kept: never a row, never a value.
"""
from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
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


# ------------------------------------------------------------------------------------------
# Writes: the statements of a move, their SQL written once per database connection
# ------------------------------------------------------------------------------------------

def insert(objs: list, using: str = DEFAULT_DB_ALIAS) -> None:
    """``Model.objects.bulk_create(objs)`` for new rows of one model whose primary key the database assigns:
    one INSERT of every row, the keys read back (``RETURNING``) where the database can. The values are
    prepared by each field as Django prepares them (``pre_save``, ``get_db_prep_save``: ``auto_now_add``
    dates, JSON); only the SQL text is kept. Django compiles the same statement anew on every call, ~0.4 ms
    of a move on the small machines this runs on."""
    if not objs:
        return
    model = type(objs[0])
    connection = connections[using]
    fields = [f for f in model._meta.concrete_fields if f is not model._meta.pk]
    returning = connection.features.can_return_rows_from_bulk_insert
    memo = connection.__dict__.setdefault("_prepared_writes", {})
    key = ("insert", model, len(objs), returning)
    sql = memo.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        sql = memo[key] = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
                           f"VALUES {', '.join([row] * len(objs))}"
                           + (f" RETURNING {quote(model._meta.pk.column)}" if returning else ""))
    params = []
    for obj in objs:
        params += [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = [row[0] for row in cursor.fetchall()] if returning else [None] * len(objs)
    for obj, pk in zip(objs, keys):
        if pk is not None:
            obj.pk = pk
        obj._state.adding = False
        obj._state.db = using


def update(model, where: dict, values: dict, using: str = DEFAULT_DB_ALIAS) -> int:
    """``model.objects.filter(**where).update(**values)`` for plain equality on concrete fields (their names,
    or ``<fk>_id``): the rows changed. Values are prepared by their fields as Django prepares them."""
    connection = connections[using]
    meta = model._meta
    memo = connection.__dict__.setdefault("_prepared_writes", {})
    key = ("update", model, tuple(values), tuple(where))
    entry = memo.get(key)
    if entry is None:
        quote = connection.ops.quote_name
        set_fields = [meta.get_field(name) for name in values]
        where_fields = [meta.get_field(name) for name in where]  # a name or a foreign key's ``<name>_id``
        sql = (f"UPDATE {quote(meta.db_table)} SET {', '.join(f'{quote(f.column)} = %s' for f in set_fields)} "
               f"WHERE {' AND '.join(f'{quote(f.column)} = %s' for f in where_fields)}")
        entry = memo[key] = (sql, set_fields, where_fields)
    sql, set_fields, where_fields = entry
    params = [f.get_db_prep_save(v, connection) for f, v in zip(set_fields, values.values())]
    params += [f.get_db_prep_value(v, connection, prepared=False) for f, v in zip(where_fields, where.values())]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def save(obj, fields, using: str = DEFAULT_DB_ALIAS) -> None:
    """``obj.save(update_fields=fields)`` of a row that exists, without the save signals (the project has no
    receiver): ``auto_now`` fields among ``fields`` are stamped as ``save`` stamps them; a row that is gone
    raises ``DatabaseError`` as ``save`` does."""
    meta = type(obj)._meta
    values = {name: meta.get_field(name).pre_save(obj, False) for name in fields}  # auto_now: now
    if not update(type(obj), {meta.pk.attname: obj.pk}, values, using):
        raise DatabaseError("Save with update_fields did not affect any rows.")
