"""What every game has: the game, its seats, the append-only event log, its JSON state, private notes.

The event log (``Event``) is the source of truth. Each game's projection (where its table stands
now) is rewritten from it in the same transaction that appends an event: ``GameState`` for games
whose engine state is one JSON value, the mirror models of ``tracker/qmg/models.py`` for QMG.
Replaying the log gives exactly the projection.
"""
import secrets

from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Game(models.Model):
    QMG = "qmg"
    GENERALISSIMUS = "generalissimus"
    FOG_OF_WAR = "fog_of_war"
    KINDS = [(QMG, "Quartermaster General"), (GENERALISSIMUS, "Generalissimus"), (FOG_OF_WAR, "The Fog of War")]

    kind = models.CharField(max_length=20, choices=KINDS, default=QMG)
    name = models.CharField(_("name"), max_length=100)
    # set when the row is made, or given (an imported game keeps its recorded time)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)
    # bumped by every event; a move is applied only against the version its form was rendered with
    version = models.PositiveIntegerField(default=0)
    options = models.JSONField(default=dict)
    host_token = models.CharField(max_length=64, unique=True, default=new_token)
    spectator_token = models.CharField(max_length=64, unique=True, default=new_token)
    # bumped whenever a link to the game (host, spectator, a seat's) is replaced: the live streams opened with
    # the old one end (tracker.core.live)
    links_version = models.PositiveIntegerField(default=0)
    winner = models.CharField(max_length=10, blank=True, default="")  # '' while the game runs
    # projections of the log kept so that a page never has to read the whole log
    done_moves = models.JSONField(default=list, blank=True)  # seqs of the moves in effect
    undone_moves = models.JSONField(default=list, blank=True)  # seqs of undone moves that can be redone

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self):
        return self.name

    @property
    def finished(self) -> bool:
        return bool(self.winner)

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])


class GameState(models.Model):
    """The projection of a game whose engine state is one JSON value (Generalissimus, The Fog of War).

    Private parts of the state are removed per viewer by the engine's ``view_for``; the whole
    value never leaves the server.
    """

    game = models.OneToOneField(Game, related_name="json_state", on_delete=models.CASCADE)
    state = models.JSONField(default=dict)


class Seat(models.Model):
    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField()
    player_name = models.CharField(_("player"), max_length=60)
    countries = models.JSONField(default=list)  # the roles this seat plays: QMG countries or a side
    token = models.CharField(max_length=64, unique=True, default=new_token)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="seat_number_unique")]

    def __str__(self):
        return f"{self.number}. {self.player_name}"


class Event(models.Model):
    """One entry of the append-only log. Undo and redo are events too: nothing is rewritten.

    A move stores its command exactly as the engine accepted it (random parts already filled in),
    so replaying the commands in effect rebuilds the state (see ``tracker.core.log``).
    """

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
    created_at = models.DateTimeField(default=timezone.now, editable=False)  # or an imported event's recorded time
    command = models.JSONField(default=dict)
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

    class Meta:
        constraints = [
            # one hand note per seat and country: two first saves at once cannot both insert
            models.UniqueConstraint(fields=["game", "seat", "country", "kind"], condition=models.Q(kind="hand"),
                                    name="hand_note_unique"),
        ]
