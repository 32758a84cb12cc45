"""Who plays which countries with 2–6 players (the rulebook's table of player distribution)."""

DEFAULT_SEATING = {
    2: [["germany", "italy", "japan"], ["united_kingdom", "soviet_union", "united_states"]],
    3: [["germany", "italy"], ["united_kingdom", "soviet_union", "united_states"], ["japan"]],
    4: [["germany", "italy"], ["united_kingdom", "united_states"], ["japan"], ["soviet_union"]],
    5: [["germany", "italy"], ["united_kingdom"], ["japan"], ["soviet_union"], ["united_states"]],
    6: [["germany"], ["united_kingdom"], ["japan"], ["soviet_union"], ["italy"], ["united_states"]],
}
