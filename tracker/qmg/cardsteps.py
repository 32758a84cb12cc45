"""The card being resolved on the game page: the engine's open step and its legal choices, one tap each.

The engine (``gameplay.qmg.table.step_choices``) lists every legal choice of the first open card step
with the command that makes it; this module only names them for the page and parses the tap back
(``CardStepForm``: bounded fields, the engine decides what is legal)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _, gettext_lazy, ngettext

from gameplay.qmg.cards import default_catalogue
from gameplay.qmg.program import describe_head
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
    n = forms.IntegerField(min_value=0, max_value=3, required=False)  # to_deck: how many cards
    name = forms.ChoiceField(choices=[("", ""), ("hand", "hand"), ("discard", "discard")], required=False)

    def __init__(self, *args, countries=COUNTRIES, board=None, **kwargs):
        super().__init__(*args, **kwargs)

    def clean_card_id(self):
        value = self.cleaned_data.get("card_id") or ""
        if value and value not in CATALOGUE:
            raise forms.ValidationError(_("Unknown card."))
        return value


def card_label(card, lang: str) -> str:
    return f"«{card.name_en if lang == 'en' else card.name_ru}»"


def choice_label(board, head: dict, c: dict, lang: str) -> str:
    """A choice of the engine's open step in words: where, whose piece, which card, how many."""
    if c.get("label"):  # the engine named the choice itself (a stranded air force's moves)
        return c["label"]["en" if lang == "en" else "ru"]
    space = (lambda s: board.spaces[s].en) if lang == "en" else (lambda s: board.spaces[s].ru)
    cname = (lambda x: board.countries[x].en) if lang == "en" else (lambda x: board.countries[x].ru)
    card = CATALOGUE.get(c.get("card_id") or "")
    if c.get("action") == "to_deck":
        n = c.get("n") or 0
        if card is not None:
            text = _("%(card)s back into the deck") % {"card": card_label(card, lang)}
        elif c.get("pile") == "discard":  # the card just played, from the discard pile
            text = _("The card just played back into the deck")
        else:
            text = ngettext("%(n)s card from the hand into the deck", "%(n)s cards from the hand into the deck",
                            n) % {"n": n}
        cost = c.get("cost") or {}
        if cost.get("own_deck"):
            text += " — " + ngettext("pay: the top %(n)s card of the deck", "pay: the top %(n)s cards of the deck",
                                     cost["own_deck"]) % {"n": cost["own_deck"]}
        elif cost.get("own_hand"):
            text += " — " + ngettext("pay: %(n)s card from the hand", "pay: %(n)s cards from the hand",
                                     cost["own_hand"]) % {"n": cost["own_hand"]}
        return text
    if head.get("alternative") and c.get("target_country") and not c.get("space"):
        # «Мальтийские субмарины»: the target's own choice between its cards and its piece
        return ngettext("Discard the top %(n)s card of your deck", "Discard the top %(n)s cards of your deck",
                        head.get("n", 1)) % {"n": head.get("n", 1)}
    parts = []
    if c.get("space"):
        parts.append(space(c["space"]))
    who = c.get("target_country") or c.get("country")
    other = cname(who) if who and who != head["by"] else ""
    if c.get("kind") in KIND_WORDS:  # «армия», or «армия (Италия)» for another country's piece
        parts.append(f"{KIND_WORDS[c['kind']]} ({other})" if other else str(KIND_WORDS[c["kind"]]))
    elif other:
        parts.append(other)
    if card is not None:
        parts.append(card_label(card, lang))
    elif c.get("card_type"):
        parts.append(CARD_TYPE_NAMES[c["card_type"]][1 if lang == "en" else 0])
    if c.get("action") == "discard_response":
        parts.append(_("a face-down response"))
    return " — ".join(parts) or cname(who or head["by"])


def card_steps(board, table, mine, lang: str, own=()) -> dict | None:
    """The first open card step for the page: its text, whose it is, and (for that seat) the choices.
    ``own``: the countries of the viewer's own seat — only their phone puts a response face down."""
    if not table.pending:
        return None
    head = table.pending[0]
    cname = (lambda c: board.countries[c].en) if lang == "en" else (lambda c: board.countries[c].ru)
    choices = []
    if head["by"] in mine:
        for c in step_choices(board, table):
            fields = [(k, v) for k, v in c["command"].items() if k != "type"]
            if c.get("action") == "play_from" and c.get("card_type") == "response" and not c.get("card_id"):
                # face down: the owner names which response (kept on its phone only, never in the log)
                if c["country"] not in own:
                    continue  # the host's powers do not include another seat's hidden card
                ids = c.get("response_ids")
                for card in CATALOGUE.by_country(c["country"]):
                    if card.type == "response" and (ids is None or card.id in ids):
                        choices.append({"label": _("%(card)s — face down") % {"card": card_label(card, lang)},
                                        "fields": fields + [("card_id", card.id)], "space": ""})
                continue
            choices.append({"label": choice_label(board, head, c, lang), "fields": fields,
                            "space": c.get("space", "")})
    return {"text": describe_head(board, table.pending, lang), "by": head["by"], "by_name": cname(head["by"]),
            "on_map": any(c["space"] for c in choices),
            "mine": head["by"] in mine, "optional": bool(head.get("optional")) or head["kind"] == "manual",
            "manual": head["kind"] == "manual", "note": head.get("note", "") if head["kind"] == "manual" else "",
            "choices": choices, "held": bool(table.hold), "more": len(table.pending) - 1}
