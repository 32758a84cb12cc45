"""The VP track as a small SVG chart (no JavaScript, no external library)."""
from html import escape


def vp_chart_svg(series, rounds: int = 20, labels=("Axis", "Allies"), title="VP") -> str:
    """series: [(round, axis, allies), ...] starting at round 0."""
    w, h, pad = 320, 160, 28
    top = max([10] + [max(a, b) for _, a, b in series])
    bottom = min([0] + [min(a, b) for _, a, b in series])
    span = top - bottom or 1

    def xy(r, v):
        x = pad + (w - 2 * pad) * r / rounds
        y = h - pad - (h - 2 * pad) * (v - bottom) / span
        return f"{x:.1f},{y:.1f}"

    axis_pts = " ".join(xy(r, a) for r, a, _ in series)
    allies_pts = " ".join(xy(r, b) for r, _, b in series)
    last = series[-1] if series else (0, 0, 0)
    return (
        f'<svg class="vp-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title>{escape(title)}</title>'
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - pad}" y2="{h - pad}" stroke="#888"/>'
        f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{h - pad}" stroke="#888"/>'
        f'<text x="{pad - 4}" y="{pad + 4}" font-size="10" text-anchor="end">{top}</text>'
        f'<text x="{pad - 4}" y="{h - pad}" font-size="10" text-anchor="end">{bottom}</text>'
        f'<text x="{w - pad}" y="{h - pad + 14}" font-size="10" text-anchor="end">{rounds}</text>'
        f'<polyline class="vp-axis" points="{axis_pts}" fill="none" stroke="#444" stroke-width="2.5"/>'
        f'<polyline class="vp-allies" points="{allies_pts}" fill="none" stroke="#b3261e" stroke-width="2.5" '
        f'stroke-dasharray="6 3"/>'
        f'<text x="{pad + 4}" y="{pad - 10}" font-size="11" fill="#444">{escape(labels[0])}: {last[1]}</text>'
        f'<text x="{w - pad}" y="{pad - 10}" font-size="11" fill="#b3261e" text-anchor="end">'
        f'{escape(labels[1])}: {last[2]}</text>'
        "</svg>"
    )
