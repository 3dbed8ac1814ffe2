from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import InboundMail, Outbox
from .services import retry_failed


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "game_id", "seq", "to_email", "status", "attempts", "sent_at")
    list_filter = ("status", "kind", "language")
    search_fields = ("to_email", "=game_id", "subject")
    date_hierarchy = "created"
    readonly_fields = [f.name for f in Outbox._meta.fields]
    actions = ["retry"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Send the selected failed emails again"))
    def retry(self, request: HttpRequest, queryset: QuerySet[Outbox]) -> None:
        count = retry_failed(queryset)
        message = ngettext("%(n)d email queued again.", "%(n)d emails queued again.", count) % {"n": count}
        self.message_user(request, message, messages.SUCCESS)


@admin.register(InboundMail)
class InboundMailAdmin(admin.ModelAdmin):
    """Emails received through the ESP's inbound webhook and what became of each (docs/email-orders.md)."""

    list_display = ("id", "received", "game_id", "seat_id", "outcome", "size")
    list_filter = ("outcome",)
    readonly_fields = [f.name for f in InboundMail._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
