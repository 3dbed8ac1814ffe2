"""URLs of the order loop: player pages (docs/operations.md "Links and the seat cookie"), the JSON API,
organiser pages, the dev mailbox."""

from django.urls import path

from . import (
    views_api,
    views_board,
    views_dev,
    views_history,
    views_links,
    views_long,
    views_organiser,
    views_play,
)

app_name = "games"

urlpatterns = [
    # A seat's pages, at token-free addresses opened by the seat cookie (games/seat_cookies.py).
    path("play/<int:game_id>/<int:seat_id>/", views_play.player_page, name="seat"),
    path("play/<int:game_id>/<int:seat_id>/move-cost", views_board.move_cost, name="seat-move-cost"),
    path("play/<int:game_id>/<int:seat_id>/history/", views_history.player_history, name="seat-history"),
    path("play/<int:game_id>/<int:seat_id>/export.json", views_history.seat_export, name="seat-export"),
    # Messages, vacations, preferences and time zones from the page (any word after the seat).
    path("play/<int:game_id>/<int:seat_id>/<str:action>/", views_long.player_action, name="seat-action"),
    # The emailed link, and any page below it: the token is exchanged for the seat cookie.
    path("play/<int:game_id>/<str:token>/", views_links.open_link, name="play"),
    path("play/<int:game_id>/<str:token>/<path:rest>", views_links.open_link, name="play-rest"),
    path("organiser/games/<int:game_id>/history/", views_history.organiser_history, name="organiser-history"),
    path("games/<int:game_id>/export.json", views_history.export, name="export"),
    path("api/games/<int:game_id>/state", views_api.state, name="api-state"),
    path("api/games/<int:game_id>/orders", views_api.orders, name="api-orders"),
    path("organiser/", views_organiser.game_list, name="organiser"),
    path("organiser/games/new/", views_organiser.new_game, name="organiser-new"),
    path("organiser/games/<int:game_id>/", views_organiser.game_detail, name="organiser-game"),
    # A new link for a player whose link opens nothing (games/services/fresh_links.py).
    path("links/new/", views_links.new_link, name="new-link"),
    path("mail/unsubscribe/<str:token>/", views_long.unsubscribe_page, name="unsubscribe"),
    path(
        "organiser/games/<int:game_id>/deadlines/",
        views_long.organiser_deadlines,
        name="organiser-deadlines",
    ),
    path("dev/mailbox/", views_dev.mailbox, name="mailbox"),
    path("dev/mailbox/<str:name>", views_dev.mailbox_message, name="mailbox-message"),
]
