"""The admin's read-only pages' base (games/admin.py, games/admin_frontdoor.py): facts are seen,
never added, changed or deleted in the admin.

A module of its own, below both admin modules in .importlinter's layers, so that each imports it
and neither has to import the other for it (admin.py registers admin_frontdoor's pages by importing
it; the other way round would be a cycle).
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """An admin page that shows rows and offers no add, change or delete: events are facts and read
    models are derived from the log; every change goes through a service that records it."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
