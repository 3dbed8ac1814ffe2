"""URLs of the order loop: player pages (docs/operations.md "Links and the seat cookie"), the JSON API,
organiser pages, the dev mailbox. Every answer that shows or opens a seat (its pages, its JSON, its
export, the link's exchange) is sent with Cache-Control: no-store (`never_cache` on its view): a
shared device's back button must not show a seat again after sign-out."""

from django.urls import path

from games.web.views import (
    api,
    board,
    dev,
    frontdoor,
    gathering,
    history,
    links,
    log_heads,
    organiser,
    play,
    rules,
    seeking,
    table,
)

app_name = "games"

urlpatterns = [
    # A seat's pages, at token-free addresses opened by the seat cookie (games/web/seat_cookies.py).
    path("play/<int:game_id>/<int:seat_id>/", play.player_page, name="seat"),
    path("play/<int:game_id>/<int:seat_id>/move-cost", board.move_cost, name="seat-move-cost"),
    path("play/<int:game_id>/<int:seat_id>/history/", history.player_history, name="seat-history"),
    path("play/<int:game_id>/<int:seat_id>/export.json", history.seat_export, name="seat-export"),
    # Every browser's grant of the seat revoked (games/services/seat_grants.py).
    path(
        "play/<int:game_id>/<int:seat_id>/sign-out-everywhere/",
        frontdoor.seat_sign_out_everywhere,
        name="seat-sign-out-everywhere",
    ),
    # Messages, vacations, preferences and time zones from the page (any word after the seat).
    path("play/<int:game_id>/<int:seat_id>/<str:action>/", table.player_action, name="seat-action"),
    # The emailed link, and any page below it: the token is exchanged for the seat cookie.
    path("play/<int:game_id>/<str:token>/", links.open_link, name="play"),
    path("play/<int:game_id>/<str:token>/<path:rest>", links.open_link, name="play-rest"),
    path("organiser/games/<int:game_id>/history/", history.organiser_history, name="organiser-history"),
    path("games/<int:game_id>/export.json", history.export, name="export"),
    path("api/games/<int:game_id>/state", api.state, name="api-state"),
    path("api/games/<int:game_id>/orders", api.orders, name="api-orders"),
    path("organiser/", organiser.game_list, name="organiser"),
    path("organiser/games/new/", organiser.new_game, name="organiser-new"),
    path("organiser/games/<int:game_id>/", organiser.game_detail, name="organiser-game"),
    # A new link for a player whose link opens nothing (games/services/fresh_links.py).
    path("links/new/", links.new_link, name="new-link"),
    path("mail/unsubscribe/<str:token>/", table.unsubscribe_page, name="unsubscribe"),
    # The rulebook, one page per language; every rule an anchor (/rules/de/#S-MOVE).
    path("rules/", rules.rules, name="rules"),
    path("rules/<str:language>/", rules.rules_page, name="rules-page"),
    path(
        "organiser/games/<int:game_id>/deadlines/",
        table.organiser_deadlines,
        name="organiser-deadlines",
    ),
    # The front door (docs/front-door.md): sign-in by email, invitations, the lobby, profiles.
    path("sign-in/", frontdoor.sign_in, name="sign-in"),
    path("sign-in/<str:token>/", frontdoor.sign_in_link, name="sign-in-link"),
    path("sign-out/", frontdoor.sign_out, name="sign-out"),
    # A signed-in player's own seat: its page through a fresh link (games/reading/own_seats.py).
    path("your-seats/<int:seat_id>/", frontdoor.open_own_seat, name="own-seat"),
    path("organiser/games/gather/", gathering.new_gathering, name="organiser-gather"),
    path("organiser/games/<int:game_id>/players/", gathering.organiser_gathering, name="organiser-gathering"),
    path("invitation/<str:token>/", gathering.invitation, name="invitation"),
    path("lobby/", gathering.lobby, name="lobby"),
    path("lobby/<int:game_id>/", gathering.take_seat, name="lobby-take"),
    path("players/<int:user_id>/", frontdoor.profile, name="profile"),
    path("log-heads/", log_heads.log_heads, name="log-heads"),  # the published heads (public)
    path("lobby/seats/<int:wanted_id>/", seeking.offer_seat, name="lobby-substitute"),
    path(
        "organiser/games/<int:game_id>/substitutes/",
        seeking.organiser_substitutes,
        name="organiser-substitutes",
    ),
    path("dev/mailbox/", dev.mailbox, name="mailbox"),
    path("dev/mailbox/<str:name>", dev.mailbox_message, name="mailbox-message"),
]
