"""One hand note per seat and country: a conditional unique constraint on ``PrivateNote`` (kind "hand").

Two first saves of the same note at the same moment could each insert a row (PostgreSQL), after which
every save for that seat failed. The duplicates are removed first, keeping each group's newest note
(the latest ``created_at``, then the highest id): the text its seat saw last.
"""
from django.db import migrations, models


def keep_the_newest_hand_note(apps, schema_editor):
    PrivateNote = apps.get_model("tracker", "PrivateNote")
    seen, duplicates = set(), []
    rows = (PrivateNote.objects.filter(kind="hand").order_by("-created_at", "-pk")
            .values_list("pk", "game_id", "seat_id", "country"))
    for pk, *key in rows.iterator():
        if tuple(key) in seen:
            duplicates.append(pk)
        else:
            seen.add(tuple(key))
    for start in range(0, len(duplicates), 500):  # bounded batches: the IN list stays small
        PrivateNote.objects.filter(pk__in=duplicates[start:start + 500]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("tracker", "0002_qmg_table_commands_log"),
    ]

    operations = [
        migrations.RunPython(keep_the_newest_hand_note, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="privatenote",
            constraint=models.UniqueConstraint(condition=models.Q(("kind", "hand")),
                                               fields=("game", "seat", "country", "kind"), name="hand_note_unique"),
        ),
    ]
