"""The replay and the stand-alone checks of a gathered game's "FactionsDrawn" (H-SETUP; docs/fairness.md),
on the engine's own opening, without a database: what each verifier catches, and the one thing only
the rules' replay can (that the factions drawn from are every faction nobody chose)."""

from __future__ import annotations

import copy
from itertools import count

from games import engine
from games.eventstore.replay import LoggedEvent, ReplayProblem, replay
from tools.verify_export import DrawChecker, Failed, batches, draw


def _opening(seed: str) -> list[dict]:
    drawn = engine.draw_factions(["athens"], 1, seed)
    factions = ["athens", *drawn.payload["drawn"]]
    opening = engine.opening_recorded({"factions": factions}, seed, factions_drawn=drawn)
    return [{"seq": seq, "type": e.type, "payload": e.payload} for seq, e in enumerate(opening, start=1)]


def _replayed(log: list[dict], seed: str) -> ReplayProblem | None:
    return replay([LoggedEvent(e["seq"], e["type"], e["payload"]) for e in log], seed).problem


def _script(log: list[dict], seed: str) -> Failed | None:
    checker = DrawChecker(seed)
    try:
        for position, batch in batches(log):
            checker.check(position, batch)
    except Failed as failure:
        return failure
    return None


def test_h_setup_the_opening_of_a_gathered_game_replays_and_its_faction_draw_is_checked():
    log = _opening("seed")
    assert log[1]["type"] == "FactionsDrawn"
    assert _replayed(log, "seed") is None and _script(log, "seed") is None


def test_h_setup_a_random_seat_count_changed_is_named_by_the_replay():
    log = _opening("seed")
    log[1]["payload"]["random_seats"] = 4  # five seats: no table (S-FAC)
    problem = _replayed(log, "seed")
    assert problem.seq == 2 and problem.reason.startswith("the factions drawn cannot be drawn again")
    assert _script(log, "seed").seq == 2  # one draw for four seats


def test_h_setup_a_pool_without_a_faction_nobody_chose_is_caught_by_the_rules_replay_only():
    """A forger drops a free faction from the pool and recomputes the draw from the seed for the
    smaller pool; where that still picks the faction drawn, the stand-alone script (which does not
    know the box's factions) passes it, and the rules' replay, drawing again from every faction
    nobody chose, names it. docs/fairness.md says so."""
    for n in count():
        seed = f"seed {n}"
        log = _opening(seed)
        record = log[1]["payload"]
        (drawn,) = record["drawn"]
        pool = [f for f in record["pool"] if f != drawn][:1] + [drawn]
        value, _counter = draw(seed, engine.SEAT_DRAW_POSITION, 0, 2)
        if sorted(pool)[value] == drawn:
            break
    forged = copy.deepcopy(log)
    forged[1]["payload"]["pool"] = sorted(pool)
    forged[1]["payload"]["draws"] = [["faction", 2, value]]

    assert _script(forged, seed) is None
    problem = _replayed(forged, seed)
    assert problem.seq == 2 and problem.reason == "FactionsDrawn: the payload differs from the replay's"
