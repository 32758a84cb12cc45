"""The redesign: QMG's projection leaves ``Game`` for ``QmgTable``; the log keeps commands only.

Every game now replays its log from the stored commands (``tracker.core.log``), so the QMG-only
``Event.ops`` column goes; the commands it was derived from stay. QMG's round, turn, phase, VP,
window, attack, VP-per-round and board variant move from ``Game`` to one ``QmgTable`` row per QMG
game, copied before the columns are dropped.
"""
import django.db.models.deletion
from django.db import migrations, models

MOVED = ("board_variant_id", "round", "turn", "phase", "played", "vp_axis", "vp_allies", "end_reason", "used",
         "window", "window_passes", "attack", "vp_rounds")


def copy_to_qmg_table(apps, schema_editor):
    Game = apps.get_model("tracker", "Game")
    QmgTable = apps.get_model("tracker", "QmgTable")
    QmgTable.objects.bulk_create(
        QmgTable(game_id=g.pk, **{f: getattr(g, f) for f in MOVED}) for g in Game.objects.filter(kind="qmg"))


def copy_back(apps, schema_editor):
    Game = apps.get_model("tracker", "Game")
    QmgTable = apps.get_model("tracker", "QmgTable")
    for t in QmgTable.objects.all():
        Game.objects.filter(pk=t.game_id).update(**{f: getattr(t, f) for f in MOVED})


class Migration(migrations.Migration):

    dependencies = [("tracker", "0001_initial")]

    operations = [
        migrations.CreateModel(
            name="QmgTable",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("round", models.PositiveSmallIntegerField(default=1)),
                ("turn", models.PositiveSmallIntegerField(default=0)),
                ("phase", models.CharField(default="play", max_length=20)),
                ("played", models.CharField(blank=True, default="", max_length=30)),
                ("vp_axis", models.IntegerField(default=0)),
                ("vp_allies", models.IntegerField(default=0)),
                ("end_reason", models.CharField(blank=True, default="", max_length=20)),
                ("used", models.JSONField(blank=True, default=list)),
                ("window", models.CharField(blank=True, default="", max_length=10)),
                ("window_passes", models.PositiveSmallIntegerField(default=0)),
                ("attack", models.JSONField(blank=True, null=True)),
                ("vp_rounds", models.JSONField(blank=True, default=list)),
                ("board_variant", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT,
                                                    to="tracker.boardvariant")),
                ("game", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="qmg",
                                              to="tracker.game")),
            ],
        ),
        migrations.RunPython(copy_to_qmg_table, copy_back),
        *[migrations.RemoveField(model_name="game", name=f.removesuffix("_id")) for f in MOVED],
        migrations.RemoveField(model_name="event", name="ops"),
    ]
