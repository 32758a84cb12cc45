"""Models that mirror the physical table, and the append-only event log behind them.

The event log (``Event``) is the source of truth. ``Piece``, ``CountryCards`` and the
game's round/phase/VP fields are a projection of it, rewritten by ``tracker.services`` in
the same transaction that appends an event; replaying the log gives exactly this projection.
"""
import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    return secrets.token_urlsafe(24)


class BoardVariant(models.Model):
    """A group's correction of the printed board: a patch file (see README, "Board variants")."""

    name = models.CharField(_("name"), max_length=100, unique=True)
    patch = models.TextField(_("patch (YAML)"))
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.name


class Game(models.Model):
    QMG = "qmg"
    GENERALISSIMUS = "generalissimus"
    FOG_OF_WAR = "fog_of_war"
    KINDS = [(QMG, "Quartermaster General"), (GENERALISSIMUS, "Generalissimus"), (FOG_OF_WAR, "The Fog of War")]

    kind = models.CharField(max_length=20, choices=KINDS, default=QMG)
    name = models.CharField(_("name"), max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # bumped by every event; a move is applied only against the version its form was rendered with
    version = models.PositiveIntegerField(default=0)
    options = models.JSONField(default=dict)
    board_variant = models.ForeignKey(BoardVariant, null=True, blank=True, on_delete=models.PROTECT)
    host_token = models.CharField(max_length=64, unique=True, default=new_token)
    spectator_token = models.CharField(max_length=64, unique=True, default=new_token)
    # projection of the log: where the table stands
    round = models.PositiveSmallIntegerField(default=1)
    turn = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=20, default="play")
    played = models.CharField(max_length=30, blank=True, default="")
    vp_axis = models.IntegerField(default=0)
    vp_allies = models.IntegerField(default=0)
    winner = models.CharField(max_length=10, blank=True, default="")
    end_reason = models.CharField(max_length=20, blank=True, default="")
    used = models.JSONField(default=list, blank=True)  # cards used this turn (once-per-turn limits)
    window = models.CharField(max_length=10, blank=True, default="")  # team to answer with a status/response
    window_passes = models.PositiveSmallIntegerField(default=0)
    attack = models.JSONField(null=True, blank=True)  # Air Marshal: the last battle, for air defence/strike
    # projections of the log kept so that a page never has to read the whole log
    done_moves = models.JSONField(default=list, blank=True)  # seqs of the moves in effect
    undone_moves = models.JSONField(default=list, blank=True)  # seqs of undone moves that can be redone
    vp_rounds = models.JSONField(default=list, blank=True)  # [[round, axis, allies], ...] after each round's moves

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self):
        return self.name

    @property
    def finished(self) -> bool:
        return bool(self.winner)

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        if self.kind == self.QMG:
            return reverse("game", args=[self.pk])
        return reverse(f"{self.kind}:game", args=[self.pk])


class GameState(models.Model):
    """The projection of games whose engine state is one JSON value (Generalissimus, The Fog of War).

    QMG mirrors its table in Piece/CountryCards instead. Private parts of the state are filtered
    by the views per seat; the whole value never leaves the server.
    """

    game = models.OneToOneField(Game, related_name="json_state", on_delete=models.CASCADE)
    state = models.JSONField(default=dict)


class Seat(models.Model):
    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    player_name = models.CharField(_("player"), max_length=60)
    countries = models.JSONField(default=list)
    token = models.CharField(max_length=64, unique=True, default=new_token)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique")]

    def __str__(self):
        return f"{self.number}. {self.player_name}"


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


class Event(models.Model):
    """One entry of the append-only log. Undo and redo are events too: nothing is rewritten."""

    MOVE, UNDO, REDO, CREATE = "move", "undo", "redo", "create"
    KINDS = [(MOVE, "move"), (UNDO, "undo"), (REDO, "redo"), (CREATE, "create")]

    game = models.ForeignKey(Game, related_name="events", on_delete=models.CASCADE)
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=KINDS, default=MOVE)
    round = models.PositiveSmallIntegerField()
    country = models.CharField(max_length=20, blank=True, default="")
    phase = models.CharField(max_length=20, blank=True, default="")
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.SET_NULL)
    by_host = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    command = models.JSONField(default=dict)
    ops = models.JSONField(default=list)
    target = models.PositiveIntegerField(null=True, blank=True)  # the move an undo/redo refers to
    summary_ru = models.TextField(blank=True, default="")
    summary_en = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique")]


class PrivateNote(models.Model):
    """What only one seat may see: the identity of a face-down response, a note on its hand.

    Never exported, never rendered for another seat or a spectator.
    """

    RESPONSE, HAND = "response", "hand"
    KINDS = [(RESPONSE, "face-down response"), (HAND, "hand note")]

    game = models.ForeignKey(Game, related_name="private_notes", on_delete=models.CASCADE)
    seat = models.ForeignKey(Seat, related_name="private_notes", on_delete=models.CASCADE)
    country = models.CharField(max_length=20)
    kind = models.CharField(max_length=10, choices=KINDS)
    card_id = models.CharField(max_length=60, blank=True, default="")
    text = models.TextField(blank=True, default="")
    active = models.BooleanField(default=True)  # a used response is revealed and no longer private
    created_at = models.DateTimeField(auto_now_add=True)
