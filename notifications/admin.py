from django.contrib import admin

from .models import Outbox


@admin.register(Outbox)
class OutboxAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "game_id", "seq", "to_email", "status", "attempts", "sent_at")
    list_filter = ("status", "kind")
    readonly_fields = [f.name for f in Outbox._meta.fields]
