"""The front door's emails (docs/front-door.md): sign-in links, invitations, their reminders, and the
organiser's notice of an answer.

Their links are secrets (a sign-in link signs its reader in; an invitation's accepts a seat in the
invited person's name), so the outbox row stores only which row a link is for (`links_of`); the link
is signed as the email is sent (`late_parts`, registered in games/mail_hooks.py), as a seat's links
are (games/mail/keys.py). A token is the row's id signed with the site's key and a salt per kind of
link: unforgeable, never stored, and worthless once its row is used, answered or expired.
The outbox keys: a sign-in is (0, 0, request id, "signin"); an invitation (game, 0, invitation id,
"invitation"); its n-th reminder (game, n, invitation id, "invite-remind"); the organiser's notice of
an answer (game, 0, invitation id, "invite-answer"); a substitute's offer to the organiser (game, 0, offer
id, "sub-offer").
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game, Invitation, SignInRequest, SubstituteOffer
from games.words.clock import zone_time
from games.words.names import faction_name, organiser_name, organiser_own_name
from games.words.table import UTC_ZONE
from notifications.hooks import LateParts
from notifications.models import Outbox
from notifications.services import enqueue

Status = Invitation.Status
KINDS = frozenset({"signin", "invitation", "invite-remind", "invite-answer", "sub-offer"})
SALTS = {"signin": "aegea.front-door.sign-in", "invitation": "aegea.front-door.invitation"}
NO_GAME = 0  # the outbox's game id of an email that belongs to no game (a sign-in link)


def token_for(kind: str, pk: int) -> str:
    """The link token of row `pk` of `kind` ("signin", "invitation")."""
    return signing.Signer(salt=SALTS[kind]).sign(str(pk))


def row_of_token(kind: str, token: str) -> int | None:
    """The row id a token of `kind` names, or None for a token that is not ours (forged, mistyped)."""
    try:
        return int(signing.Signer(salt=SALTS[kind]).unsign(token))
    except (signing.BadSignature, ValueError):
        return None


def is_front_door_row(outbox_id: int) -> bool:
    """Whether an outbox row is a front-door email: its `seat_id` names a sign-in request or an
    invitation, not a seat, so a delivery report about it is no seat's delivery problem."""
    return Outbox.objects.filter(pk=outbox_id, kind__in=KINDS).exists()


def _url(name: str, token: str) -> str:
    return f"{settings.SITE_URL}{reverse(name, args=[token])}"


def late_parts(row: Any) -> LateParts:
    """The links of a front-door email, signed as it is sent (the outbox's late_parts hook)."""
    links = row.context.get("links_of")
    if not isinstance(links, dict):
        return LateParts()
    if "signin" in links:
        return LateParts({"link": _url("games:sign-in-link", token_for("signin", int(links["signin"])))})
    token = token_for("invitation", int(links["invitation"]))
    return LateParts({"link": _url("games:invitation", token)})


def mail_sign_in(request: SignInRequest) -> None:
    """The one-time sign-in link to `request.email`, in the language it was asked in."""
    with translation.override(request.language):
        minutes = round((request.expires - request.created).total_seconds() / 60)
        context = {
            "game_name": _("Sign in"),
            "greeting": _("Hello,"),
            "subject": _("Your sign-in link · AEGEAPOLIS"),
            "paragraphs": [
                _("Follow this link to sign in to AEGEAPOLIS. It works once, for %(minutes)s minutes.")
                % {"minutes": minutes},
                _("If you did not ask for it, ignore this email: nothing happens without the link."),
            ],
            "link_label": _("Sign in"),
            "links_of": {"signin": request.pk},
            # Not a seat's link (emails/_base.html's default footer): a sign-in link's own truth. Its
            # time and "ignore it" are said once, above, where the reader decides to follow it.
            "footer_note": _("This sign-in link only signs you in: do not share it."),
        }
    _enqueue(NO_GAME, 0, request.pk, "signin", request.email, request.language, context)


def mail_invitation(invitation: Invitation, reminder: int = 0) -> None:
    """The invitation (or its `reminder`-th reminder) in the invitation's language (the organiser's
    choice for this address, the game's by default): who asks (the organiser's name, else "the
    organiser", never their address: words.names.organiser_name), the game's pace, and one link to
    a page that accepts or declines."""
    game = invitation.game
    language = invitation.language or game.language
    with translation.override(language):
        named = organiser_own_name(game.organiser)
        lines = [
            _("%(organiser)s invites you to play AEGEAPOLIS, a board game by email, in the game %(game)s.")
            % {"organiser": organiser_name(game.organiser), "game": game.name},
            _("Follow the link to accept (you choose your name, language and time zone) or to decline."),
            _("The invitation lapses on %(date)s.") % {"date": zone_time(invitation.expires, UTC_ZONE)},
        ]
        if reminder:
            lines.insert(0, _("A reminder: your answer to this invitation is still missing."))
        context = {
            "game_name": game.name,
            "greeting": _("Hello,"),
            "subject": (
                _("An invitation from %(organiser)s · %(game)s") % {"game": game.name, "organiser": named}
                if named
                else _("An invitation from the organiser · %(game)s") % {"game": game.name}
            ),
            "paragraphs": lines,
            "link_label": _("Accept or decline"),
            "links_of": {"invitation": invitation.pk},
            "footer_note": _(
                "This link is your invitation: do not share it. It answers for your address until you"
                " answer or the invitation lapses."
            ),
        }
    kind = "invite-remind" if reminder else "invitation"
    _enqueue(game.pk, reminder, invitation.pk, kind, invitation.email, language, context)


def mail_answer_to_organiser(game: Game, invitation: Invitation, lobby: bool = False) -> None:
    """Tell the organiser that an invitation was accepted, declined or lapsed, or (`lobby`) that
    someone took an open seat in the lobby (no organiser or no address: nobody to tell). The subject
    is one whole sentence of its own, "AEGEAPOLIS <game>: ..." as every front-door email's."""
    organiser = game.organiser
    if organiser is None or not organiser.email:
        return
    status = Invitation.Status(invitation.status)
    with translation.override(game.language):
        values = {"who": invitation.name or invitation.email, "game": game.name}
        if lobby:
            subject = _("%(who)s took an open seat · %(game)s") % values
            said = [_("%(who)s took an open seat of %(game)s in the lobby.") % values]
        else:
            subject = {
                Status.ACCEPTED: _("%(who)s accepted the invitation · %(game)s"),
                Status.DECLINED: _("%(who)s declined the invitation · %(game)s"),
                Status.LAPSED: _("The invitation of %(who)s lapsed · %(game)s"),
            }[status] % values
            said = [
                {
                    Status.ACCEPTED: _("%(who)s accepted the invitation to %(game)s."),
                    Status.DECLINED: _("%(who)s declined the invitation to %(game)s."),
                    Status.LAPSED: _("The invitation of %(who)s to %(game)s lapsed."),
                }[status]
                % values
            ]
            if status != Status.ACCEPTED:
                said.append(_("The seat is free again: invite someone else, or begin with who accepted."))
        context = {
            "game_name": game.name,
            "greeting": _("Hello,"),
            "subject": subject,
            "paragraphs": said,
            "plain_link": f"{settings.SITE_URL}{reverse('games:organiser-game', args=[game.pk])}",
            "link_label": _("Open the game"),
            "footer_note": _("The link opens your game's page once you are signed in."),
        }
    _enqueue(game.pk, 0, invitation.pk, "invite-answer", organiser.email, game.language, context)


def mail_offer_to_organiser(game: Game, offer: SubstituteOffer) -> None:
    """Tell the organiser that someone offers to take over a seat sought in the lobby."""
    organiser = game.organiser
    if organiser is None or not organiser.email:
        return
    with translation.override(game.language):
        values = {"who": offer.name, "faction": faction_name(offer.wanted.seat.faction), "game": game.name}
        said = _("%(who)s offers to take over %(faction)s in %(game)s.") % values
        context = {
            "game_name": game.name,
            "greeting": _("Hello,"),
            "subject": _("%(who)s offers to take over %(faction)s · %(game)s") % values,
            "paragraphs": [
                said,
                _("Their record and the button that hands them the seat are on the game's page."),
            ],
            "plain_link": f"{settings.SITE_URL}{reverse('games:organiser-substitutes', args=[game.pk])}",
            "link_label": _("Open the game"),
            "footer_note": _("The link opens your game's page once you are signed in."),
        }
    _enqueue(game.pk, 0, offer.pk, "sub-offer", organiser.email, game.language, context)


def _enqueue(
    game_id: int, seq: int, row_id: int, kind: str, to: str, language: str, context: dict[str, Any]
) -> None:
    """One front-door email's outbox row: `row_id` (a sign-in request's, an invitation's) in the
    seat's place of the outbox's key (see the module's docstring)."""
    enqueue(
        game_id=game_id,
        seq=seq,
        seat_id=row_id,
        kind=kind,
        to_email=to,
        language=language,
        template="frontdoor",
        context=context,
    )
