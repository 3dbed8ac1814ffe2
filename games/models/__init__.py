"""The games app's tables, one module per concern.

store: the append-only log (Game, Event, Snapshot). projections: read models rebuilt from
the log. Other modules (seats, ...) add one import line here.
"""

from .delivery import DeliveryProblem  # noqa: F401  (bounces and spam complaints)
from .frontdoor import Gathering, Invitation, SignInRequest, SubstituteOffer, SubstituteWanted  # noqa: F401  (front door)
from .long_games import DeadlineSettings, NotificationPreference, SeatClock, Vacation  # noqa: F401  (long games)
from .projections import GameSummary
from .published_heads import PublishedHead  # noqa: F401  (the daily public list of heads)
from .reliability import SeatHolder, SeatRecord  # noqa: F401  (who held a seat, and what they did)
from .seat_grants import SeatGrant  # noqa: F401  (the browsers a seat was opened in)
from .seats import GameProgress, Seat  # noqa: F401  (seats and the progress read model)
from .store import Event, Game, Snapshot

__all__ = ["Event", "Game", "GameSummary", "Snapshot"]
