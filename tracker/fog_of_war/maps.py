"""*The Fog of War*'s map and wheel editor: a club enters its board once, by taps, and shares the file.

Pages (``/fog-of-war/maps/``): the list of saved maps and wheels with "new" and "import"; one editor
per file (add or change a province with its facts, connect two provinces by tapping both on the
drawn map, validation, card values per side; for a wheel, the marks of its six positions); export
as a YAML file. The engine (``gameplay.fog_of_war.mapdata``) checks every file before it is stored;
the editor only turns taps into the file's data.
"""
from __future__ import annotations

import math
import re

from django import forms
from django.contrib import messages
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_GET

from gameplay.fog_of_war import mapdata
from gameplay.fog_of_war.board import KNOWN_PROVINCES
from gameplay.fog_of_war.cards import card_list_ok, card_list_size_ok
from gameplay.fog_of_war.limits import MAX_CARDS, MAX_NAME, MAX_PROVINCE_NUMBER
from tracker.language import lang

from .models import FowMap

MAX_SAVED = 200  # named files kept: far more than a club needs
BLANK = ""  # the form's "not entered" choice
TRI = [("yes", gettext_lazy("yes")), ("no", gettext_lazy("no")), (BLANK, gettext_lazy("unknown"))]


def _lang_name(p: dict) -> str:
    return (p.get("name_en") if lang() == "en" else p.get("name_ru")) or p.get("name_en") or p.get("name_ru") or p["key"]


def key_for(name: str) -> str:
    """A province key from its English name: ``"North Sea"`` -> ``north_sea``."""
    key = re.sub(r"[^a-z0-9]+", "_", name.strip().lower()).strip("_")
    if key and not key[0].isalpha():
        key = "p_" + key
    return key[:40]


class ProvinceForm(forms.Form):
    name_en = forms.CharField(label=gettext_lazy("Name (English)"), max_length=MAX_NAME)
    name_ru = forms.CharField(label=gettext_lazy("Name (Russian)"), max_length=MAX_NAME, required=False)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), widget=forms.RadioSelect,
                             choices=[("land", gettext_lazy("land")), ("sea", gettext_lazy("sea"))])
    start_control = forms.ChoiceField(
        label=gettext_lazy("Side at setup"), widget=forms.RadioSelect, required=False,
        choices=[("axis", gettext_lazy("Axis")), ("allies", gettext_lazy("Allies")), ("neutral", gettext_lazy("neutral")),
                 (BLANK, gettext_lazy("unknown"))])
    supply_point_of = forms.ChoiceField(
        label=gettext_lazy("Supply point"), widget=forms.RadioSelect, required=False,
        choices=[(BLANK, gettext_lazy("none")), ("axis", gettext_lazy("Axis")), ("allies", gettext_lazy("Allies"))])
    neutral_area = forms.ChoiceField(label=gettext_lazy("Neutral region (neutral card area)"), widget=forms.RadioSelect,
                                     choices=TRI, required=False)
    orange = forms.ChoiceField(label=gettext_lazy("Orange region (neutrality token)"), widget=forms.RadioSelect,
                               choices=TRI, required=False)
    is_ussr = forms.ChoiceField(label=gettext_lazy("USSR province"), widget=forms.RadioSelect, choices=TRI,
                                required=False)
    vp = forms.IntegerField(label=gettext_lazy("VP"), min_value=0, max_value=MAX_PROVINCE_NUMBER, required=False,
                            widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    resources = forms.IntegerField(label=gettext_lazy("Resources"), min_value=0, max_value=MAX_PROVINCE_NUMBER,
                                   required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    climate = forms.ChoiceField(
        label=gettext_lazy("Climate icon"), widget=forms.RadioSelect, required=False,
        choices=[("sun", gettext_lazy("sun")), ("snow", gettext_lazy("snow")), ("none", gettext_lazy("no icon")),
                 (BLANK, gettext_lazy("unknown"))])

    def facts(self) -> dict:
        """The file's fields: blanks as None (never invented)."""
        d = self.cleaned_data
        tri = {"yes": True, "no": False, BLANK: None}
        return {"name_en": d["name_en"].strip(), "name_ru": d["name_ru"].strip() or None, "kind": d["kind"],
                "start_control": d["start_control"] or None, "supply_point_of": d["supply_point_of"] or None,
                "neutral_area": tri[d["neutral_area"]], "orange": tri[d["orange"]], "is_ussr": tri[d["is_ussr"]],
                "vp": d["vp"], "resources": d["resources"], "climate": d["climate"] or None}


def province_initial(p: dict) -> dict:
    tri = {True: "yes", False: "no", None: BLANK}
    return {"name_en": p.get("name_en") or "", "name_ru": p.get("name_ru") or "", "kind": p.get("kind"),
            "start_control": p.get("start_control") or BLANK, "supply_point_of": p.get("supply_point_of") or BLANK,
            "neutral_area": tri[p.get("neutral_area")], "orange": tri[p.get("orange")], "is_ussr": tri[p.get("is_ussr")],
            "vp": p.get("vp"), "resources": p.get("resources"), "climate": p.get("climate") or BLANK}


class NewFileForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=MAX_NAME)
    kind = forms.ChoiceField(label=gettext_lazy("What"), widget=forms.RadioSelect, initial=FowMap.MAP,
                             choices=[(FowMap.MAP, gettext_lazy("a map (starts from what the quick rules state)")),
                                      (FowMap.WHEEL, gettext_lazy("an operations wheel (starts from the rules: marks blank)"))])


class ImportForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=MAX_NAME, required=False,
                           help_text=gettext_lazy("Empty: the name in the file."))
    text = forms.CharField(label=gettext_lazy("Paste the file"), required=False,
                           widget=forms.Textarea(attrs={"rows": 4, "maxlength": mapdata.MAX_FILE_CHARS}))
    upload = forms.FileField(label=gettext_lazy("or choose the exported file"), required=False)

    def clean(self):
        d = super().clean()
        text = d.get("text") or ""
        up = d.get("upload")
        if up is not None:
            if up.size > mapdata.MAX_FILE_CHARS * 2:
                raise forms.ValidationError(_("A file has at most %(n)s characters.") % {"n": mapdata.MAX_FILE_CHARS},
                                            code="size")
            try:
                text = up.read(mapdata.MAX_FILE_CHARS * 2 + 1).decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        if not text.strip():
            raise forms.ValidationError(_("Paste the file or choose it."))
        try:
            raw = mapdata.read_text(text)
            data = mapdata.check_wheel(raw) if raw.get("format") == mapdata.WHEEL_FORMAT else mapdata.check_map(raw)
        except mapdata.MapFileError as exc:
            raise forms.ValidationError(exc.en if lang() == "en" else exc.ru, code="size") from None
        d["data"] = data
        d["kind"] = FowMap.WHEEL if data["format"] == mapdata.WHEEL_FORMAT else FowMap.MAP
        d["name"] = (d.get("name") or data.get("name") or "").strip()[:MAX_NAME]
        if not d["name"]:
            raise forms.ValidationError(_("Give the file a name."))
        return d


def load(row: FowMap) -> dict:
    """A stored file's data (stored files were checked when saved; checked again, cheaply, here)."""
    raw = mapdata.read_text(row.text)
    return mapdata.check_wheel(raw) if row.kind == FowMap.WHEEL else mapdata.check_map(raw)


def _store(row: FowMap, data: dict) -> None:
    data = mapdata.check_wheel(data) if row.kind == FowMap.WHEEL else mapdata.check_map(data)
    row.text = mapdata.dump(data)
    row.save()


def _create(kind: str, name: str, data: dict) -> FowMap | None:
    """The new row, or None when the name is taken or the club already keeps ``MAX_SAVED`` files."""
    if FowMap.objects.count() >= MAX_SAVED:
        return None
    data = {**data, "name": name}
    try:
        with transaction.atomic():
            return FowMap.objects.create(kind=kind, name=name, text=mapdata.dump(
                mapdata.check_wheel(data) if kind == FowMap.WHEEL else mapdata.check_map(data)))
    except IntegrityError:
        return None


def index(request):
    """The saved maps and wheels; a new one (from the rules) or an imported file."""
    new, imp = NewFileForm(prefix="new"), ImportForm(prefix="imp")
    status = 200
    if request.method == "POST":
        if request.POST.get("action") == "import":
            imp = ImportForm(request.POST, request.FILES, prefix="imp")
            if imp.is_valid():
                row = _create(imp.cleaned_data["kind"], imp.cleaned_data["name"], imp.cleaned_data["data"])
                if row is not None:
                    messages.success(request, _("“%(name)s” imported.") % {"name": row.name})
                    return redirect("fog_of_war:map", pk=row.pk)
                imp.add_error("name", _("This name is taken (or %(n)s files are kept already).") % {"n": MAX_SAVED})
                status = 409
            else:
                status = 400 if imp.has_error("__all__", code="size") else 422
        else:
            new = NewFileForm(request.POST, prefix="new")
            if new.is_valid():
                kind = new.cleaned_data["kind"]
                start = mapdata.rules_wheel() if kind == FowMap.WHEEL else mapdata.partial_map()
                row = _create(kind, new.cleaned_data["name"].strip(), start)
                if row is not None:
                    return redirect("fog_of_war:map", pk=row.pk)
                new.add_error("name", _("This name is taken (or %(n)s files are kept already).") % {"n": MAX_SAVED})
                status = 409
            else:
                status = 422
    return render(request, "fog_of_war/maps.html", {
        "new": new, "imp": imp, "maps": FowMap.objects.filter(kind=FowMap.MAP),
        "wheels": FowMap.objects.filter(kind=FowMap.WHEEL)}, status=status)


def _fail(request, text: str) -> None:
    messages.error(request, text)


def _province_action(request, data: dict, action: str) -> bool:
    """add_province / edit_province / delete_province / connect: the file's data changed (True) or a message."""
    provinces = data["provinces"]
    by_key = {p["key"]: p for p in provinces}
    if action in ("add_province", "edit_province"):
        form = ProvinceForm(request.POST)
        if not form.is_valid():
            _fail(request, "; ".join(f"{form.fields[f].label if f in form.fields else ''}: {e}"
                                     for f, errs in form.errors.items() for e in errs))
            return False
        facts = form.facts()
        if action == "add_province":
            key = key_for(facts["name_en"])
            if not key or not mapdata.KEY_RE.match(key):
                _fail(request, _("Give the province an English name made of latin letters."))
                return False
            if key in by_key:
                _fail(request, _("The map already has %(name)s.") % {"name": facts["name_en"]})
                return False
            if len(provinces) >= mapdata.MAX_FILE_PROVINCES:
                _fail(request, _("A map holds at most %(n)s provinces.") % {"n": mapdata.MAX_FILE_PROVINCES})
                return False
            provinces.append({"key": key, **{k: v for k, v in facts.items() if v is not None}})
            messages.success(request, _("%(name)s added.") % {"name": facts["name_en"]})
            return True
        p = by_key.get(request.POST.get("key", ""))
        if p is None:
            _fail(request, _("No such province."))
            return False
        for field, value in facts.items():
            if p.get(field) != value:  # a fact changed by the club is no longer the rules' own
                for note in ("from_rules", "readings"):
                    if isinstance(p.get(note), dict):
                        p[note].pop(field, None)
            if value is None:
                p.pop(field, None)
            else:
                p[field] = value
        messages.success(request, _("%(name)s saved.") % {"name": _lang_name(p)})
        return True
    if action == "delete_province":
        key = request.POST.get("key", "")
        if key not in by_key:
            _fail(request, _("No such province."))
            return False
        data["provinces"] = [p for p in provinces if p["key"] != key]
        data["edges"] = [e for e in data["edges"] if key not in e["between"]]
        for p in data["provinces"]:
            if key in (p.get("no_attack_from") or []):
                p["no_attack_from"].remove(key)
        return True
    if action == "connect":  # a tap on two provinces: connects them, or disconnects a connected pair
        a, b = request.POST.get("a", ""), request.POST.get("b", "")
        if a not in by_key or b not in by_key or a == b:
            _fail(request, _("Tap two different provinces."))
            return False
        pair = sorted((a, b))
        before = len(data["edges"])
        data["edges"] = [e for e in data["edges"] if sorted(e["between"]) != pair]
        if len(data["edges"]) == before:
            if before >= mapdata.MAX_EDGES:
                _fail(request, _("A map holds at most %(n)s connections.") % {"n": mapdata.MAX_EDGES})
                return False
            data["edges"].append({"between": pair})
            messages.success(request, _("%(a)s — %(b)s connected.") % {"a": _lang_name(by_key[a]), "b": _lang_name(by_key[b])})
        else:
            messages.info(request, _("%(a)s — %(b)s disconnected.") % {"a": _lang_name(by_key[a]), "b": _lang_name(by_key[b])})
        return True
    if action == "cards":
        cards = {}
        for side in ("axis", "allies", "neutral"):
            text = (request.POST.get(f"cards_{side}") or "").replace(",", " ").strip()
            if not card_list_size_ok(text) or (text and (text.isdigit() or not card_list_ok(text))):
                _fail(request, _("Card values: at most %(n)s codes such as L3 N2 F1 A2 Z a side.") % {"n": MAX_CARDS})
                return False
            if text:
                cards[side] = text.upper().split()
        data.pop("cards", None)
        if cards:
            data["cards"] = cards
        return True
    _fail(request, _("Unknown action."))
    return False


def _wheel_action(request, data: dict) -> bool:
    for p in data["positions"]:
        i = p["position"]
        launch = request.POST.get(f"launch_{i}", BLANK)
        mod = request.POST.get(f"modifier_{i}", BLANK)
        if launch not in ("yes", "no", BLANK) or mod not in (*mapdata.MODIFIERS, BLANK):
            _fail(request, _("Position %(n)s: choose from the marks shown.") % {"n": i})
            return False
        new = ({"yes": True, "no": False, BLANK: None}[launch], mod or None)
        if (p["launchable"], p["modifier"]) != new and isinstance(p.get("from_rules"), dict):
            p["from_rules"].pop("launchable", None)
            p["from_rules"].pop("modifier", None)
        p["launchable"], p["modifier"] = new
    return True


def layout(data: dict) -> dict:
    """The drawn map (SVG): the provinces on a circle in the order entered, the connections as lines.
    Only a drawing aid: a position on it means nothing for the rules. Coordinates are strings (a locale's
    decimal comma would break the SVG)."""
    provinces = data["provinces"]
    n = max(len(provinces), 1)
    width, height = 680, 420
    cx, cy, r = width / 2, height / 2, 180 if n > 12 else 140
    f = lambda v: f"{v:.1f}"  # noqa: E731
    nodes, pos = [], {}
    for i, p in enumerate(provinces):
        angle = 2 * math.pi * i / n - math.pi / 2
        x, y = cx + r * math.cos(angle), cy + r * math.sin(angle)
        pos[p["key"]] = (f(x), f(y))
        anchor = "start" if x > cx + 5 else "end" if x < cx - 5 else "middle"
        lx = x + (12 if anchor == "start" else -12 if anchor == "end" else 0)
        nodes.append({"key": p["key"], "x": f(x), "y": f(y), "rx": f(x - 9), "ry": f(y - 9), "lx": f(lx), "ly": f(y + 4),
                      "anchor": anchor, "name": _lang_name(p), "kind": p["kind"],
                      "side": p.get("start_control") or "unknown"})
    lines = [{"x1": pos[a][0], "y1": pos[a][1], "x2": pos[b][0], "y2": pos[b][1], "a": a, "b": b}
             for a, b in (e["between"] for e in data["edges"])]
    return {"width": width, "height": height, "nodes": nodes, "lines": lines}


def editor(request, pk):
    row = get_object_or_404(FowMap, pk=pk)
    if request.method == "POST":
        action = request.POST.get("action", "")
        with transaction.atomic():
            row = FowMap.objects.select_for_update().get(pk=row.pk)  # two tablets: no lost edit
            data = load(row)
            if action == "rename":
                name = (request.POST.get("name") or "").strip()
                if not name or len(name) > MAX_NAME or FowMap.objects.filter(kind=row.kind, name=name).exclude(pk=row.pk).exists():
                    _fail(request, _("This name is taken or empty."))
                    changed = False
                else:
                    row.name = data["name"] = name
                    changed = True
            elif row.kind == FowMap.WHEEL:
                changed = _wheel_action(request, data)
                if changed:
                    messages.success(request, _("Wheel saved."))
            else:
                changed = _province_action(request, data, action)
            if changed:
                try:
                    _store(row, data)
                except mapdata.MapFileError as exc:
                    _fail(request, exc.en if lang() == "en" else exc.ru)
        anchor = "#province-form" if action in ("add_province", "edit_province") else ""
        return redirect(request.path + anchor)
    data = load(row)
    ctx = {"row": row, "data": data}
    if row.kind == FowMap.WHEEL:
        tri = {True: "yes", False: "no", None: BLANK}
        ctx["positions"] = [{**p, "launch": tri[p["launchable"]], "mod": p["modifier"] or BLANK} for p in data["positions"]]
        return render(request, "fog_of_war/wheel_editor.html", ctx)
    by_key = {p["key"]: p for p in data["provinces"]}
    editing = by_key.get(request.GET.get("p", ""))
    form = ProvinceForm(initial=province_initial(editing) if editing else {"kind": "land"})
    report = mapdata.validate(data)
    names = lambda keys: [_lang_name(by_key[k]) if k in by_key else KNOWN_PROVINCES[k][1 if lang() == "en" else 0]  # noqa: E731
                          for k in keys]
    ctx.update(form=form, editing=editing, report=report, svg=layout(data),
               missing_named=names(report["missing_named"]), isolated=names(report["isolated"]),
               missing_facts=[(_lang_name(by_key[k]), fields) for k, fields in report["missing_facts"].items()],
               provinces=[{"key": p["key"], "name": _lang_name(p), "kind": p["kind"],
                           "side": p.get("start_control") or "", "vp": p.get("vp"), "resources": p.get("resources"),
                           "climate": p.get("climate"), "rules": sorted((p.get("from_rules") or {}).keys())}
                          for p in data["provinces"]],
               cards={s: " ".join(data.get("cards", {}).get(s, [])) for s in ("axis", "allies", "neutral")})
    return render(request, "fog_of_war/map_editor.html", ctx)


@require_GET
def export(request, pk):
    row = get_object_or_404(FowMap, pk=pk)
    slug = key_for(row.name) or "map"
    ext = "fow-wheel" if row.kind == FowMap.WHEEL else "fow-map"
    response = HttpResponse(mapdata.dump(load(row)), content_type="application/x-yaml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}.{ext}.yaml"'
    return response


def choices(kind: str) -> list[tuple[str, str]]:
    """The saved files of a kind, for the new-game form."""
    return [(str(pk), name) for pk, name in FowMap.objects.filter(kind=kind).values_list("pk", "name")[:MAX_SAVED]]


def file_data(kind: str, pk: str) -> dict | None:
    row = FowMap.objects.filter(kind=kind, pk=pk).first() if pk.isdigit() else None
    return load(row) if row is not None else None
