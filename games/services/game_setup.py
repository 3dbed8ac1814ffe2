"""Setting a game up (docs/order-loop.md): the players' lines checked, the game, its seats and its opening.

`create_game` is the one way a game comes to be (the organiser's new-game form, the creategame and
loadscenario commands, createdemo, the bench): it refuses a table that cannot be played (H-SETUP)
with every problem at once, then writes the game, its seats and its opening events and mails every
player a welcome, in one transaction. The order loop itself is games/services/orders.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games import engine
from games.engine import data as engine_data
from games.engine.rng import seed_hash
from games.eventstore.store import append_events
from games.mail.turns import welcome_everyone
from games.models import DeadlineSettings, Game, Seat, SeatHolder
from games.projectors.seat_records import OPENINGS
from games.words.names import faction_name, faction_named, organiser_own_name

SETUP_ACTOR = "organiser"


class GameSetupError(ValueError):
    """A game that cannot be created as asked; `message` is fit to show the organiser."""

    def __init__(self, message: str, messages: list[str] | None = None) -> None:
        self.message = message
        self.messages = messages or [message]  # every problem found, the first being `message`
        super().__init__(message)


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    faction: str
    language: str | None = None
    time_zone: str = ""  # the player's own (an accepted invitation); "" follows the game's deadlines

    # A name, one address in angle brackets, then the rest: ":faction", read by `parse`.
    PATTERN = re.compile(r"^\s*(?P<name>[^<>]*?)\s*<(?P<email>[^<>]*)>\s*(?P<rest>[^<>]*?)\s*$")

    @classmethod
    def parse(cls, text: str, language: str | None = None) -> PlayerSpec:
        """Read "Ana <ana@example.com>:athens" (the organiser's form, the creategame command's
        --player). H-SETUP: the faction in any case, by its id or its name in English or German
        ("Athens", "Athen", "Korinth"); a line that cannot be read is refused with what is wrong.
        A name, address or faction that is read but not right is seat_problems' to name."""
        match = cls.PATTERN.match(text)
        if match is None and "<" not in text and ">" not in text:
            raise GameSetupError(
                _('Put the email address in angle brackets: "Name <email>:faction", not %(text)s.')
                % {"text": text}
            )
        if match is None:
            raise GameSetupError(
                _('Write one email address in angle brackets: "Name <email>:faction", not %(text)s.')
                % {"text": text}
            )
        before, _colon, faction = match["rest"].partition(":")
        if before or not faction.strip():
            raise GameSetupError(
                _('Name the faction after the address and a colon: "Name <email>:faction", not %(text)s.')
                % {"text": text}
            )
        faction = faction.strip()
        return cls(match["name"], match["email"].strip(), faction_named(faction) or faction, language)


def seat_problems(player: PlayerSpec) -> list[str]:
    """What is wrong with one player's line: its faction, name, address or language."""
    problems = []
    if player.faction not in engine_data.FACTIONS:
        known = ", ".join(faction_name(faction) for faction in engine_data.FACTION_IDS)
        problems.append(
            _("Unknown faction %(faction)s; choose from %(known)s.")
            % {"faction": player.faction, "known": known}
        )
    if not player.name.strip():
        problems.append(_("Every player needs a name."))
    name_length = Seat._meta.get_field("name").max_length
    if len(player.name.strip()) > name_length:  # the column's bound: longer was a server error
        problems.append(_("A player's name is at most %(n)s characters long.") % {"n": name_length})
    if not is_an_address(player.email):
        problems.append(_("%(email)s is not an email address.") % {"email": player.email})
    if player.language and player.language not in dict(settings.LANGUAGES):
        problems.append(_("Unknown language %(language)s.") % {"language": player.language})
    return problems


def is_an_address(email: str) -> bool:
    """An email address a seat can hold (RFC 5321's 254 characters, the column's bound too)."""
    try:
        validate_email(email)
    except ValidationError:
        return False
    return len(email) <= Seat._meta.get_field("email").max_length


def same_address(a: str, b: str) -> bool:
    """Two ways of writing one mailbox, as far as an organiser's typo goes (case does not count)."""
    return a.strip().casefold() == b.strip().casefold()


def table_problems(players: Sequence[PlayerSpec], seats: int | None = None) -> list[str]:
    """What is wrong with the players together: how many, and a faction or address given twice.

    One address for two seats is refused (the organiser audit): both seats' turn emails, reply
    addresses and links would reach one inbox, the players could not tell them apart, and
    docs/ names no case of one person playing two factions; it is almost always a typo.
    `seats`: how many seats were asked for, if some of them could not be read into `players`."""
    problems = []
    if not 2 <= (len(players) if seats is None else seats) <= 4:
        problems.append(_("A game has 2 to 4 players."))
    factions = [p.faction for p in players]
    if len(set(factions)) != len(factions):
        problems.append(_("Each faction can be played by one player only."))
    seen: list[str] = []
    twice: list[str] = []
    for player in players:
        if any(same_address(player.email, other) for other in seen) and not any(
            same_address(player.email, other) for other in twice
        ):
            twice.append(player.email)
            problems.append(
                _("%(email)s is given for two seats; each player needs their own address.")
                % {"email": player.email.strip()}
            )
        seen.append(player.email)
    return problems


def player_problems(players: Sequence[PlayerSpec]) -> list[str]:
    """Every problem of the players' list at once (the new-game form shows them all)."""
    return [problem for player in players for problem in seat_problems(player)] + table_problems(players)


def read_players(lines: Sequence[str]) -> tuple[list[PlayerSpec], list[tuple[int, str]]]:
    """The players' lines ("Name <email>:faction") read, with every problem at once (H-SETUP): the
    new-game form and the creategame and loadscenario commands. A problem is (n, what) for the
    n-th line (from 1), then (0, what) for the lines together; an unreadable line is a seat too."""
    players, problems = [], []
    for number, line in enumerate(lines, start=1):
        try:
            player = PlayerSpec.parse(line)
        except GameSetupError as error:
            problems.append((number, error.message))
        else:
            players.append(player)
            problems += [(number, problem) for problem in seat_problems(player)]
    problems += [(0, problem) for problem in table_problems(players, seats=len(lines))]
    return players, problems


def check_players(players: Sequence[PlayerSpec]) -> None:
    """Refuse a table that cannot be played (H-SETUP) with every problem at once (GameSetupError)."""
    problems = player_problems(players)
    if problems:
        raise GameSetupError(problems[0], problems)


def name_organiser(organiser: Any, name: str) -> None:
    """The organiser's name as the players will see it (the new-game forms), kept on their account's
    first name (last name emptied, so that it is the whole name); blank leaves them "the
    organiser" in the emails (words.names.organiser_name), never their address."""
    name = name.strip()
    if name != organiser_own_name(organiser):
        organiser.first_name, organiser.last_name = name, ""
        organiser.save(update_fields=["first_name", "last_name"])


def create_game(
    players: Sequence[PlayerSpec],
    language: str = "en",
    organiser: AbstractBaseUser | None = None,
    name: str = "",
    scenario: dict[str, Any] | None = None,
    deadlines: DeadlineSettings | None = None,
) -> Game:
    """Create a game, its seats and its opening events (H-SETUP); mail every player a welcome.

    With `scenario` (docs/scenarios.md) the game opens from that position instead of a new
    setup: its one opening event is ScenarioLoaded; the players must be the scenario's factions.
    `deadlines` (docs/long-games.md; unsaved, validated by the caller) are saved before the opening events,
    so the first deadline and the welcome emails already follow them.
    """
    check_players(players)
    if language not in dict(settings.LANGUAGES):
        raise GameSetupError(_("Unknown language %(language)s.") % {"language": language})
    with transaction.atomic():
        game = new_game_row(name, language, organiser, deadlines)
        seat_and_open(game, players, scenario)
    return game


def new_game_row(
    name: str, language: str, organiser: AbstractBaseUser | None, deadlines: DeadlineSettings | None
) -> Game:
    """The game's row (named "Game <id>" in the game's language when unnamed) and its deadline
    settings, inside the caller's transaction: no seat, no event yet (create_game, and a gathering
    game's start)."""
    game = Game.objects.create(name=name.strip(), language=language, organiser=organiser)
    if not game.name:  # in the game's language, as its emails and its players' pages mostly are
        with translation.override(language):
            game.name = _("Game %(id)s") % {"id": game.pk}
        game.save(update_fields=["name"])
    if deadlines is not None:
        deadlines.game = game
        deadlines.save()
    return game


def seat_and_open(
    game: Game,
    players: Sequence[PlayerSpec],
    scenario: dict[str, Any] | None = None,
    factions_drawn: engine.Event | None = None,
) -> None:
    """The seats, the opening events and the welcome emails of a game made already (H-SETUP): the end
    of `create_game`, and a gathered game's start (games/services/invitations.py), inside the
    caller's transaction, its players checked. `factions_drawn`: the gathered game's draw of its
    "random" seats' factions ("FactionsDrawn", engine/seat_draw.py), recorded in the opening. Each
    seat's holder is written with the opening (SeatHolder: whose record its turns are)."""
    for p in players:
        Seat.objects.create(
            game=game,
            faction=p.faction,
            name=p.name.strip(),
            email=p.email,
            language=p.language or game.language,
            time_zone=p.time_zone,
        )
    if scenario is None:
        factions = [p.faction for p in players]
        if factions_drawn is not None and engine.seated_factions(factions_drawn) != sorted(factions):
            raise ValueError("the factions drawn are not the seats' factions")  # a caller's mistake
        opening = engine.opening_recorded({"factions": factions}, game.seed, factions_drawn=factions_drawn)
    else:
        opening = [_scenario_opening(scenario, players, game)]
    rows = append_events(game, 0, opening, actor=SETUP_ACTOR)
    # Who holds each seat from the opening on (docs/front-door.md "Reliability"): the log names no address.
    since = next(row.seq for row in rows if row.type in OPENINGS)
    SeatHolder.objects.bulk_create(
        SeatHolder(game=game, faction=p.faction, since_seq=since, email=p.email) for p in players
    )
    state = engine.fold(opening)
    welcome_everyone(game, state, rows[-1].seq)


def _scenario_opening(spec: dict[str, Any], players: Sequence[PlayerSpec], game: Game) -> engine.Event:
    try:
        event = engine.scenario_loaded(spec, seed_hash(game.seed))
    except engine.ScenarioError as error:
        raise GameSetupError(
            _("The scenario is not a possible position: %(error)s") % {"error": error}
        ) from None
    if sorted(event.payload["state"]["seat_order"]) != sorted(p.faction for p in players):
        raise GameSetupError(_("Give exactly one player for each faction of the scenario."))
    return event


def players_or_problems(lines: list[str]) -> tuple[list[PlayerSpec], list[str]]:
    """creategame's and loadscenario's --player options read (read_players), each problem named
    by its option: '--player "Ben <ben@example.com>:rome": Unknown faction rome; ...',
    '--player: A game has ...'."""
    players, problems = read_players(lines)
    return players, [f'--player "{lines[n - 1]}": {p}' if n else f"--player: {p}" for n, p in problems]
