"""Admin pages of the front door (docs/front-door.md): sign-in requests, gatherings, invitations,
substitutes sought and offered, who held each seat and what each holding did.

All read-only. Each row is a fact (a request asked, an answer given, a holder written with the
opening or a hand-over) or derived from the log (SeatRecord, which `rebuildprojections` rebuilds);
every change to them goes through a service that writes its email or event in the same
transaction, so none is made here. A seat's address is corrected on the seat's own page, which
corrects its present holder too (substitutes.address_edited). Registered by games/admin.py.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, Exists, OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.admin_readonly import ReadOnlyAdmin
from games.models import (
    Gathering,
    Invitation,
    SeatHolder,
    SeatRecord,
    SignInRequest,
    SubstituteOffer,
    SubstituteWanted,
)


@admin.register(SignInRequest)
class SignInRequestAdmin(ReadOnlyAdmin):
    """Sign-in links asked for; the token is never stored, so none is shown."""

    list_display = ["id", "email", "language", "created", "expires", "used"]
    list_filter = ["used", "expires", "language"]  # used: "No date" lists the links never spent
    search_fields = ["email"]
    date_hierarchy = "created"
    ordering = ["-created"]


@admin.register(Gathering)
class GatheringAdmin(ReadOnlyAdmin):
    list_display = ["game", "seats", "published", "began", "accepted"]
    list_filter = ["published", "began"]
    search_fields = ["=game__id", "game__name", "game__organiser__email"]
    list_select_related = ["game"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Gathering]:
        accepted = Invitation.objects.filter(game_id=OuterRef("game_id"), status=Invitation.Status.ACCEPTED)
        counted = accepted.order_by().values("game_id").annotate(n=Count("pk")).values("n")
        return super().get_queryset(request).annotate(accepted_count=Subquery(counted))

    @admin.display(description=_("accepted"), ordering="accepted_count")
    def accepted(self, gathering: Any) -> int:
        return gathering.accepted_count or 0


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["id", "game", "email", "faction", "status", "name", "created", "expires", "answered"]
    list_filter = ["status", "language", "faction", "reminders_sent"]
    search_fields = ["email", "name", "=game__id", "game__name"]
    list_select_related = ["game"]
    date_hierarchy = "created"


@admin.register(SubstituteWanted)
class SubstituteWantedAdmin(ReadOnlyAdmin):
    list_display = ["id", "seat", "created", "filled", "offer_count"]
    list_filter = ["filled", "seat__faction"]  # filled: "No date" lists the seats still sought
    search_fields = ["=seat__game__id", "seat__game__name", "seat__email", "seat__name"]
    list_select_related = ["seat"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[SubstituteWanted]:
        offers = SubstituteOffer.objects.filter(wanted_id=OuterRef("pk")).order_by().values("wanted_id")
        return (
            super()
            .get_queryset(request)
            .annotate(offers_made=Subquery(offers.annotate(n=Count("pk")).values("n")))
        )

    @admin.display(description=_("offers"), ordering="offers_made")
    def offer_count(self, wanted: Any) -> int:
        return wanted.offers_made or 0


@admin.register(SubstituteOffer)
class SubstituteOfferAdmin(ReadOnlyAdmin):
    list_display = ["id", "wanted", "email", "name", "created", "accepted"]
    list_filter = ["accepted", "wanted__filled"]
    search_fields = ["email", "name", "=wanted__seat__game__id"]
    list_select_related = ["wanted__seat"]


@admin.register(SeatHolder)
class SeatHolderAdmin(ReadOnlyAdmin):
    """Who held each seat from which event (written by the services; a rebuild keeps it)."""

    list_display = ["game", "faction", "since_seq", "email"]
    list_filter = ["faction"]
    search_fields = ["email", "=game__id", "game__name"]
    list_select_related = ["game"]


@admin.register(SeatRecord)
class SeatRecordAdmin(ReadOnlyAdmin):
    """What each holding of a seat did (read model): search by an address for its holdings."""

    list_display = [
        "game",
        "faction",
        "since_seq",
        "until_seq",
        "holder",
        "played",
        "finished",
        "orders_in_time",
        "orders_taken_back",
        "deadlines_missed",
        "vacations",
    ]
    list_filter = ["faction", "finished"]
    search_fields = ["=game__id", "game__name"]
    search_help_text = _("A game's number or name, or a player's email address.")
    list_select_related = ["game"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[SeatRecord]:
        return super().get_queryset(request).annotate(holder_email=Subquery(_holders().values("email")[:1]))

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[SeatRecord], search_term: str
    ) -> tuple[QuerySet[SeatRecord], bool]:
        """An address finds the holdings it held, whatever its case."""
        if "@" in search_term:
            return queryset.filter(Exists(_holders().filter(email__iexact=search_term.strip()))), False
        return super().get_search_results(request, queryset, search_term)

    @admin.display(description=_("holder"), ordering="holder_email")
    def holder(self, record: Any) -> str:
        return record.holder_email or "—"  # a holding no SeatHolder names (its game's from before them)


def _holders() -> QuerySet[SeatHolder]:
    """The SeatHolder row of the outer SeatRecord's holding."""
    return SeatHolder.objects.filter(
        game_id=OuterRef("game_id"), faction=OuterRef("faction"), since_seq=OuterRef("since_seq")
    )
