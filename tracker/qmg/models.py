"""QMG's projection of the log: the table as it stands, mirrored piece by piece and deck by deck.

``QmgTable`` holds the turn machine and the VP track, ``Piece`` the pieces on the board and
``CountryCards`` each country's deck/hand/discard counts and face-up statuses. They are rewritten
from the engine's ``Table`` by ``tracker.qmg.adapter`` whenever the log changes.
"""
from django.db import models
from django.utils.translation import gettext_lazy as _

from tracker.core.models import Game


class BoardVariant(models.Model):
    """A group's correction of the printed board: a patch file (see docs/qmg-engine.md, "Board variants")."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    patch = models.TextField(_("patch (YAML)"))
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name


class QmgTable(models.Model):
    game = models.OneToOneField(Game, related_name="qmg", on_delete=models.CASCADE)
    board_variant = models.ForeignKey(BoardVariant, null=True, blank=True, on_delete=models.PROTECT)
    round = models.PositiveSmallIntegerField(default=1)
    turn = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=20, default="play")
    played = models.CharField(max_length=30, blank=True, default="")
    vp_axis = models.IntegerField(default=0)
    vp_allies = models.IntegerField(default=0)
    end_reason = models.CharField(max_length=20, blank=True, default="")
    used = models.JSONField(default=list, blank=True)  # cards used this turn (once-per-turn limits)
    window = models.CharField(max_length=10, blank=True, default="")  # team to answer with a status/response
    window_passes = models.PositiveSmallIntegerField(default=0)
    attack = models.JSONField(null=True, blank=True)  # Air Marshal: the last battle, for air defence/strike
    vp_rounds = models.JSONField(default=list, blank=True)  # [[round, axis, allies], ...] after each round's moves


class Piece(models.Model):
    game = models.ForeignKey(Game, related_name="pieces", on_delete=models.CASCADE)
    country = models.CharField(max_length=20)
    kind = models.CharField(max_length=10)
    space = models.CharField(max_length=40)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["game", "country", "kind", "space"], name="piece_unique")]


class CountryCards(models.Model):
    game = models.ForeignKey(Game, related_name="country_cards", on_delete=models.CASCADE)
    country = models.CharField(max_length=20)
    deck = models.IntegerField()
    hand = models.IntegerField()
    discard = models.IntegerField()
    responses = models.IntegerField(default=0)  # face down: the public sees only the count
    statuses = models.JSONField(default=list)  # face up

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "country"], name="country_cards_unique")]
