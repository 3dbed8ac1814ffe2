"""Admin pages for operators. Events are facts: visible, never added, changed or deleted here.

Read models (GameSummary) and snapshots are derived from the log, so they are read-only too.
The secret seed is never shown (H-END reveals it in the last event). Operators can verify
games (hash chain and replay, docs/fairness.md), download the full export and withdraw a
seat's links. Changing a seat's address withdraws its links (substitutes.address_edited).
The front door's pages (sign-in requests, invitations, seat holders and records) are
games/admin_frontdoor.py's.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import admin_frontdoor  # noqa: F401  (the front door's pages register themselves)
from games.admin_readonly import ReadOnlyAdmin
from games.engine import RULES_VERSION
from games.eventstore.verification import GameVerification, verify_game
from games.models import DeliveryProblem, Event, Game, GameSummary, Seat, Snapshot
from games.reading.export import export_game
from games.reading.links import revoke_links
from games.services.substitutes import address_edited


class SeatInline(admin.TabularInline):
    model = Seat
    fields = ["faction", "name", "email", "language", "token_version"]
    readonly_fields = ["faction", "token_version"]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "status", "language", "organiser", "created", "history_links"]
    list_filter = ["status", "language", "organiser"]
    search_fields = ["name", "=id", "seats__email", "seats__name"]
    readonly_fields = ["status", "created"]
    date_hierarchy = "created"
    inlines = [SeatInline]
    actions = ["verify", "export"]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        for seat_form in formset.forms:
            if isinstance(seat_form.instance, Seat) and "email" in seat_form.changed_data:
                _address_edited(self, request, seat_form.instance, seat_form.initial.get("email", ""))

    @admin.display(description=_("history"))
    def history_links(self, game: Game) -> str:
        events = reverse("admin:games_event_changelist") + f"?game__id__exact={game.pk}"
        page = reverse("games:organiser-history", args=[game.pk])
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a>', events, _("events"), page, _("page"))

    @admin.action(description=_("Verify the selected games (hash chain and replay from the seed)"))
    def verify(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        for game in queryset.order_by("pk"):
            report = verify_game(game)
            if report.ok:
                text = _("Game %(id)s: %(n)s events verified.") % {"id": game.pk, "n": report.chain.events}
                self.message_user(request, text, messages.SUCCESS)
            elif report.not_checked:
                self.message_user(request, _not_checked_words(game, report), messages.WARNING)
            else:
                problem = report.problem
                assert problem is not None
                values = {"id": game.pk, "seq": problem.seq, "reason": problem.reason}
                self.message_user(
                    request, _("Game %(id)s BROKEN at seq %(seq)s: %(reason)s") % values, messages.ERROR
                )

    @admin.action(description=_("Download the full export of one game (docs/export.md)"))
    def export(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        if queryset.count() != 1:
            self.message_user(request, _("Choose exactly one game to export."), messages.WARNING)
            return None
        game = queryset.get()
        response = JsonResponse(export_game(game, None, full=True), json_dumps_params={"ensure_ascii": False})
        response["Content-Disposition"] = f'attachment; filename="aegeapolis-game-{game.pk}-full.json"'
        return response


def _not_checked_words(game: Game, report: GameVerification) -> str:
    """H-RULES-VERSION: where the replay differs from a batch of other rules, the game is not
    checked against the rules, not broken (docs/fairness.md)."""
    assert report.replay is not None and report.replay.problem is not None
    version = report.replay.problem.rules_version
    values = {
        "id": game.pk,
        "n": report.chain.events,
        "recorded": _("unknown") if version is None else version,
        "current": RULES_VERSION,
        "seq": report.replay.problem.seq,
    }
    return (
        _(
            "Game %(id)s: %(n)s events, hash chain and seed intact. NOT CHECKED against the rules from"
            " seq %(seq)s on: the replay differs there from an order recorded under rules version"
            " %(recorded)s (this server's is %(current)s), which may come from the change of the rules."
        )
        % values
    )


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "faction", "name", "email", "language", "token_version"]
    list_filter = ["faction", "language"]
    search_fields = ["name", "email", "=game__id"]
    list_select_related = ["game"]
    fields = ["game", "faction", "name", "email", "language", "token_version", "created"]
    readonly_fields = ["game", "faction", "token_version", "created"]
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # seats come with their game (create_game)

    def save_model(self, request: HttpRequest, obj: Seat, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if change and "email" in form.changed_data:
            _address_edited(self, request, obj, form.initial.get("email", ""))

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.action(description=_("Withdraw every link of the selected seats"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[Seat]) -> None:
        for seat in queryset:
            revoke_links(seat)
        count = queryset.count()
        message = ngettext("%(n)d seat's links withdrawn.", "%(n)d seats' links withdrawn.", count) % {
            "n": count
        }
        self.message_user(request, message, messages.SUCCESS)


def _address_edited(admin_page: admin.ModelAdmin, request: HttpRequest, seat: Seat, old_email: str) -> None:
    if address_edited(seat, old_email):
        admin_page.message_user(
            request,
            _(
                "%(seat)s has a new address: the links mailed to the old one no longer work. The next"
                " email to the seat carries its new link."
            )
            % {"seat": seat},
            messages.WARNING,
        )


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "type", "actor", "created"]
    list_filter = ["type", "game__status"]
    search_fields = ["type", "actor", "=game__id"]
    list_select_related = ["game"]
    ordering = ["game_id", "seq"]
    date_hierarchy = "created"
    fields = [
        "game",
        "seq",
        "type",
        "actor",
        "created",
        "schema_version",
        "pretty_payload",
        "prev_hash",
        "hash",
    ]
    readonly_fields = fields

    @admin.display(description=_("payload"))
    def pretty_payload(self, event: Event) -> str:
        text = json.dumps(event.payload, indent=2, sort_keys=True, ensure_ascii=False)
        return format_html("<pre>{}</pre>", text)


@admin.register(Snapshot)
class SnapshotAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "created"]


@admin.register(GameSummary)
class GameSummaryAdmin(ReadOnlyAdmin):
    list_display = ["game", "status", "last_seq", "updated"]
    list_filter = ["status"]


@admin.register(DeliveryProblem)
class DeliveryProblemAdmin(ReadOnlyAdmin):
    """Bounces and spam complaints as the ESP reported them (games/services/delivery_problems.py)."""

    list_display = ["seat", "email", "kind", "event", "first_at", "reports", "resolution"]
    list_filter = ["kind", "resolution"]
    search_fields = ["email", "description"]
