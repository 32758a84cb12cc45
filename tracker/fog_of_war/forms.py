"""Forms of the Fog of War companion: they parse and bound input; the engine decides what is legal."""
from __future__ import annotations

import copy
import re

from django import forms
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from gameplay.fog_of_war.board import KNOWN_PROVINCES, SIDES
from gameplay.fog_of_war.cards import card_list_ok, card_list_size_ok
from gameplay.fog_of_war.limits import (MAX_CARD_TEXT, MAX_CARDS, MAX_KEY, MAX_MAP_TEXT, MAX_NAME, MAX_NEIGHBOURS,
                                        MAX_PROVINCE_NUMBER, MAX_PROVINCES)
from gameplay.fog_of_war import mapdata
from gameplay.fog_of_war.config import PLACEHOLDER_WHEEL, FowSettings
from tracker.language import lang

from . import house_rules, maps
from .models import FowMap

SETTINGS_IN_FORM_SKIP = ("board_fixture", "card_fixture", "wheel_positions", "supply_rules", "ussr_provinces",
                         "rules_edition")


def setting_field_name(key: str) -> str:
    return f"set_{key}"


CARDS_HELP = _("Either the number of cards (ledger mode: values are typed at reveal) or the cards themselves, "
               "e.g. “L3 L3 L2 N2 F1 A2 Z” (L land, N naval, F fort, A air, Z zero).")
MAP_HELP = _("One province a line, its parts separated by “;”: a short key in latin letters, the name, land or sea, "
             "victory points, resources, sun, snow or none, the neighbours' keys separated by spaces, then any of the "
             "marks listed below. Example: “poland; Poland; land; 2; 2; snow; berlin kiev baltics”.")
# the marks a typed province line may end with, shown as typed text (in a <code> element)
MAP_MARKS = "axis allies ussr orange neutral_area supply_axis supply_allies"


def cards_too_many() -> str:
    return _("At most %(n)s cards, typed in at most %(chars)s characters.") % {"n": MAX_CARDS, "chars": MAX_CARD_TEXT}


def map_too_long() -> str:
    return _("A map is at most %(n)s characters.") % {"n": MAX_MAP_TEXT}


def parse_map(text: str) -> dict:
    """The province lines of the map form -> the engine's map dict. Raises ``forms.ValidationError``.

    Bounded (``gameplay.fog_of_war.limits``) before and while it reads: the text's length, the number of
    provinces, a key's and a name's length, the neighbours of a province, VP and resources."""
    if len(text or "") > MAX_MAP_TEXT:
        raise forms.ValidationError(map_too_long())
    rows = []
    for n, line in enumerate((text or "").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = [p.strip() for p in line.split(";")]
        if len(parts) < 7:
            raise forms.ValidationError(_("Line %(n)s: expected at least 7 fields separated by “;”.") % {"n": n})
        key, name, kind, vp, res, climate, neigh = parts[:7]
        flags = parts[7].split() if len(parts) > 7 else []
        if len(rows) >= MAX_PROVINCES:
            raise forms.ValidationError(_("A map holds at most %(n)s provinces.") % {"n": MAX_PROVINCES})
        if not re.match(r"^[a-z][a-z0-9_]*$", key):
            raise forms.ValidationError(_("Line %(n)s: the key must be lowercase latin letters, digits or _.") % {"n": n})
        if len(key) > MAX_KEY or len(name) > MAX_NAME:
            raise forms.ValidationError(_("Line %(n)s: a key is at most %(key)s characters, a name at most %(name)s.")
                                        % {"n": n, "key": MAX_KEY, "name": MAX_NAME})
        if kind not in ("land", "sea") or climate not in ("sun", "snow", "none"):
            raise forms.ValidationError(_("Line %(n)s: kind must be land or sea, the icon sun, snow or none.") % {"n": n})
        if not (vp.isascii() and vp.isdigit() and res.isascii() and res.isdigit()):
            raise forms.ValidationError(_("Line %(n)s: VP and resources must be whole numbers.") % {"n": n})
        if int(vp) > MAX_PROVINCE_NUMBER or int(res) > MAX_PROVINCE_NUMBER:
            raise forms.ValidationError(_("Line %(n)s: VP and resources are at most %(max)s.")
                                        % {"n": n, "max": MAX_PROVINCE_NUMBER})
        row = {"key": key, "kind": kind, "vp": int(vp), "resources": int(res), "climate": climate,
               "neighbours": neigh.replace(",", " ").split()}
        if len(row["neighbours"]) > MAX_NEIGHBOURS:
            raise forms.ValidationError(_("Line %(n)s: at most %(max)s neighbours.") % {"n": n, "max": MAX_NEIGHBOURS})
        if name:
            row["name_ru"] = row["name_en"] = name
        for f in flags:
            if f in ("axis", "allies"):
                row["start_control"] = f
            elif f == "ussr":
                row["is_ussr"] = True
            elif f in ("orange", "neutral_area"):
                row[f] = True
            elif f in ("supply_axis", "supply_allies"):
                row["supply_point_of"] = f.split("_")[1]
            else:
                raise forms.ValidationError(_("Line %(n)s: unknown flag “%(flag)s”.") % {"n": n, "flag": f})
        rows.append(row)
    if not rows:
        raise forms.ValidationError(_("Enter at least one province."))
    keys = {r["key"] for r in rows}
    links: dict[str, set] = {k: set() for k in keys}
    for r in rows:
        bad = [x for x in r["neighbours"] if x not in keys]
        if bad:
            raise forms.ValidationError(_("Province %(key)s: unknown neighbour %(n)s.") % {"key": r["key"], "n": bad[0]})
        for x in r["neighbours"]:
            links[r["key"]].add(x)
            links[x].add(r["key"])
    crowded = next((k for k, v in links.items() if len(v) > MAX_NEIGHBOURS), None)
    if crowded:
        raise forms.ValidationError(_("Province %(key)s: at most %(max)s neighbours (counting the links back).")
                                    % {"key": crowded, "max": MAX_NEIGHBOURS})
    return {"provinces": rows}


class NewFogGameForm(forms.Form):
    name = forms.CharField(label=_("Game name"), max_length=100, initial=_("Game night"))
    axis_player = forms.CharField(label=_("Axis player"), max_length=60, initial=_("Axis"))
    allies_player = forms.CharField(label=_("Allies player"), max_length=60, initial=pgettext_lazy("fog of war", "Allies"))
    axis_cards = forms.CharField(label=_("Axis battle cards"), initial="20", help_text=CARDS_HELP,
                                 widget=forms.Textarea(attrs={"rows": 2, "maxlength": MAX_CARD_TEXT}))
    allies_cards = forms.CharField(label=_("Allied battle cards"), initial="20", help_text=CARDS_HELP,
                                   widget=forms.Textarea(attrs={"rows": 2, "maxlength": MAX_CARD_TEXT}))
    neutral_cards = forms.CharField(label=_("Neutral cards (15)"), initial="15", help_text=CARDS_HELP,
                                    widget=forms.Textarea(attrs={"rows": 2, "maxlength": MAX_CARD_TEXT}))
    preplace = forms.MultipleChoiceField(
        label=_("Step 1.9: Allied pre-placed defence (up to 3 different Allied or neutral provinces)"),
        required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("One card of the Allied deck goes face down into each chosen province."))
    map_choice = forms.ChoiceField(label=_("Board map"), required=False, initial="rules",
                                   help_text=_("A saved map (enter yours once under “Maps and wheels”), the quick rules' "
                                               "partial map (21 provinces, blanks asked at the table) or none."))
    wheel_choice = forms.ChoiceField(label=_("Operations wheel"), required=False, initial="rules",
                                     help_text=_("A saved wheel applies its marks at launch by itself; with the rules' "
                                                 "wheel each mark is asked at launch."))
    board_map = forms.CharField(label=_("Or type a board map (one province a line)"), required=False, help_text=MAP_HELP,
                                widget=forms.Textarea(attrs={"rows": 4, "maxlength": MAX_MAP_TEXT}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        i = 1 if lang() == "en" else 0
        self.fields["map_choice"].choices = [
            ("rules", _("The quick rules' partial map (21 provinces)")), ("", _("No map (ledger)")),
            *maps.choices(FowMap.MAP)]
        self.fields["wheel_choice"].choices = [
            ("rules", _("The rules' wheel (marks asked at launch)")),
            ("placeholder", _("The former placeholder (1–5 ready, no marks)")), *maps.choices(FowMap.WHEEL)]
        self.fields["preplace"].choices = [(k, v[i]) for k, v in KNOWN_PROVINCES.items() if v[3] in ("allies", "neutral")]
        self.setting_rows = []
        for row in FowSettings.explain():
            key = row["key"]
            if key in SETTINGS_IN_FORM_SKIP:
                continue
            name = setting_field_name(key)
            label, explain = house_rules.name(key), house_rules.help_text(key)
            if row["choices"]:
                f = forms.ChoiceField(label=label, choices=house_rules.choices(key, row["choices"]),
                                      initial=row["default"], help_text=explain)
                if len(row["choices"]) < 2:  # a reading with one value is no choice: sent as it is, not shown
                    f.widget = forms.HiddenInput()
            elif isinstance(row["default"], bool):
                f = forms.BooleanField(label=label, required=False, initial=row["default"], help_text=explain)
            else:
                f = forms.IntegerField(label=label, required=False, min_value=0, max_value=999, help_text=explain)
            self.fields[name] = f
            self.setting_rows.append(name)
        supply = FowSettings().supply_rules
        self.fields["set_seas_pass"] = forms.BooleanField(
            label=house_rules.name("seas_pass"), required=False, initial=supply["seas_pass"],
            help_text=house_rules.help_text("seas_pass"))
        self.fields["set_captured_points"] = forms.BooleanField(
            label=house_rules.name("captured_points_supply_captor"), required=False,
            initial=supply["captured_points_supply_captor"],
            help_text=house_rules.help_text("captured_points_supply_captor"))
        self.setting_rows += ["set_seas_pass", "set_captured_points"]
        ussr = next(r for r in FowSettings.explain() if r["key"] == "ussr_provinces")
        self.fields["set_ussr_provinces"] = forms.MultipleChoiceField(
            label=house_rules.name("ussr_provinces"), required=False, widget=forms.CheckboxSelectMultiple,
            initial=ussr["default"], help_text=house_rules.help_text("ussr_provinces"),
            choices=[(k, v[i]) for k, v in KNOWN_PROVINCES.items() if v[3] == "neutral"])
        self.setting_rows.append("set_ussr_provinces")
        self.edition_note = house_rules.help_text("rules_edition")

    def settings_fields(self):
        return [self[n] for n in self.setting_rows]

    def clean_preplace(self):
        v = self.cleaned_data["preplace"]
        if len(v) > 3:
            raise forms.ValidationError(_("At most 3 provinces (step 1.9)."))
        return v

    def _clean_cards(self, name):
        text = self.cleaned_data[name].strip()
        if not card_list_size_ok(text):
            raise forms.ValidationError(cards_too_many())
        if not card_list_ok(text):
            raise forms.ValidationError(_("Use a number or card codes such as L3 N2 F1 A2 Z."))
        if text.isdigit() and not 0 < int(text) <= MAX_CARDS:
            raise forms.ValidationError(_("Between 1 and 200 cards."))
        return text

    def clean_axis_cards(self):
        return self._clean_cards("axis_cards")

    def clean_allies_cards(self):
        return self._clean_cards("allies_cards")

    def clean_neutral_cards(self):
        return self._clean_cards("neutral_cards")

    def clean_board_map(self):
        text = self.cleaned_data["board_map"]
        return parse_map(text) if text.strip() else None

    def settings(self) -> dict:
        d = self.cleaned_data
        out = {}
        for row in FowSettings.explain():
            key = row["key"]
            name = setting_field_name(key)
            if name in d and d[name] is not None and key != "ussr_provinces":
                out[key] = d[name]
        out["ussr_provinces"] = list(d.get("set_ussr_provinces") or [])
        out["supply_rules"] = {"seas_pass": d["set_seas_pass"], "captured_points_supply_captor": d["set_captured_points"]}
        if d.get("wheel_choice") == "placeholder":
            out["wheel_positions"] = copy.deepcopy(PLACEHOLDER_WHEEL)
        return out

    def map_file(self) -> dict | None:
        """The chosen map file's data (None: no map, or a typed map in ``board_map``)."""
        choice = self.cleaned_data.get("map_choice") or ""
        if self.cleaned_data.get("board_map") or not choice:
            return None
        return mapdata.partial_map() if choice == "rules" else maps.file_data(FowMap.MAP, choice)

    def wheel_file(self) -> dict | None:
        choice = self.cleaned_data.get("wheel_choice") or "rules"
        if choice == "placeholder":
            return None
        return mapdata.rules_wheel() if choice == "rules" else maps.file_data(FowMap.WHEEL, choice)


class MapForm(forms.Form):
    board_map = forms.CharField(label=_("Provinces"), help_text=MAP_HELP,
                                widget=forms.Textarea(attrs={"rows": 8, "maxlength": MAX_MAP_TEXT}))

    def clean_board_map(self):
        return parse_map(self.cleaned_data["board_map"])


SIDE_CHOICES = [(s, s) for s in SIDES]
