"""The Fog of War's named map and wheel files (``tracker.fog_of_war.models.FowMap``): a club's board and
wheel entered once in the editor, exported and imported as YAML, chosen at new game. A new table only."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tracker', '0003_hand_note_unique'),
    ]

    operations = [
        migrations.CreateModel(
            name='FowMap',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('map', 'map'), ('wheel', 'operations wheel')], default='map', max_length=10)),
                ('name', models.CharField(max_length=80, verbose_name='name')),
                ('text', models.TextField(verbose_name='file (YAML)')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('updated_at', models.DateTimeField(auto_now=True)),
            ],
            options={
                'ordering': ['kind', 'name'],
                'constraints': [models.UniqueConstraint(fields=('kind', 'name'), name='fow_map_name_unique')],
            },
        ),
    ]
