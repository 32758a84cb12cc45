"""tracker/ uses documented APIs only: no private module, attribute or name of Django or of any library, and
none of the internals a hand-made replacement of a framework part would need. Every ``.py`` file under
tracker/ is parsed; there is no list of exceptions."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TRACKER = ROOT / "tracker"

# internals of Django's ORM, template engine, CSRF middleware, cache backends and request handlers
FORBIDDEN = {
    "get_compiler", "klass_info", "get_related_populators", "_state", "_cache", "_lock", "_known_related_objects",
    "TranslateNode", "URLNode", "make_context", "bind_template", "get_nodes_by_type", "nodelist",
    "CSRF_ALLOWED_CHARS", "CSRF_SECRET_LENGTH", "BaseHandler", "as_sql", "get_converters", "apply_converters",
    "set_cached_value", "is_cached", "related_populators", "compiler",
}
# classes whose subclass would replace their internals
NOT_SUBCLASSED = {"LocMemCache", "ASGIHandler", "WSGIHandler", "BaseHandler", "BaseCache", "SessionBase"}


def _files():
    return sorted(p for p in TRACKER.rglob("*.py") if "migrations" not in p.parts or p.name != "__init__.py")


def _own_names(tree: ast.Module) -> set[str]:
    """Names the module itself defines or imports at any level (a module's own ``_helper`` is its own)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias) and isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
    return names


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) and name != "_meta"


def problems_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    own = _own_names(tree)
    where = path.relative_to(ROOT)
    out = []
    for node in ast.walk(tree):
        line = f"{where}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if any(_private(part) for part in module.split(".")):
                out.append(f"{line} import from a private module {module}")
            for alias in node.names:
                if (node.level == 0 and _private(alias.name)) or alias.name in FORBIDDEN:
                    out.append(f"{line} imports {alias.name} from {module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(_private(part) for part in alias.name.split(".")):
                    out.append(f"{line} import of a private module {alias.name}")
        elif isinstance(node, ast.Attribute):
            base = node.value
            on_self = isinstance(base, ast.Name) and base.id in ("self", "cls")
            if node.attr in FORBIDDEN and not (on_self and node.attr.startswith("_")):  # (an object's own ``_lock``)
                out.append(f"{line} .{node.attr}")
            elif _private(node.attr) and not on_self:
                out.append(f"{line} private attribute .{node.attr}")
        elif isinstance(node, ast.Name):
            if node.id in FORBIDDEN:
                out.append(f"{line} {node.id}")
            elif _private(node.id) and node.id not in own and node.id != "_":
                out.append(f"{line} private name {node.id}")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) > 1 \
                    and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str) \
                    and (_private(node.args[1].value) or node.args[1].value in FORBIDDEN):
                out.append(f"{line} {name}(…, {node.args[1].value!r})")
        elif isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = base.id if isinstance(base, ast.Name) else base.attr if isinstance(base, ast.Attribute) else ""
                if name in NOT_SUBCLASSED:
                    out.append(f"{line} class {node.name} subclasses {name}")
    return out


def test_tracker_uses_documented_apis_only():
    found = [problem for path in _files() for problem in problems_of(path)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source, expected", [
    ("from django.db.models.query import get_related_populators", "imports get_related_populators"),
    ("from django.core.cache.backends.locmem import LocMemCache\nclass C(LocMemCache): pass", "subclasses LocMemCache"),
    ("def f(game):\n    game._recent_events = 1", "private attribute ._recent_events"),
    ("def f(obj):\n    return obj._state.adding", "._state"),
    ("from django.utils._os import safe_join", "private module django.utils._os"),
    ("def f(r):\n    return getattr(r, '_messages', None)", "getattr(…, '_messages')"),
    ("def f(t):\n    return t.template.nodelist", ".nodelist"),
    ("from django.template.context import make_context", "imports make_context"),
    ("from django.core.handlers.asgi import ASGIHandler\nclass H(ASGIHandler): pass", "subclasses ASGIHandler"),
])
def test_the_check_finds_what_it_forbids(tmp_path, source, expected):
    module = TRACKER / "_probe_for_the_check.py"
    try:
        module.write_text(source, encoding="utf-8")
        found = problems_of(module)
    finally:
        module.unlink()
    assert any(expected in problem for problem in found), found


def test_the_check_allows_a_module_s_own_names_self_and_the_documented_meta():
    source = ("_KEPT = {}\n\ndef _helper(x):\n    return x\n\nclass A:\n    def f(self):\n        self._x = _helper(1)\n"
              "        return self._x, _KEPT, A._meta if False else None\n\ndef g(model):\n"
              "    return model._meta.get_field('x'), model._meta.db_table, model._meta.concrete_fields, __name__\n")
    module = TRACKER / "_probe_for_the_check.py"
    try:
        module.write_text(source, encoding="utf-8")
        assert problems_of(module) == []
    finally:
        module.unlink()
