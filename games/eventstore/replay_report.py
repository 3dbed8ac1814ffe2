"""What the replay of an export says to a person: the command line of `python -m
games.eventstore.replay EXPORT.json` and the words of its NOT CHECKED and OK lines, which
`manage.py verifygame` prints too (docs/fairness.md). The replay itself is games/eventstore/replay.py.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from games import engine
from games.eventstore.replay import LoggedEvent, ReplayReport, deciding, replay, rules_named


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m games.eventstore.replay EXPORT.json [--seed SEED]`: the rules' half of the check for anyone
    holding an export of an ended game (docs/fairness.md); the engine only, no Django, no database."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m games.eventstore.replay",
        description="Replay an AEGEAPOLIS export from its seed with the game's rules (docs/fairness.md).",
    )
    parser.add_argument("export", help="the export of an ended game (JSON)")
    parser.add_argument("--seed", help="the game's seed, if the export does not reveal it")
    args = parser.parse_args(argv)
    try:
        with open(args.export, encoding="utf-8") as handle:
            document = json.load(handle)
        events = [LoggedEvent(e["seq"], e["type"], e["payload"]) for e in document["events"]]
        seed = args.seed or document["game"].get("seed")
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"FAILED: {args.export} cannot be read as a game export ({error.__class__.__name__}: {error})")
        return 1
    if not seed:
        print("FAILED: the export carries no seed: the game has not ended (its seed is revealed at the end)")
        return 1
    if any(e.get("redacted") for e in document["events"]):
        print("FAILED: this export is redacted (hidden values read 'hidden'): take one after the game's end")
        return 1
    report = replay(events, seed)
    if report.problem is not None and report.failed:
        print(f"FAILED at seq {report.problem.seq}: {report.problem.reason}")
        print(
            "In plain words: from this event on, the log is not what the rules make of the players'"
            " orders and the seed: an event was changed, added, removed or moved."
        )
        return 1
    if report.not_checked:
        print("OK: the seed matches the published seed_hash, and every event of the log folds")
        print(not_checked_text(report))
        return 0
    print(
        f"OK: the rules, replayed from the seed, give exactly this log: {report.orders} orders and"
        f" {report.draws} draws{other_rules_note(report)}"
    )
    return 0


def not_checked_text(report: ReplayReport) -> str:
    """H-RULES-VERSION: what a report says when the replay differs from a batch of other rules."""
    problem = report.problem
    assert problem is not None
    return (
        f"NOT CHECKED: the rules' decisions from seq {problem.seq} on. The replay gives the log's events"
        f" for {report.orders} orders, then differs at seq {problem.seq} ({problem.reason}), whose order"
        f" was recorded under {rules_named(problem.rules_version)}; this engine implements rules version"
        f" {engine.RULES_VERSION} and replays exactly only versions {_decided_named()}, so it replayed that"
        f" order by rules version {deciding(problem.rules_version)}."
        " This may come from the change of the rules, not from tampering: replay"
        ' it with the project\'s code of that rules version to check it (docs/rules.md, "Rules versions")'
    )


def _decided_named() -> str:
    return " and ".join(", ".join(map(str, engine.DECIDED_VERSIONS)).rsplit(", ", 1))


def other_rules_note(report: ReplayReport) -> str:
    """H-RULES-VERSION: the OK line's note on a log of other rules, replayed exactly: by the versions it
    was recorded under, or, for rules the engine no longer decides, by this engine's giving the same."""
    if not report.other_rules:
        return ""
    named = ", ".join(rules_named(version) for version in report.rules_versions)
    if report.undecided_rules:
        oldest = engine.DECIDED_VERSIONS[0]
        return f" (recorded under {named}; this engine's rules version {oldest} gives the same)"
    return f" (recorded under {named}; each order decided again by the rules version it names)"
