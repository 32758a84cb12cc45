"""Forms: they only parse and bound input; the rules engine decides what is legal."""
import weakref

from django import forms
from django.utils.choices import BaseChoiceIterator
from django.utils.translation import gettext_lazy as _

from gameplay.qmg import load_board
from gameplay.qmg.board import seed_fact_problems
from gameplay.qmg.cards import fold, load_catalogue
from gameplay.qmg.table import BASIC_CARD_ACTION, CARD_TYPES, CARD_TYPE_NAMES, HAND_SIZE, MAX_DECK

from gameplay.qmg.seating import DEFAULT_SEATING
from tracker.language import lang as _lang

from .models import BoardVariant
from .variants import MAX_PATCH, PatchError, check_patch

BOARD = load_board()
COUNTRIES = BOARD.turn_order
MIN_DECK = HAND_SIZE + 12  # with Air Marshal a deck deals 12 cards and the hand keeps 7 (engine: Options.decks)



ChoiceField, TypedChoiceField = forms.ChoiceField, forms.TypedChoiceField


def limit_countries(field, countries):
    """Offer only ``countries`` but accept any: whether this seat may act for a country is the
    service's decision (403), not a form error."""
    field.choices = countries_of_board()
    field.widget.choices = countries_of_board(countries)


class Choices(BaseChoiceIterator):
    """Choices already in the form Django normalizes them to (``(value, label)`` pairs with plain labels),
    which a field and its widget keep as they are: the game page's forms are built on every move and
    refresh, and normalizing the same 48 spaces again each time was most of what building one cost."""

    def __init__(self, pairs):
        self.pairs = tuple(pairs)

    def __iter__(self):
        return iter(self.pairs)


_CHOICES = weakref.WeakKeyDictionary()  # board -> {(what, language…): Choices}, built once per process


def _kept(board, key, build) -> Choices:
    per_board = _CHOICES.get(board)
    if per_board is None:
        per_board = _CHOICES[board] = {}
    choices = per_board.get(key)
    if choices is None:
        choices = per_board[key] = Choices(build())
    return choices


def country_choices(countries=COUNTRIES, blank=False):
    i = 1 if _lang() == "en" else 0
    names = {c: (BOARD.countries[c].ru, BOARD.countries[c].en) for c in COUNTRIES}
    choices = [(c, names[c][i]) for c in countries]
    return ([("", "—")] + choices) if blank else choices


def countries_of_board(countries=COUNTRIES, blank=False, first_blank=False) -> Choices:
    """``country_choices``, kept per language (``first_blank``: "—" before them as well, for a field
    that may be left empty)."""
    countries = tuple(countries)
    return _kept(BOARD, ("countries", _lang(), countries, blank, first_blank),
                 lambda: ([("", "—")] if first_blank else []) + country_choices(countries, blank))


def space_choices(board=BOARD, kind=None):
    """Spaces sorted by name in the current language, land first."""
    en = _lang() == "en"
    rows = [s for s in board.spaces.values() if kind is None or s.kind == kind]
    rows.sort(key=lambda s: (not s.is_land, s.en if en else s.ru))
    return [(s.id, s.en if en else s.ru) for s in rows]


def spaces_of_board(board=BOARD) -> Choices:
    """"—", then ``space_choices(board)``, kept per board and language."""
    return _kept(board, ("spaces", _lang()), lambda: [("", "—")] + space_choices(board))


def card_types_of(types) -> Choices:
    """The card types ``types`` by name, kept per language."""
    i = 1 if _lang() == "en" else 0
    return _kept(BOARD, ("card_types", _lang(), tuple(types)), lambda: [(t, CARD_TYPE_NAMES[t][i]) for t in types])


class VersionForm(forms.Form):
    # the fields' HTML ids: a form shown on the page beside another with a field of the same name has its own
    ids = "id_%s"
    # no id: a page holds many forms, each with its version, and no label points to it
    version = forms.IntegerField(widget=forms.HiddenInput(attrs={"id": False}), min_value=0)

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", self.ids)
        super().__init__(*args, **kwargs)



class NewGameForm(forms.Form):
    name = forms.CharField(label=_("Game name"), max_length=100, initial=_("Game night"))
    players = TypedChoiceField(label=_("Number of players"), coerce=int, initial=2,
                                     choices=[(n, str(n)) for n in range(2, 7)])
    player_1 = forms.CharField(label=_("Player 1"), max_length=60, required=False)
    player_2 = forms.CharField(label=_("Player 2"), max_length=60, required=False)
    player_3 = forms.CharField(label=_("Player 3"), max_length=60, required=False)
    player_4 = forms.CharField(label=_("Player 4"), max_length=60, required=False)
    player_5 = forms.CharField(label=_("Player 5"), max_length=60, required=False)
    player_6 = forms.CharField(label=_("Player 6"), max_length=60, required=False)
    default_seating = forms.BooleanField(
        label=_("Countries per player from the rulebook table"), initial=True, required=False,
        help_text=_("Untick to choose below which player plays each country."))
    seat_germany = TypedChoiceField(label=_("Germany"), coerce=int, choices=[(n, n) for n in range(1, 7)], initial=1)
    seat_united_kingdom = TypedChoiceField(label=_("United Kingdom"), coerce=int, choices=[(n, n) for n in range(1, 7)], initial=2)
    seat_japan = TypedChoiceField(label=_("Japan"), coerce=int, choices=[(n, n) for n in range(1, 7)], initial=3)
    seat_soviet_union = TypedChoiceField(label=_("Soviet Union"), coerce=int, choices=[(n, n) for n in range(1, 7)], initial=4)
    seat_italy = TypedChoiceField(label=_("Italy"), coerce=int, choices=[(n, n) for n in range(1, 7)], initial=5)
    seat_united_states = TypedChoiceField(label=_("United States"), coerce=int, choices=[(n, n) for n in range(1, 7)], initial=6)
    early_victory = forms.BooleanField(label=_("Optional rule: early victory at 30 VP ahead"), required=False)
    air_marshal = forms.BooleanField(label=_("Air Marshal expansion (12 cards dealt, keep 7; air forces; air step)"),
                                     required=False)
    air_germany = forms.IntegerField(label=_("Air forces: Germany"), min_value=0, max_value=9, required=False)
    air_united_kingdom = forms.IntegerField(label=_("Air forces: United Kingdom"), min_value=0, max_value=9,
                                            required=False)
    air_japan = forms.IntegerField(label=_("Air forces: Japan"), min_value=0, max_value=9, required=False)
    air_soviet_union = forms.IntegerField(label=_("Air forces: Soviet Union"), min_value=0, max_value=9, required=False)
    air_italy = forms.IntegerField(label=_("Air forces: Italy"), min_value=0, max_value=9, required=False)
    air_united_states = forms.IntegerField(label=_("Air forces: United States"), min_value=0, max_value=9,
                                           required=False)
    air_deck_germany = forms.IntegerField(
        label=_("Cards in the deck with the expansion: Germany"), min_value=MIN_DECK, max_value=MAX_DECK,
        required=False,
        help_text=_("The rules at hand do not give how many cards the expansion adds: count each shuffled deck "
                    "once and enter it here (left as is: the base game's deck)."))
    air_deck_united_kingdom = forms.IntegerField(label=_("Cards in the deck with the expansion: United Kingdom"),
                                                 min_value=MIN_DECK, max_value=MAX_DECK, required=False)
    air_deck_japan = forms.IntegerField(label=_("Cards in the deck with the expansion: Japan"),
                                        min_value=MIN_DECK, max_value=MAX_DECK, required=False)
    air_deck_soviet_union = forms.IntegerField(label=_("Cards in the deck with the expansion: Soviet Union"),
                                               min_value=MIN_DECK, max_value=MAX_DECK, required=False)
    air_deck_italy = forms.IntegerField(label=_("Cards in the deck with the expansion: Italy"),
                                        min_value=MIN_DECK, max_value=MAX_DECK, required=False)
    air_deck_united_states = forms.IntegerField(label=_("Cards in the deck with the expansion: United States"),
                                                min_value=MIN_DECK, max_value=MAX_DECK, required=False)
    reallocate = forms.BooleanField(label=_("Optional rule: Reallocate Resources"), required=False)
    prepare_for_war = forms.BooleanField(
        label=_("Optional rule: Preparing for war"), required=False,
        help_text=_("Before the first round each country may take one status or response card from its deck "
                    "and play it (quick reference)."))
    step_by_step = forms.BooleanField(
        label=_("Step by step (teaching game)"), required=False,
        help_text=_("Every step of a turn (supply, victory, discard, draw) gets its own tap instead of one "
                    "«Finish the turn»."))
    board_variant = forms.ModelChoiceField(label=_("Board"), queryset=BoardVariant.objects.all(), required=False,
                                           empty_label=_("Standard board (1st edition)"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for c in COUNTRIES:  # the expansion's counts are not confirmed: a group may change them
            self.fields[f"air_{c}"].initial = BOARD.air_forces_default.get(c, 0)
            self.fields[f"air_deck_{c}"].initial = BOARD.countries[c].deck

    def clean(self):
        data = super().clean()
        n = data.get("players")
        if not n:
            return data
        if data.get("default_seating"):
            seating = DEFAULT_SEATING[n]
        else:
            seating = [[] for _ in range(n)]
            for c in COUNTRIES:
                seat = data.get(f"seat_{c}") or 1
                if seat > n:
                    raise forms.ValidationError(_("A country is given to player %(n)s, but there are only %(players)s players.")
                                                % {"n": seat, "players": n})
                seating[seat - 1].append(c)
            if any(not s for s in seating):
                raise forms.ValidationError(_("Every player needs at least one country."))
        data["air_forces"] = {c: (data.get(f"air_{c}") if data.get(f"air_{c}") is not None
                                  else BOARD.air_forces_default.get(c, 0)) for c in COUNTRIES}
        # only the decks the club changed are stored: a game on the base decks keeps its old options
        data["decks"] = {c: data[f"air_deck_{c}"] for c in COUNTRIES
                         if data.get(f"air_deck_{c}") not in (None, BOARD.countries[c].deck)}
        names = [(data.get(f"player_{i}") or "").strip() or _("Player %(n)s") % {"n": i} for i in range(1, n + 1)]
        data["seats"] = list(zip(names, seating))
        return data


CATALOGUE = load_catalogue()


def card_name(card, lang=None) -> str:
    return card.name_en if (lang or _lang()) == "en" else card.name_ru


def find_card(text: str, country: str | None, types=None):
    """The card a player typed, by its Russian or English name (exact first, then a unique match)."""
    key = fold(text).strip()
    pool = [c for c in CATALOGUE.cards if (country is None or c.country == country) and (not types or c.type in types)]
    exact = [c for c in pool if key in (fold(c.name_ru).strip(), fold(c.name_en).strip())]
    if exact:
        return exact[0]
    ids = {c.id for c in pool}
    hits = [c for c in CATALOGUE.search(text, country) if c.id in ids]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise forms.ValidationError(_("No card of this deck is called “%(text)s”.") % {"text": text})
    raise forms.ValidationError(_("Several cards match “%(text)s”: %(names)s.")
                                % {"text": text, "names": ", ".join(card_name(c) for c in hits[:6])})


class PlayCardForm(VersionForm):
    card = forms.CharField(label=_("Card by name (optional)"), required=False, max_length=120,
                           help_text=_("Type a few letters of the card's Russian or English name."),
                           widget=forms.TextInput(attrs={"list": "deck-cards", "autocomplete": "off",
                                                         "placeholder": _("…or the card's name")}))
    card_type = ChoiceField(label=_("Card type"))
    space = ChoiceField(label=_("Target space"), required=False)
    target_country = ChoiceField(label=_("Whose piece (if several)"), required=False)
    # the card the player confirmed to play although some of its steps have no legal target now
    confirm = forms.CharField(required=False, max_length=60, widget=forms.HiddenInput(attrs={"id": False}))

    def __init__(self, *args, board=BOARD, country=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.country = country
        self.targetless = []  # the engine's warnings: the steps of this card that would do nothing now
        self.fields["card_type"].choices = card_types_of(CARD_TYPES)
        self.fields["space"].choices = spaces_of_board(board)
        self.fields["target_country"].choices = countries_of_board(blank=True)

    def clean(self):
        data = super().clean()
        text = (data.get("card") or "").strip()
        data["card_id"] = None
        if text:
            try:
                card = find_card(text, self.country)
            except forms.ValidationError as exc:
                self.add_error("card", exc)
                return data
            data["card_id"] = card.id
            if card.type in BASIC_CARD_ACTION or card.type in CARD_TYPES:
                data["card_type"] = card.type
        if data.get("card_type") in BASIC_CARD_ACTION and not data.get("space"):
            self.add_error("space", _("Choose the target space (tap it on the map)."))
        return data


class UseCardForm(VersionForm):
    """Use a status in play, or reveal a face-down response (named by its owner)."""
    ids = "use_%s"  # the page's other forms have fields of the same name

    country = ChoiceField(label=_("Country"))
    card = forms.CharField(label=_("Status or response"), max_length=120,
                           widget=forms.TextInput(attrs={"list": "table-cards", "autocomplete": "off"}))

    def __init__(self, *args, countries=COUNTRIES, **kwargs):
        super().__init__(*args, **kwargs)
        limit_countries(self.fields["country"], countries)

    def clean(self):
        data = super().clean()
        if data.get("country") and data.get("card"):
            try:
                data["card_id"] = find_card(data["card"], data["country"], types=("status", "response")).id
            except forms.ValidationError as exc:
                self.add_error("card", exc)
        return data


class PrepareForm(VersionForm):
    """«Подготовка к войне»: one status (face up) or response (face down, its name kept private) from the deck."""

    country = ChoiceField(label=_("Country"))
    card_type = ChoiceField(label=_("Card type"), choices=[("status", "status"), ("response", "response")])
    card_id = forms.CharField(max_length=60)

    def __init__(self, *args, countries=COUNTRIES, **kwargs):
        super().__init__(*args, **kwargs)
        limit_countries(self.fields["country"], countries)

    def clean(self):
        data = super().clean()
        card = CATALOGUE.get(data.get("card_id") or "")
        if card is None or card.type != data.get("card_type") or card.country != data.get("country"):
            self.add_error("card_id", _("Unknown card."))
        return data


class UnseenForm(forms.Form):
    """Which of the country's face-down responses was discarded unseen (its owner's answer)."""

    country = ChoiceField(label=_("Country"))
    card_id = forms.CharField(max_length=60)

    def __init__(self, *args, countries=COUNTRIES, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [(c, c) for c in countries]


class PassForm(VersionForm):
    country = ChoiceField(label=_("Country"))

    def __init__(self, *args, countries=COUNTRIES, **kwargs):
        super().__init__(*args, **kwargs)
        limit_countries(self.fields["country"], countries)


class ReallocateForm(VersionForm):
    ids = "reallocate_%s"  # the page's other forms have fields of the same name
    card_type = ChoiceField(label=_("Card taken from the deck"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card_type"].choices = card_types_of(BASIC_CARD_ACTION)


class NoteForm(forms.Form):
    country = ChoiceField(label=_("Country"))
    text = forms.CharField(label=_("Private note (only you see it)"), required=False, max_length=2000,
                           widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, countries=COUNTRIES, **kwargs):
        kwargs.setdefault("auto_id", "note_%s")  # ids of its own: the page's other forms have a country too
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = countries_of_board(countries)


STEP_NAMES = {
    "build_army": _("Build an army (needs supply)"), "build_navy": _("Build a navy (needs supply)"),
    "recruit_army": _("Recruit an army (ignores supply)"), "recruit_navy": _("Recruit a navy (ignores supply)"),
    "land_battle": _("Land battle"), "sea_battle": _("Sea battle"), "eliminate": _("Eliminate a piece"),
    "remove": _("Remove your own piece"), "discard_from_deck": _("Discard cards from a deck"),
    "gain_vp": _("Gain (or lose) VP"),
}


class StepForm(VersionForm):
    action = ChoiceField(label=_("Step"), choices=list(STEP_NAMES.items()))
    country = ChoiceField(label=_("For country"))
    space = ChoiceField(label=_("Space"), required=False)
    target_country = ChoiceField(label=_("Whose piece / whose deck"), required=False)
    kind = ChoiceField(label=_("Piece"), required=False,
                             choices=[("", "—"), ("army", _("army")), ("navy", _("navy"))])
    n = forms.IntegerField(label=_("How many"), required=False, min_value=-10, max_value=40)

    def __init__(self, *args, countries=COUNTRIES, board=BOARD, **kwargs):
        super().__init__(*args, **kwargs)
        limit_countries(self.fields["country"], countries)
        self.fields["space"].choices = spaces_of_board(board)
        self.fields["target_country"].choices = countries_of_board(blank=True)

    def clean(self):
        data = super().clean()
        action = data.get("action")
        if action in ("discard_from_deck", "gain_vp"):
            if data.get("n") is None:
                self.add_error("n", _("Enter how many."))
            if action == "discard_from_deck" and not data.get("target_country"):
                self.add_error("target_country", _("Choose whose deck."))
        elif action and not data.get("space"):
            self.add_error("space", _("Choose a space (tap it on the map)."))
        return data


class DiscardForm(VersionForm):
    n = forms.IntegerField(label=_("Cards discarded from hand"), min_value=0, max_value=99, initial=0)


class FinishTurnForm(VersionForm):
    """«Закончить ход»: the steps without a decision at once; ``n``: cards discarded in the discard step."""

    n = forms.IntegerField(label=_("Cards to discard from hand in the discard step"), min_value=0, max_value=99,
                           initial=0, required=False)


class BoardVariantForm(forms.ModelForm):
    class Meta:
        model = BoardVariant
        fields = ["name", "patch"]
        widgets = {"patch": forms.Textarea(attrs={"rows": 12, "spellcheck": "false", "maxlength": MAX_PATCH})}
        help_texts = {"patch": _("A patch of the standard board: extends, add_edges, remove_edges, add_stars, "
                                 "remove_stars, add_straits, remove_straits (see the example).")}

    def clean_patch(self):
        """The one check of a patch (``tracker.qmg.variants``), shared with an imported game's variant."""
        try:
            checked = check_patch(self.cleaned_data["patch"])
        except PatchError as exc:
            raise forms.ValidationError(str(exc), code=exc.code) from None
        self.board = checked.board
        self.problems = seed_fact_problems(self.board)
        return self.cleaned_data["patch"]


class AirForm(VersionForm):
    """Air Marshal commands: deploy, move, retreat, air defence, air strike, bolster."""
    ids = "air_%s"  # the page's other forms have fields of the same name

    country = ChoiceField(label=_("Country"), required=False)
    space = ChoiceField(label=_("Space"), required=False)
    from_space = ChoiceField(label=_("From"), required=False)
    name = forms.CharField(label=_("Card name as printed"), required=False, max_length=80)

    def __init__(self, *args, countries=COUNTRIES, board=BOARD, **kwargs):
        super().__init__(*args, **kwargs)
        # "—", then every country, offered and accepted (as limit_countries, then "—" before its choices)
        self.fields["country"].choices = countries_of_board(first_blank=True)
        self.fields["space"].choices = spaces_of_board(board)
        self.fields["from_space"].choices = spaces_of_board(board)

