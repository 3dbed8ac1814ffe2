"""URLs of the order loop (issue 4): player pages, the JSON API, organiser pages, the dev mailbox."""

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
    path("play/<int:game_id>/<str:token>/", views_play.player_page, name="play"),
    # Issue 8: the Move cost preview the board picture asks for.
    path("play/<int:game_id>/<str:token>/move-cost", views_board.move_cost, name="move-cost"),
    # Issue 7: the history (before the issue-6 actions below, which take any word after the token).
    path("play/<int:game_id>/<str:token>/history/", views_history.player_history, name="play-history"),
    path("organiser/games/<int:game_id>/history/", views_history.organiser_history, name="organiser-history"),
    path("games/<int:game_id>/export.json", views_history.export, name="export"),
    path("api/games/<int:game_id>/state", views_api.state, name="api-state"),
    path("api/games/<int:game_id>/orders", views_api.orders, name="api-orders"),
    path("organiser/", views_organiser.game_list, name="organiser"),
    path("organiser/games/new/", views_organiser.new_game, name="organiser-new"),
    path("organiser/games/<int:game_id>/", views_organiser.game_detail, name="organiser-game"),
    # Issue 6: messages, vacations, preferences, unsubscribe, the organiser's deadline page.
    path("play/<int:game_id>/<str:token>/<str:action>/", views_long.player_action, name="play-action"),
    # A new link for a player whose link opens nothing (games/fresh_links.py).
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
