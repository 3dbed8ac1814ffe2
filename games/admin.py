"""Admin pages. Events are facts: visible, never added, changed or deleted here.

Read models (GameSummary) and snapshots are derived from the log, so they are read-only too.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Event, Game, GameSummary, Snapshot


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "status", "language", "organiser", "created"]
    list_filter = ["status", "language"]
    search_fields = ["name"]
    readonly_fields = ["status", "created"]


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "type", "actor", "created"]
    list_filter = ["type"]
    search_fields = ["type", "actor"]
    list_select_related = ["game"]
    ordering = ["game_id", "seq"]


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "created"]


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnlyAdmin):
    list_display = ["game", "status", "last_seq", "updated"]
    list_filter = ["status"]
