"""*The Fog of War*'s house rules in plain words: a name, one line of help and a name for each choice,
for the new-game page and the game page's list of active settings. The stored keys and values stay
the engine's (``gameplay.fog_of_war.config``); only what a player reads is here."""
from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy as _

from gameplay.fog_of_war.board import KNOWN_PROVINCES

# key -> (name, help, {choice: label})
RULES = {
    "board_fixture": (_("Board map"), _("Without a map the players check adjacency and supply themselves."), {}),
    "card_fixture": (_("Card list"), _("Without a card list, card values are typed when cards are revealed."), {}),
    "wheel_positions": (_("Operations wheel marks"), _("Marks not entered are asked at launch."), {}),
    "supply_rules": (_("Supply"), _("How supply crosses seas and captured supply points."), {}),
    "exhausted_turn_mode": (
        _("A side whose deck has run out"),
        _("What a side does once it has no cards left to draw."),
        {"within_turns": _("Acts inside the other side's turns and must play a hand card"),
         "own_turns": _("Keeps taking its own turns"),
         "reduced": _("Own turns without hand cards (older reading)"),
         "full": _("Own turns in full")}),
    "new_year_draw": (
        _("Drawing at the new year"),
        _("How many cards each side takes when a new year starts."),
        {"up_to_3": _("Fill the hand up to 3"), "draw_3": _("Take 3 more"),
         "discard_hand_first": _("Discard the hand, then take 3")}),
    "allied_objective_peek": (
        _("Allies looking at the Axis objectives"),
        _("How the Allies see the three objectives lying by Morocco."),
        {"intel": _("Only with intel"), "free": _("Freely")}),
    "vp_scope": (
        _("Axis victory points"),
        _("Which Axis province cards in front of the player score."),
        {"all_in_front": _("Every province in front"), "conquered_only": _("Only conquered provinces")}),
    "vp_check_after_purchase": (
        _("Bought points can win"),
        _("Victory points bought at the year end count towards the 70-point win."), {}),
    "reinforcement_timing": (
        _("When reinforcements arrive"),
        _("Reinforcement cards join the losses pile at this moment of the year end."),
        {"after_year_advance": _("After the year changes"), "before_production": _("Before production")}),
    "special_set_entry": (
        _("American and Soviet cards"),
        _("Cards arriving at the year end go to the discard pile before the shuffle."),
        {"discard_before_shuffle": _("To the discard pile before the shuffle")}),
    "balkans_attack_means": (
        _("What counts as attacking the Balkans"),
        _("Which Axis operation against the Balkans in 1940 counts as an attack."),
        {"launched": _("A launched operation"), "created": _("An operation merely planned")}),
    "ussr_trigger": (
        _("When the USSR joins the war"),
        _("An Axis operation launched against a Soviet province brings the USSR in."),
        {"launch": _("At the launch of the operation")}),
    "late_supply_points": (
        _("Late supply sources"),
        _("The Urals and North America supply only once their country is at war."),
        {"on_entry": _("From the country's entry")}),
    "unsupplied_effects": (
        _("A province without supply"),
        _("What a province cut off from supply loses."),
        {"none": _("It only passes no supply on"), "no_income": _("It also gives no resources or points"),
         "origin_only": _("It only matters as a starting point (older reading)"),
         "origin_and_income": _("Starting point and no income (older reading)")}),
    "launch_supply_rule": (
        _("Supply check at launch"),
        _("Which province must be in supply when an operation is launched."),
        {"target": _("The path up to the target"), "target_and_origin": _("The target and the starting province"),
         "origin": _("Only the starting province (older reading)")}),
    "quagmire_trigger": (
        _("When a quagmire is fought again"),
        _("What forces a new battle in a quagmire province."),
        {"originator_reinforces": _("Only when the attacker reinforces it"),
         "every_originator_turn": _("Every turn of the attacker")}),
    "quagmire_neutral_losses": (
        _("Neutral cards lost in a quagmire"),
        _("Where neutral cards lost in a quagmire go."),
        {"defender_losses": _("To the defender's losses"), "removed": _("Out of the game")}),
    "quagmire_supply": (
        _("Supply and quagmires"),
        _("Whether a quagmire province still takes and gives supply."),
        {"no_through": _("Supply does not pass through, the province itself is supplied"),
         "blocks_fully": _("No supply in or out at all")}),
    "fort_at_sea": (
        _("A fort in a sea battle"),
        _("How a defender's fort card counts when the battle is at sea."),
        {"counts": _("It counts as on land"), "card_values": _("By its printed sea value")}),
    "quagmire_face_up": (
        _("Quagmire survivors face up"),
        _("Cards that survive a quagmire stay face up; reinforcements go face down."), {}),
    "no_card_rule": (
        _("A battle without a suitable card"),
        _("What happens when one side has no card that can fight there."),
        {"instant": _("Decided at once, bonuses ignored"), "compute": _("Counted as usual")}),
    "wins_selection": (
        _("Cards the winner keeps as wins"),
        _("Which cards the winner may put on the wins pile."),
        {"any_sufficient": _("Any set strong enough (the app suggests the smallest)"),
         "minimal_only": _("Only the smallest set")}),
    "intel_multi_end_of_turn": (
        _("Several intels at the end of a turn"),
        _("A side may spy more than once at the end of its turn, one token each."), {}),
    "intel_op_includes_target": (
        _("Spying on an operation shows its target"),
        _("An operation's stack seen by intel includes the target province's card."), {}),
    "intel_token_cap": (
        _("Most intel tokens"),
        _("The largest number of intel tokens a side may hold; empty means no limit."), {}),
    "production_cap": (
        _("Highest production level"),
        _("The top of the production track; empty means no limit."), {}),
    "piles_public": (
        _("Open discard, wins and losses"),
        _("Ticked, both players see the cards in these piles, not only how many."), {}),
    "neutral_deal": (
        _("Dealing the neutral cards"),
        _("How the 14 neutral cards reach their areas."),
        {"random": _("At random, one per area"), "fixture": _("As listed in your card list")}),
    "seas_pass": (
        _("Seas pass supply"),
        _("Sea provinces carry supply like land provinces."), {}),
    "captured_points_supply_captor": (
        _("Captured supply points"),
        _("A captured enemy supply point supplies the side that took it."), {}),
    "ussr_provinces": (
        _("Soviet provinces"),
        _("Provinces that count as the USSR's where your map does not mark them."), {}),
    "rules_edition": (
        _("Edition of these readings"),
        _("Edition 2 is used for new games; games begun before the corrections keep edition 1."), {}),
}


def name(key: str) -> str:
    return str(RULES[key][0]) if key in RULES else key.replace("_", " ")


def help_text(key: str) -> str:
    return str(RULES[key][1]) if key in RULES else ""


def choices(key: str, values) -> list[tuple]:
    labels = RULES.get(key, ("", "", {}))[2]
    return [(v, str(labels.get(v, v))) for v in values]


def value_text(key: str, value, lang: str) -> str:
    """A stored value as a player reads it."""
    if key == "supply_rules" and isinstance(value, dict):
        return "; ".join(f"{name(k)}: {value_text(k, v, lang)}" for k, v in value.items())
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("no limit") if key in ("intel_token_cap", "production_cap") else "—"
    if key == "ussr_provinces":
        i = 1 if lang == "en" else 0
        return ", ".join(KNOWN_PROVINCES[p][i] if p in KNOWN_PROVINCES else str(p) for p in value) or "—"
    if isinstance(value, (int, str)):
        labels = RULES.get(key, ("", "", {}))[2]
        return str(labels[value]) if value in labels else str(value).replace("_", " ")
    return gettext("entered")
