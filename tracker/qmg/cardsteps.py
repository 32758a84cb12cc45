"""The card being resolved on the game page: the engine's open step and its legal choices, one tap each.

The engine (``gameplay.qmg.table.step_choices``) lists every legal choice of the first open card step
with the command that makes it; this module only names them for the page and parses the tap back
(``CardStepForm``: bounded fields, the engine decides what is legal)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _, gettext_lazy

from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.program import describe
from gameplay.qmg.table import CARD_TYPE_NAMES, CARD_TYPES, STEP_TYPES, free_steps_allowed, step_choices

from .forms import COUNTRIES

CATALOGUE = default_catalogue()
__all__ = ["CardStepForm", "card_steps", "free_steps_allowed"]
KIND_WORDS = {"army": gettext_lazy("army"), "navy": gettext_lazy("navy")}


class CardStepForm(forms.Form):
    """One tap on a choice the engine offered (sent as the command ``step``)."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0)
    country = forms.ChoiceField(choices=[(c, c) for c in COUNTRIES])
    action = forms.ChoiceField(choices=[(a, a) for a in STEP_TYPES])
    space = forms.CharField(max_length=40, required=False)
    target_country = forms.ChoiceField(choices=[("", "")] + [(c, c) for c in COUNTRIES], required=False)
    kind = forms.ChoiceField(choices=[("", ""), ("army", "army"), ("navy", "navy")], required=False)
    card_id = forms.CharField(max_length=60, required=False)
    card_type = forms.ChoiceField(choices=[("", "")] + [(t, t) for t in CARD_TYPES], required=False)

    def __init__(self, *args, countries=COUNTRIES, board=None, **kwargs):
        super().__init__(*args, **kwargs)

    def clean_card_id(self):
        value = self.cleaned_data.get("card_id") or ""
        if value and value not in CATALOGUE:
            raise forms.ValidationError(_("Unknown card."))
        return value


def card_steps(board, table, mine, lang: str) -> dict | None:
    """The first open card step for the page: its text, whose it is, and (for that seat) the choices."""
    if not table.pending:
        return None
    head = table.pending[0]
    space = (lambda s: board.spaces[s].en) if lang == "en" else (lambda s: board.spaces[s].ru)
    cname = (lambda c: board.countries[c].en) if lang == "en" else (lambda c: board.countries[c].ru)
    choices = []
    if head["by"] in mine:
        for c in step_choices(board, table):
            parts = []
            if c.get("space"):
                parts.append(space(c["space"]))
            who = c.get("target_country") or c.get("country")
            if who and who != head["by"] or c.get("kind"):
                parts.append(" ".join(str(x) for x in (cname(who) if who else "", KIND_WORDS.get(c.get("kind"), ""))
                                      if x))
            if c.get("card_id") and CATALOGUE.get(c["card_id"]):
                card = CATALOGUE[c["card_id"]]
                parts.append(card.name_en if lang == "en" else card.name_ru)
            if c.get("card_type"):
                parts.append(CARD_TYPE_NAMES[c["card_type"]][1 if lang == "en" else 0])
            if c.get("action") == "discard_response":
                parts.append(_("a face-down response"))
            fields = [(k, v) for k, v in c["command"].items() if k != "type"]
            choices.append({"label": " — ".join(parts) or cname(who or head["by"]), "fields": fields,
                            "space": c.get("space", "")})
    return {"text": describe(board, head, lang), "by": head["by"], "by_name": cname(head["by"]),
            "mine": head["by"] in mine, "optional": bool(head.get("optional")) or head["kind"] == "manual",
            "manual": head["kind"] == "manual", "note": head.get("note", "") if head["kind"] == "manual" else "",
            "choices": choices, "held": bool(table.hold), "more": len(table.pending) - 1}
