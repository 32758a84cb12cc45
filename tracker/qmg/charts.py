"""The VP track as a small SVG chart (no JavaScript, no external library): its geometry, drawn by the
partial ``vp-chart`` of templates/qmg/_game.html."""


def vp_chart(series, rounds: int = 20, labels=("Axis", "Allies"), title="VP") -> dict:
    """series: [(round, axis, allies), ...] starting at round 0."""
    w, h, pad = 320, 160, 28
    top = max([10] + [max(a, b) for _, a, b in series])
    bottom = min([0] + [min(a, b) for _, a, b in series])
    span = top - bottom or 1

    def xy(r, v):
        x = pad + (w - 2 * pad) * r / rounds
        y = h - pad - (h - 2 * pad) * (v - bottom) / span
        return f"{x:.1f},{y:.1f}"

    last = series[-1] if series else (0, 0, 0)
    return {"w": w, "h": h, "pad": pad, "low": h - pad, "right": w - pad, "top": top, "bottom": bottom,
            "number_x": pad - 4, "top_y": pad + 4, "rounds_y": h - pad + 14, "label_x": pad + 4, "label_y": pad - 10,
            "rounds": rounds, "title": title, "axis_label": labels[0], "allies_label": labels[1],
            "axis_points": " ".join(xy(r, a) for r, a, _ in series),
            "allies_points": " ".join(xy(r, b) for r, _, b in series),
            "axis_now": last[1], "allies_now": last[2]}
