"""House rules that code review would otherwise have to remember."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_no_django_import_in_gameplay():
    offenders = []
    for path in (ROOT / "gameplay").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"\s*(import django|from django)", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}")
    assert offenders == []


def test_no_remote_assets_in_templates_and_static():
    pattern = re.compile(r"https?://(?!www\.w3\.org)")
    offenders = []
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".html", ".css", ".js", ".svg"} and ".min." not in path.name:
                if pattern.search(path.read_text(encoding="utf-8", errors="replace")):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


# ------------------------------------------------------------------------------------------
# One architecture for the three games
# ------------------------------------------------------------------------------------------

import ast  # noqa: E402

PACKAGES = ("gameplay", "tracker")
GAMES = ("qmg", "generalissimus", "fog_of_war")


def _modules():
    """{module name: parsed tree} for every project module (migrations aside)."""
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            rel = path.relative_to(ROOT).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = (path, ast.parse(path.read_text(encoding="utf-8")))
    return out


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(modules):
    """{module: {(imported module, line)}} for the top-level (module-load) imports."""
    graph = {}
    for name, (path, tree) in modules.items():
        deps = set()
        for node in tree.body:
            if isinstance(node, ast.Import):
                deps.update((a.name, node.lineno) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(name, node, path.name == "__init__.py")
                deps.add((target, node.lineno))
                # "from package import module" imports that module too
                deps.update((f"{target}.{a.name}", node.lineno) for a in node.names if f"{target}.{a.name}" in modules)
        graph[name] = {d for d in deps if d[0] in modules}
    return graph


def test_no_import_inside_a_function_except_optional_ones():
    offenders = []
    for name, (path, tree) in _modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for func in ast.walk(tree):
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(func):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and "# optional" not in lines[node.lineno - 1]:
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_no_import_cycle():
    graph = _imports(_modules())
    cycles, state = [], {}

    def visit(node, stack):
        state[node] = "open"
        for dep, _line in sorted(graph[node]):
            if state.get(dep) == "open":
                cycles.append(stack[stack.index(dep):] + [dep])
            elif dep not in state:
                visit(dep, stack + [dep])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    # a package importing its own submodules in __init__ is not a loop back into it
    cycles = [c for c in cycles if not all(x.startswith(c[0] + ".") or x == c[0] for x in c[1:])]
    assert cycles == []


def test_the_web_layer_imports_nothing_private_from_the_engines():
    offenders = []
    for name, (path, tree) in _modules().items():
        if not name.startswith("tracker"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gameplay"):
                offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names
                              if a.name.startswith("_")]
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and isinstance(node.value, ast.Name) and node.value.id in {"act", "engine", "rules", "gameplay"}:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.id}.{node.attr}")
    assert offenders == []


def test_rules_live_in_gameplay_and_every_game_has_a_stepper():
    assert not list((ROOT / "tracker").rglob("rules.py"))
    assert not list((ROOT / "tracker").rglob("engine.py"))
    for game in GAMES:
        assert (ROOT / "gameplay" / game / "stepper.py").is_file(), game
        assert (ROOT / "tracker" / game / "adapter.py").is_file(), game


def test_the_core_knows_no_game():
    """tracker/core serves every game through the adapters: it imports no game's code."""
    offenders = []
    for name, (path, tree) in _modules().items():
        if not name.startswith("tracker.core"):
            continue
        for node in ast.walk(tree):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.relative_to(ROOT)}:{node.lineno} {m}" for m in mods
                          if any(m.startswith(p) for p in ("gameplay.qmg", "gameplay.generalissimus",
                                                               "gameplay.fog_of_war", "tracker.qmg",
                                                               "tracker.generalissimus", "tracker.fog_of_war"))]
    assert offenders == []


def test_every_game_page_extends_the_one_shell():
    """Every game's page is the one shell around the game's part: ``core/_shell.html`` extended, with the
    shell's history partial where the game shows it."""
    for game in GAMES:
        text = (ROOT / "templates" / game / "_game.html").read_text(encoding="utf-8")
        assert text.startswith('{% extends "core/_shell.html" %}'), game
        assert '{% include "core/_history.html"' in text, game
        assert "hx-trigger=\"every" not in text, f"{game} polls by itself"
        assert 'class="log"' not in text, f"{game} renders its own history"


def test_templates_never_load_the_partials_package():
    """The partial tags are builtins (Django 6, or the package's library added as a builtin before it): a
    template that loaded them by name would fail on the Django where they are built in."""
    root = ROOT / "templates"
    assert not [p for p in root.rglob("*.html") if "{% load" in p.read_text(encoding="utf-8")
                and any("partials" in line for line in p.read_text(encoding="utf-8").splitlines() if "{% load" in line)]


def test_template_comments_close_on_their_line():
    """Django's {# … #} comment ends at the end of its line: one left open is printed on the page as text."""
    root = Path(__file__).resolve().parent.parent / "templates"
    open_ones = []
    for path in root.rglob("*.html"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for start in (i for i in range(len(line)) if line.startswith("{#", i)):
                if "#}" not in line[start:]:
                    open_ones.append(f"{path.relative_to(root)}:{number}")
    assert open_ones == []


# Markup in Python: an element's opening or closing tag, by name (HTML and SVG elements the pages use). A heuristic:
# every string literal of a module (f-strings' literal parts included, docstrings left out, as they describe the
# markup) is searched for "<name" or "</name" followed by a space, "/", ">" or the string's end.
MARKUP_TAGS = (
    "a abbr article aside b body br button caption circle clipPath code col dd defs del details dialog div dl dt "
    "ellipse em fieldset figure footer form g h1 h2 h3 h4 h5 h6 head header hr html i iframe img input ins kbd label "
    "legend li line linearGradient link main mark marker meta nav noscript ol optgroup option output p path pattern "
    "polygon polyline pre progress rect script section select small source span stop strong style sub summary sup "
    "svg symbol table tbody td template text textarea tfoot th thead time title tr tspan u ul use video"
).split()
MARKUP = re.compile(r"</?(?:%s)(?=[\s/>]|$)" % "|".join(MARKUP_TAGS), re.IGNORECASE)


def _docstrings(tree) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def test_no_markup_in_python_strings_outside_template_tags():
    """HTML lives in templates: a module of tracker/ (its template tags aside, each returning one element) holds no
    string with an element's tag in it, and marks nothing safe itself."""
    offenders = []
    for name, (path, tree) in _modules().items():
        if not name.startswith("tracker.") or name.startswith("tracker.templatetags"):
            continue
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                    and MARKUP.search(node.value):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value[:60]!r}")
            elif isinstance(node, (ast.Name, ast.Attribute)) and \
                    (node.id if isinstance(node, ast.Name) else node.attr) in {"mark_safe", "format_html", "SafeString"}:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} {ast.unparse(node)}")
    assert offenders == []


def test_the_markup_heuristic_finds_markup():
    assert MARKUP.search('<svg xmlns="http://www.w3.org/2000/svg"') and MARKUP.search("</g>")
    assert MARKUP.search('<rect class="x" x="') and MARKUP.search("<br>") and MARKUP.search("<text")
    assert not MARKUP.search("g/<int:pk>/ask/") and not MARKUP.search("a < b and c > d")
    assert not MARKUP.search("<id>:<version>") and not MARKUP.search("SELECT <columns> FROM <rows>")
