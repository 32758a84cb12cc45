"""The map's view as a player sees it, in Chromium (no Django here: also used by ``map_home.py`` on any checkout):
a space's box and the map's on the screen, and the drags a player needs to bring a space wholly into the map."""
import math

DRAG = 200  # px: a thumb's drag across a 360 px phone
HOMES = {"germany": "germany", "united_kingdom": "united_kingdom", "japan": "japan", "soviet_union": "moscow",
         "italy": "italy", "united_states": "eastern_us"}
BOX = "(el) => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"


def space_box(page, space):
    return page.locator(f'svg.board-svg g.space[data-space="{space}"] .shape').first.evaluate(BOX)


def map_box(page):
    return page.locator("svg.board-svg").first.evaluate(BOX)


def inside(box, frame):
    return (box["x"] >= frame["x"] - 0.5 and box["y"] >= frame["y"] - 0.5
            and box["x"] + box["w"] <= frame["x"] + frame["w"] + 0.5 and box["y"] + box["h"] <= frame["y"] + frame["h"] + 0.5)


def drags_to_reach(page, space, limit=12):
    """Drags of the map (200 px each, toward the space) until the space is wholly on the map."""
    for n in range(limit + 1):
        box, frame = space_box(page, space), map_box(page)
        if inside(box, frame):
            return n
        cx, cy = frame["x"] + frame["w"] / 2, frame["y"] + frame["h"] / 2
        dx, dy = cx - (box["x"] + box["w"] / 2), cy - (box["y"] + box["h"] / 2)
        d = math.hypot(dx, dy) or 1
        step = min(DRAG, d)
        page.mouse.move(cx, cy)
        page.mouse.down()
        for i in range(1, 6):
            page.mouse.move(cx + dx / d * step * i / 5, cy + dy / d * step * i / 5)
        page.mouse.up()
        page.wait_for_timeout(400)  # the end of a drag is not a tap
    raise AssertionError(f"{space}: not reached in {limit} drags")
