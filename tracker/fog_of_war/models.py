"""*The Fog of War*'s named map and wheel files: what a club enters once in the editor and shares.

One row per named file; ``text`` is the file as exported (YAML, the schema of
``gameplay/fog_of_war/mapdata.py``), checked by the engine before it is stored. A new game copies the
chosen file into its start, so editing a map later never changes a game already running.
"""
from django.db import models
from django.utils.translation import gettext_lazy as _


class FowMap(models.Model):
    MAP, WHEEL = "map", "wheel"
    KINDS = [(MAP, _("map")), (WHEEL, _("operations wheel"))]

    kind = models.CharField(max_length=10, choices=KINDS, default=MAP)
    name = models.CharField(_("name"), max_length=80)
    text = models.TextField(_("file (YAML)"))
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["kind", "name"]
        constraints = [models.UniqueConstraint(fields=["kind", "name"], name="fow_map_name_unique")]

    def __str__(self):
        return self.name
