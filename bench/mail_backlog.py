"""10,000 game emails, measured whole (`make bench`, part "backlog").

bench_mail's game-email figures time ~500 and ~1,000 emails and extrapolate to 10,000: the cold
one multiplies the workers' first drawings (each tile's face; the palette and the empty boards
are drawn as a worker starts, games/board/png.warm_up) twentyfold. Here the backlog is the
issue's whole 10,000: the emails of ~57 games that differently seeded bots play through
submit_order, one order of each game in turn (the backlog mixes the games as many games running
at once write it), held until two worker processes are started afresh (none of these games'
tiles drawn), then released at once and timed until every row is sent.
"""

from __future__ import annotations

import random
from pathlib import Path

from aegea_pbem.celery import app as celery_app
from bench.figures import Figure
from bench.mail import AFRESH, BASE_DIR, started_workers, stop_workers, timed_backlog
from bench.orders import PLAYERS, bench_organiser
from games.engine.simulation import players_to_act, random_legal_command
from games.models import Game
from games.reading.situation import load_game
from games.services.game_setup import create_game
from games.services.orders import submit_order
from notifications.models import Outbox

FIRST_SEED = 100  # other bots than the recordings of the other benches (seeds 1-9)
GAMES_AT_ONCE = 20  # games played in turn (a new one starts as one ends) while the backlog grows


def play_until(emails: int, games_at_once: int = GAMES_AT_ONCE) -> int:
    """Games played by seeded random bots, `games_at_once` at a time, one order of each in turn,
    until their emails number at least `emails`; every game started is played to its end (its last
    emails are the end's). Returns the number of games."""
    playing: list[tuple[Game, dict[str, object], random.Random]] = []
    started = 0
    while playing or Outbox.objects.count() < emails:
        while len(playing) < games_at_once and Outbox.objects.count() < emails:
            game = create_game(PLAYERS, name=f"bench backlog {started}", organiser=bench_organiser())
            seats = {seat.faction: seat for seat in game.seats.all()}
            playing.append((game, seats, random.Random(FIRST_SEED + started)))
            started += 1
        for entry in list(playing):
            game, seats, bot = entry
            loaded = load_game(game)
            waiting = players_to_act(loaded.state)
            if not waiting:
                playing.remove(entry)
                continue
            faction = bot.choice(waiting)
            command = random_legal_command(loaded.state, faction, bot)
            assert command is not None, f"{faction} must act but has no legal order"
            submit_order(game, seats[faction], command, loaded.seq)
    return started


def bench_game_backlog(
    emails: int = 10_000, workers: int = 2, log_dir: Path = BASE_DIR / "var"
) -> list[Figure]:
    """The game emails of a backlog of `emails` rows, sent by `workers` worker processes started
    for it afresh (none of these games' tiles drawn): the time for all of them, measured, not extrapolated."""
    Outbox.objects.all().delete()
    games = play_until(emails)
    # The backlog is the first `emails` rows: the games still in play when it was reached wrote more.
    past = Outbox.objects.order_by("id").values_list("id", flat=True)[emails : emails + 1].first()
    if past is not None:
        Outbox.objects.filter(id__gte=past).delete()
    held = Outbox.objects.all()
    held.update(status=Outbox.Status.FAILED)
    celery_app.control.purge()  # the orders' own nudges: the timed workers start from nothing queued
    procs = started_workers(workers, log_dir)
    try:
        return timed_backlog("game_emails_backlog", held, games, procs, AFRESH)
    finally:
        stop_workers(procs)
        celery_app.control.purge()
