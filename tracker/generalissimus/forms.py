"""Forms of the Generalissimus companion: the new battle (setup + every [DEFAULT] setting) and the
turn's commands. Labels are English msgids; the engine's notes come in RU/EN and are picked by
the active language."""
from __future__ import annotations

import json
from itertools import permutations

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from gameplay.common import text as reason_text
from gameplay.generalissimus import Settings, SettingsError, describe_settings
from gameplay.generalissimus.geometry import SIDES, all_sectors
from gameplay.generalissimus.queries import setup_warnings
from gameplay.generalissimus.settings import DEFAULT_PILE, MAX_DEPTH, MAX_PILE_PER_TYPE, TERRAINS
from gameplay.generalissimus.state import CARD_TYPES, FORMATIONS, MAX_UNITS, ZONES
from tracker.language import lang

MAX_JSON_TEXT = 2_000  # a JSON setting as typed (the longest default, terrain_effects, is some 400)
MAX_UNITS_TEXT = 4_000  # the unit list as typed: MAX_UNITS lines of some 60 characters


def error_text(exc: Exception) -> str:
    """An engine's setup error in the page's language: its Russian text when it has one."""
    ru = getattr(exc, "ru", None)
    return ru if ru and lang() == "ru" else str(exc)


def json_depth_ok(text: str, limit: int) -> bool:
    """At most ``limit`` nested ``[`` / ``{`` outside strings: checked before ``json.loads`` (whose
    decoder recurses). Linear in the text, which the caller has already bounded."""
    depth, in_str, esc = 0, False, False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False
        elif ch in "]}":
            depth -= 1
    return True


KIND_SHORT = {"infantry": "inf", "cavalry": "cav", "artillery": "art"}
FACE = {"south": "N", "north": "S"}
HOME = {"south": "1", "north": "6"}



def card_label(ctype: str) -> str:
    return {"artillery_volley": gettext("Artillery volley"), "musket_volley": gettext("Musket volley"),
            "manoeuvre": gettext("Manoeuvre"), "move": gettext("Move"), "bayonets": gettext("Bayonets!"),
            "retreat": gettext("Retreat"), "form_up": gettext("Form up"), "rally": gettext("Rally (two Form up)")}[ctype]


def terrain_label(t: str) -> str:
    return {"field": gettext("field"), "forest": gettext("forest"), "river": gettext("river"), "hill": gettext("hill"),
            "village": gettext("village")}[t]


def formation_label(f: str) -> str:
    return {"column": gettext("column"), "line": gettext("line"), "square": gettext("square"), "disordered": gettext("disordered")}[f]


def kind_label(k: str) -> str:
    return {"infantry": gettext("infantry"), "cavalry": gettext("cavalry"), "artillery": gettext("artillery")}[k]


def side_label(s: str) -> str:
    return {"south": gettext("South"), "north": gettext("North")}[s]


def facing_label(f: str) -> str:
    return {"N": gettext("north"), "E": gettext("east"), "S": gettext("south"), "W": gettext("west")}.get(f, f)


def zone_label(zone: str, viewer: str | None) -> str:
    """Zones are stored absolutely; each player sees them as own flanks (spec §0.2)."""
    if viewer == "north":
        return {"west": gettext("right flank (west)"), "center": gettext("centre"), "east": gettext("left flank (east)")}[zone]
    if viewer == "south":
        return {"west": gettext("left flank (west)"), "center": gettext("centre"), "east": gettext("right flank (east)")}[zone]
    return {"west": gettext("west"), "center": gettext("centre"), "east": gettext("east")}[zone]


# --- presets --------------------------------------------------------------------------------

def _unit(side, kind, n, sector, formation="column", blocks=None):
    d = {"id": f"{side[0].upper()}-{KIND_SHORT[kind]}-{n}", "owner": side, "kind": kind, "sector": sector,
         "facing": FACE[side], "formation": formation}
    if kind != "artillery":
        d["blocks"] = blocks or (3 if kind == "infantry" else 2)
    return d


def preset_units(name: str) -> list[dict]:
    units = []
    if name == "standard":
        # spec §1.3: 3 infantry, 2 cavalry, 1 battery per side fill a home row (16 blocks)
        layout = [("cavalry", "a"), ("infantry", "b"), ("infantry", "c"), ("artillery", "d"),
                  ("infantry", "e"), ("cavalry", "f")]
        for side in SIDES:
            count: dict[str, int] = {}
            for kind, col in layout:
                count[kind] = count.get(kind, 0) + 1
                units.append(_unit(side, kind, count[kind], col + HOME[side]))
        return units
    # "contact": two small lines already face to face in the centre (a first lesson in fire and melee)
    return [
        _unit("south", "infantry", 1, "c3", "line"), _unit("south", "infantry", 2, "d3"),
        _unit("south", "cavalry", 1, "b1"), _unit("south", "artillery", 1, "e1"),
        _unit("north", "infantry", 1, "c4", "line"), _unit("north", "infantry", 2, "d4", "line"),
        _unit("north", "cavalry", 1, "e6"), _unit("north", "artillery", 1, "b6"),
    ]


SIDE_WORDS = {"south": "south", "s": "south", "юг": "south", "north": "north", "n": "north", "север": "north"}
KIND_WORDS = {"infantry": "infantry", "inf": "infantry", "пехота": "infantry", "cavalry": "cavalry",
              "cav": "cavalry", "конница": "cavalry", "artillery": "artillery", "art": "artillery",
              "артиллерия": "artillery", "battery": "artillery", "батарея": "artillery"}


def parse_units(text: str) -> list[dict]:
    """One unit a line: `south infantry c3 N line 3` (facing, formation, blocks optional).

    At most ``MAX_UNITS_TEXT`` characters and ``MAX_UNITS`` units (the engine's bound), checked first."""
    if len(text) > MAX_UNITS_TEXT:
        raise forms.ValidationError(gettext("At most %(n)s characters: one unit a line.") % {"n": MAX_UNITS_TEXT})
    units, count = [], {}
    for n, raw in enumerate(text.splitlines(), 1):
        tokens = raw.strip().lower().split()
        if not tokens or tokens[0].startswith("#"):
            continue
        if len(units) >= MAX_UNITS:
            raise forms.ValidationError(gettext("At most %(n)s units (the box holds 60 blocks).") % {"n": MAX_UNITS})
        if len(tokens) < 3 or tokens[0] not in SIDE_WORDS or tokens[1] not in KIND_WORDS:
            raise forms.ValidationError(gettext("Line %(n)s: write side, kind and sector, e.g. “south infantry c3 N line 3”.")
                                        % {"n": n})
        side, kind, sector = SIDE_WORDS[tokens[0]], KIND_WORDS[tokens[1]], tokens[2]
        if sector not in all_sectors():
            raise forms.ValidationError(gettext("Line %(n)s: %(sector)s is not a sector a1–f6.") % {"n": n, "sector": sector})
        key = (side, kind)
        count[key] = count.get(key, 0) + 1
        u = _unit(side, kind, count[key], sector)
        for t in tokens[3:]:
            if t.upper() in ("N", "E", "S", "W"):
                u["facing"] = t.upper()
            elif t in FORMATIONS:
                u["formation"] = t
            elif t.isdigit() and kind != "artillery":
                u["blocks"] = int(t)
            elif t.isdigit():
                u["crew"] = int(t)
            else:
                raise forms.ValidationError(gettext("Line %(n)s: I do not understand “%(word)s”.") % {"n": n, "word": t})
        units.append(u)
    return units


# --- new battle --------------------------------------------------------------------------------

SETTING_LABELS = {
    "max_units_per_side": _("Units per side (soft limit)"),
    "max_blocks_per_side": _("Blocks per side (soft limit)"),
    "zone_columns": _("Zone borders (columns per zone)"),
    "deploy_rows": _("Deployment rows"),
    "deploy_terrain_disorder": _("Placing on disordering terrain disorders"),
    "musket_arc": _("Musket volley diagonals"),
    "bayonets_advance": _("Bayonets! with no enemy in front"),
    "blocked_retreat": _("A unit falling back (not fleeing) with nowhere to go"),
    "reserve_entry": _("Reserve entry"),
    "terrain_effects": _("Terrain effects table"),
    "facings": _("Facings"),
    "cavalry_step_dirs": _("Cavalry step directions"),
    "cavalry_free_turn": _("Cavalry turn after moving"),
    "cavalry_stop_terrain": _("Terrain that stops cavalry"),
    "card_scope": _("What one card orders"),
    "orders_per_turn_cap": _("Cards per turn (empty: no cap)"),
    "cards_reusable": _("Played cards return to the pile"),
    "initiative_tie": _("Initiative tie"),
    "step_order": _("Order inside a step"),
    "fire_bonus_mode": _("How a fire bonus applies"),
    "melee_bonus_mode": _("How a melee bonus applies"),
    "column_bonus_defender": _("Column +1 also for a counter-charging defender"),
    "flank_rule": _("Flank attack"),
    "artillery_arc": _("Artillery arc"),
    "artillery_hill_diag_range": _("Diagonal range from a hill"),
    "artillery_blockers": _("Units that block artillery fire"),
    "artillery_hit_order": _("Which battery block a hit removes"),
    "abandoned_gun_rule": _("Abandoned gun"),
    "counter_charge_timing": _("When a charge can be met with Bayonets!"),
    "give_way_flag": _("Flag of a unit giving way without a fight"),
    "give_way_advance": _("The attacker advances when the target gives way"),
    "give_way_disorder_attacker": _("The attacker is disordered when the target gives way"),
    "winner_advance": _("Melee winner's advance"),
    "flight_choice": _("Flight without a free sector"),
    "chain_push_routs": _("A unit pushed in a chain panic routs"),
    "flight_timing": _("When routed units flee"),
    "rear_reference": _("What “back” means"),
    "rally_formation": _("Formation after a rally"),
    "counter_charge_counts_as_attack": _("Meeting a charge uses the unit's bayonet attack"),
    "retreat_distance": _("Retreat card distance (sectors)"),
    "square_break_to": _("A square below 3 blocks becomes"),
    "victory_check": _("Victory check"),
    "reserves_count": _("Reserves count as not beaten"),
    "cav_vs_routed_advance": _("Cavalry advances after destroying a routed unit"),
    "terrain_cover": _("Terrain cover"),
    "allow_digital_dice": _("Allow digital dice (“Roll for me”)"),
    "pile_composition": _("Order pile of each side"),
}
CHOICE_LABELS = {
    "forward3": _("Forward only (three directions)"), "any8": _("Any of the eight directions"),
    "any": _("Any"), "quarter": _("A quarter turn"), "per_die": _("+1 to each die"), "extra_die": _("One extra die"),
    "front_diagonals": _("Front diagonals only"), "any_diagonal": _("All four diagonals"),
    "one_sector": _("One sector forward"), "as_move": _("As far as a Move card"), "own": _("Own units only"),
    "crew_first": _("Crew first"), "gun_first": _("Gun first"), "same_step": _("In the same step"),
    "reaction": _("As an answer when charged"), "up": _("Stays up"), "down": _("Falls"),
    "mandatory": _("Must advance"), "stay": _("Stays where it is"), "destroyed": _("Is destroyed"),
    "home_edge": _("Towards its own edge"), "facing": _("Away from where it faces"),
}
CHOICE_LABELS_BY_KEY = {
    ("bayonets_advance", "none"): _("Stays in place"), ("winner_advance", "none"): _("Stays in place"),
    ("artillery_blockers", "any"): _("Any unit"),
}


def choice_label(key: str, value) -> str:
    """A setting's value in words (the stored value stays the engine's)."""
    if (key, value) in CHOICE_LABELS_BY_KEY:
        return str(CHOICE_LABELS_BY_KEY[(key, value)])
    if isinstance(value, str) and value in FORMATIONS:
        return formation_label(value)
    if isinstance(value, str) and value in CHOICE_LABELS:
        return str(CHOICE_LABELS[value])
    return str(value).replace("_", " ")


CHOICE_LABELS.update({
    "move_card": _("With a Move card"), "one_unit": _("One unit"), "reroll": _("Roll again"),
    "fire_first": _("Fire first"), "total": _("Added to the total"), "front_row": _("By the front row"),
    "capture": _("The enemy captures it"), "free_first": _("A free sector first"),
    "end_of_turn": _("At the end of the turn"), "immediate_and_end_of_turn": _("At once and at the end of each turn"),
})
EFFECT_LABELS = {"disorder": _("disorders"), "no_entry": _("no entry"), "blocks_fire": _("blocks fire"),
                 "no_fire_from": _("no fire from it"), "fire_platform": _("fires further")}


def setting_value_text(key: str, value) -> str:
    """A battle's setting as a player reads it on the game page."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("no limit")
    if key == "zone_columns" and isinstance(value, dict):
        return " | ".join("–".join(value.get(z) or ["—"]) for z in ZONES)
    if key == "pile_composition" and isinstance(value, dict):
        return ", ".join(f"{card_label(c)} {n}" for c, n in value.items() if c in CARD_TYPES)
    if key == "terrain_effects" and isinstance(value, dict):
        return "; ".join(
            f"{kind_label(k)}: " + ", ".join(f"{terrain_label(t)} ({', '.join(str(EFFECT_LABELS.get(e, e)) for e in effects)})"
                                           for t, effects in cells.items() if t in TERRAINS)
            for k, cells in value.items() if k in KIND_SHORT and isinstance(cells, dict))
    if isinstance(value, (list, tuple)):
        return ", ".join(terrain_label(v) if v in TERRAINS else choice_label(key, v) for v in value) or "—"
    if isinstance(value, dict):
        return gettext("entered")
    return choice_label(key, value)


# handled by dedicated fields of the setup (terrain grid, pile counts)
SPECIAL = {"terrain_map", "pile_composition"}
JSON_SETTINGS = {"zone_columns", "terrain_effects"}


def setting_specs() -> list[dict]:
    """The settings a group may change on the new-battle page. A reading with a single possible
    value is no choice: the game page lists it among the battle's house rules, the form does not."""
    out = []
    for d in describe_settings():
        if d["key"] in SPECIAL or (d["choices"] is not None and len(d["choices"]) < 2):
            continue
        d = dict(d, label=SETTING_LABELS.get(d["key"], d["key"]), field=f"s_{d['key']}")
        out.append(d)
    return out


class NewBattleForm(forms.Form):
    name = forms.CharField(label=_("Battle name"), max_length=100, initial=_("Battle"))
    south_player = forms.CharField(label=_("South player (home row 1)"), max_length=60, initial=_("South"))
    north_player = forms.CharField(label=_("North player (home row 6)"), max_length=60, initial=_("North"))
    preset = forms.ChoiceField(label=_("Armies"), initial="standard", widget=forms.RadioSelect, choices=[
        ("standard", _("Standard small battle: 3 infantry, 2 cavalry, 1 battery per side on the home rows")),
        ("contact", _("Contact drill: two infantry units per side already face to face in the centre (deploys on three rows per side)")),
    ])
    units = forms.CharField(label=_("Or your own units, one a line"), required=False,
                            widget=forms.Textarea(attrs={"rows": 4, "maxlength": MAX_UNITS_TEXT}),
                            help_text=_("Write one unit a line: its side (south or north), kind (infantry, cavalry or "
                                        "artillery) and sector (a1 to f6); then, if you like, its facing (N, E, S or W), "
                                        "formation (column, line, square or disordered) and number of blocks. Units "
                                        "entered here replace the ready-made armies."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.sectors = []
        for row in range(6, 0, -1):
            for col in "abcdef":
                sector = f"{col}{row}"
                self.fields[f"t_{sector}"] = forms.ChoiceField(
                    label=sector, initial="field", choices=[(t, terrain_label(t)) for t in TERRAINS],
                    widget=forms.Select(attrs={"class": "terrain-select", "data-terrain-cell": sector}))
                self.sectors.append(sector)
        for ctype in CARD_TYPES:
            self.fields[f"pile_{ctype}"] = forms.IntegerField(label=card_label(ctype), min_value=0, max_value=MAX_PILE_PER_TYPE,
                                                              initial=DEFAULT_PILE.get(ctype, 0))
        current = lang()
        for d in setting_specs():
            note = d["en"] if current == "en" else d["ru"]
            key, default = d["key"], d["default"]
            if key in JSON_SETTINGS:
                f = forms.CharField(widget=forms.Textarea(attrs={"rows": 2, "maxlength": MAX_JSON_TEXT}),
                                    initial=json.dumps(default, ensure_ascii=False))
            elif key == "cavalry_stop_terrain":
                f = forms.MultipleChoiceField(choices=[(t, terrain_label(t)) for t in TERRAINS], initial=default,
                                              widget=forms.CheckboxSelectMultiple, required=False)
            elif isinstance(default, bool):
                f = forms.BooleanField(required=False, initial=default)
            elif d["choices"]:
                f = forms.TypedChoiceField(choices=[(c, choice_label(key, c)) for c in d["choices"]], initial=default,
                                           coerce=type(d["choices"][0]))
            elif key == "orders_per_turn_cap":
                f = forms.IntegerField(required=False, min_value=1, initial=default)
            else:
                f = forms.IntegerField(min_value=0, initial=default)
            f.label, f.help_text = d["label"], note
            self.fields[d["field"]] = f

    def terrain_fields(self):
        return [self[f"t_{s}"] for s in self.sectors]

    def pile_fields(self):
        return [self[f"pile_{c}"] for c in CARD_TYPES]

    def setting_fields(self):
        return [self[d["field"]] for d in setting_specs()]

    def clean(self):
        data = super().clean()
        settings = {}
        for d in setting_specs():
            if d["field"] not in data:
                continue
            value = data[d["field"]]
            if d["key"] in JSON_SETTINGS:
                if len(value) > MAX_JSON_TEXT:
                    self.add_error(d["field"], gettext("At most %(n)s characters.") % {"n": MAX_JSON_TEXT})
                    continue
                if not json_depth_ok(value, MAX_DEPTH):
                    self.add_error(d["field"], gettext("Nested more than %(n)s levels deep.") % {"n": MAX_DEPTH})
                    continue
                try:
                    value = json.loads(value)
                except (TypeError, ValueError, RecursionError):
                    self.add_error(d["field"], gettext("Not valid JSON."))
                    continue
            if d["key"] == "cavalry_stop_terrain":
                value = list(value)
            settings[d["key"]] = value
        terrain = {s: data.get(f"t_{s}", "field") for s in self.sectors}
        terrain = {s: t for s, t in terrain.items() if t and t != "field"}
        pile = {c: data.get(f"pile_{c}") or 0 for c in CARD_TYPES}
        settings["terrain_map"] = terrain
        settings["pile_composition"] = pile
        try:
            Settings.from_dict(settings)
        except SettingsError as exc:
            raise forms.ValidationError(gettext("Settings: %(error)s") % {"error": error_text(exc)})
        if sum(pile.values()) == 0:
            raise forms.ValidationError(gettext("The order pile is empty: give each side some cards."))
        if data.get("units", "").strip():
            try:
                units = parse_units(data["units"])
            except forms.ValidationError as exc:
                self.add_error("units", exc)
                return data
        else:
            units = preset_units(data.get("preset") or "standard")
            if data.get("preset") == "contact":  # the drill's lines stand on rows 3 and 4: three rows each
                settings["deploy_rows"] = max(settings.get("deploy_rows") or 1, 3)
        data["unit_list"], data["settings"], data["terrain"], data["pile"] = units, settings, terrain, pile
        return data

    def warnings(self, units: list[dict], settings: dict) -> list[str]:
        """Soft limits of spec §1.3 (the engine's): warn, never block."""
        current = lang()
        return [reason_text(r, current) for r in setup_warnings(units, settings)]


# --- commands ------------------------------------------------------------------------------------

class VersionForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)


DIE = [(i, str(i)) for i in range(1, 7)]


class SideForm(VersionForm):
    side = forms.ChoiceField(choices=[(s, s) for s in SIDES], widget=forms.HiddenInput)


class PlaceForm(SideForm):
    card_type = forms.ChoiceField(label=_("Card"), choices=[(c, c) for c in CARD_TYPES])
    zone = forms.ChoiceField(label=_("Zone"), choices=[(z, z) for z in ZONES])


class UnplaceForm(SideForm):
    card = forms.CharField(max_length=40)


class InitiativeForm(VersionForm):
    south = forms.TypedChoiceField(label=_("South die"), choices=DIE, coerce=int, required=False)
    north = forms.TypedChoiceField(label=_("North die"), choices=DIE, coerce=int, required=False)
    digital = forms.BooleanField(required=False)

    def clean(self):
        data = super().clean()
        if not data.get("digital") and (data.get("south") in (None, "") or data.get("north") in (None, "")):
            raise forms.ValidationError(gettext("Tap one die value for each side (1–6), or roll for me."))
        return data


class ZonesForm(SideForm):
    sequence = forms.ChoiceField(label=_("Zone order"), choices=[])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["sequence"].choices = [(",".join(p), ",".join(p)) for p in permutations(ZONES)]


class ChooseForm(SideForm):
    cards = forms.MultipleChoiceField(label=_("Card"), choices=[])
    unit = forms.ChoiceField(label=_("Unit"), choices=[])
    target = forms.CharField(label=_("Target"), required=False, max_length=40)
    to = forms.CharField(label=_("To sector"), required=False, max_length=2)
    path = forms.CharField(label=_("Cavalry path"), required=False, max_length=20)
    facing = forms.ChoiceField(label=_("Facing after a cavalry move"), required=False,
                               choices=[("", "—"), ("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")])
    formation = forms.ChoiceField(label=_("Formation"), required=False,
                                  choices=[("", "—")] + [(f, f) for f in FORMATIONS])
    direction = forms.ChoiceField(label=_("Turn"), required=False, choices=[("", "—"), ("left", "left"), ("right", "right")])
    use = forms.ChoiceField(label=_("Bayonets!: use"), required=False,
                            choices=[("", "—"), ("charge", "charge"), ("advance", "advance"), ("meet", "meet")])

    def __init__(self, *args, cards=(), units=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["cards"].choices = list(cards)
        self.fields["unit"].choices = list(units)
        # the posted value is never repeated back: it is an identifier, not a word a player uses
        self.fields["cards"].error_messages.update(
            invalid_choice=_("That card does not lie face down in this step's zone (actions phase)."),
            required=_("Tick the card you reveal in this step (actions phase)."))
        self.fields["unit"].error_messages.update(
            invalid_choice=_("That unit cannot take your card: it must be yours, in this zone or in reserve (one card, one unit rule)."),
            required=_("Choose the unit the card orders (one card, one unit rule)."))
        for name in ("facing", "formation", "direction", "use"):
            self.fields[name].error_messages["invalid_choice"] = _("Choose one of the offered values.")

    def clean_path(self):
        raw = self.cleaned_data.get("path") or ""
        steps = raw.replace(",", " ").replace("→", " ").split()
        if any(s not in all_sectors() for s in steps) or len(steps) > 2:
            raise forms.ValidationError(gettext("A cavalry path is one or two sectors, e.g. “d5 c4”."))
        return steps


class RetreatChoiceForm(SideForm):
    unit = forms.CharField(max_length=40)
    sector = forms.CharField(max_length=3)


class ReactForm(SideForm):
    unit = forms.CharField(max_length=40)
    card = forms.CharField(max_length=40)


FLAGS = [("up", "up"), ("routed", "routed")]
LOCATION_CHOICES = [("board", "board"), ("reserve", "reserve"), ("destroyed", "destroyed"), ("deserted", "deserted")]


class CorrectForm(SideForm):
    """A manual correction: only the fields filled in change (the other player agrees, or the host)."""
    unit = forms.CharField(max_length=40)
    sector = forms.CharField(required=False, max_length=2)
    location = forms.ChoiceField(required=False, choices=[("", "—")] + LOCATION_CHOICES)
    blocks = forms.IntegerField(required=False, min_value=0, max_value=3)
    crew = forms.IntegerField(required=False, min_value=0, max_value=2)
    formation = forms.ChoiceField(required=False, choices=[("", "—")] + [(f, f) for f in FORMATIONS])
    facing = forms.ChoiceField(required=False, choices=[("", "—"), ("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")])
    flag = forms.ChoiceField(required=False, choices=[("", "—")] + FLAGS)

    def clean_sector(self):
        v = (self.cleaned_data.get("sector") or "").strip().lower()
        if v and v not in all_sectors():
            raise forms.ValidationError(gettext("A sector is a1–f6."))
        return v

    def changes(self) -> dict:
        d = self.cleaned_data
        out = {k: d[k] for k in ("sector", "location", "formation", "facing", "flag") if d.get(k)}
        out.update({k: d[k] for k in ("blocks", "crew") if d.get(k) is not None})
        return out


class DiceForm(SideForm):
    roll = forms.ChoiceField(choices=[("fire", "fire"), ("melee", "melee")], widget=forms.HiddenInput)
    n = forms.IntegerField(min_value=1, max_value=6, widget=forms.HiddenInput)
    digital = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(1, 7):
            self.fields[f"d{i}"] = forms.TypedChoiceField(choices=DIE, coerce=int, required=False)

    def clean(self):
        data = super().clean()
        if data.get("digital") or not data.get("n"):
            return data
        faces = [data.get(f"d{i}") for i in range(1, data["n"] + 1)]
        if any(f in (None, "") for f in faces):
            raise forms.ValidationError(gettext("Tap a value 1–6 for every die (%(n)s dice), or roll for me.")
                                        % {"n": data["n"]})
        data["faces"] = faces
        return data
