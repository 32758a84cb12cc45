"""Smoke test of the load benchmark: ``tests/load/loadtest.py --short`` runs end to end.

The script starts the production server itself (``manage.py serve --no-prepare`` on a free
127.0.0.1 port, a throw-away SQLite database) and stops it. The default mode is ``--push``: every
phone holds its game's event stream and refreshes when it announces a move. Only that it produced
figures and no errors is asserted — never a time: timings depend on the machine.
"""
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("loadtest.py")


def test_short_load_run_produces_figures_without_errors():
    run = subprocess.run([sys.executable, str(SCRIPT), "--short", "--tables", "3", "--seconds", "6",
                          "--baseline-seconds", "3"],
                         capture_output=True, text=True, timeout=240, cwd=SCRIPT.parents[2])
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert figures["tables_joined"] == figures["tables"] == 3
    assert figures["mode"] == "push" and figures["servers"] == 1
    assert figures["errors"] == 0, figures["error_samples"]
    kinds = figures["kinds"]
    for kind in ("refresh", "move", "ping", "all"):
        assert kinds[kind]["count"] > 0 and kinds[kind]["errors"] == 0, (kind, kinds[kind])
        assert kinds[kind]["p50_ms"] is not None and kinds[kind]["p95_ms"] is not None
    assert figures["moves_applied"] >= 1 and figures["throughput_rps"] > 0
    streams = figures["streams"]
    assert streams["opened"] == streams["wanted"] == 18 and streams["errors"] == 0, streams
    # every other phone of a table that moved saw the move, by its stream and its refresh
    assert figures["sees_move"]["all"]["count"] >= 5 and figures["sees_move"]["unseen"] == 0, figures["sees_move"]
    assert figures["stream_event"]["all"]["count"] >= 5
    assert figures["server_cpu_ms"]["per_move"] is not None
    assert "Load benchmark:" in run.stdout and "GET /ping/ baseline" in run.stdout
    assert "another phone sees the move" in run.stdout
