#!/usr/bin/env python3
"""Check an AEGEAPOLIS game export with nothing but Python's standard library (docs/fairness.md).

    python3 verify_export.py aegeapolis-game-7.json [--seed SEED] [--pinned EARLIER.json]
                             [--witness EMAIL.eml MAILBOX.mbox HEADS.txt ...]

Checks, and names the first event that fails:
  1. the hash chain: seqs 1, 2, 3... without gaps, each prev_hash the hash before it, each hash
     the SHA-256 of the event's canonical JSON (events marked "redacted" are linked but their
     content cannot be recomputed: their payload is not the one that was hashed);
  2. the seed: SHA-256(seed) is the seed_hash published in the first event, and it is the seed
     revealed in GameEnded (the seed comes from the export once the game has ended, or --seed);
  3. every draw: each RandomnessDrawn lists (label, bound n, value); each value is recomputed from
     HMAC-SHA256(seed, "<position>:<counter>") with the same rejection sampling as the server;
     its position is the seq of its batch's OrderGiven (0 for the opening); a gathered game's
     FactionsDrawn (the factions of the seats that asked for a random one) likewise at position -1;
  4. the draws against what the events show, where no rule is needed: the dice of every
     BattleFought round are exactly the batch's die draws, in order; the opening's seat order is
     the Fisher-Yates shuffle of the sorted factions by its seat draws; every tile drawn from the
     deck (tracked from GameStarted's deck: tiles leave it only by a draw) is the tile the events
     name; the number of coin and card draws is the number of coins and cards the events say
     were drawn; each sealed winter order's salt is the batch's salt draws; the factions drawn
     for "random" seats are the picks of the faction draws from the sorted factions nobody
     chose, and with those chosen they are the factions of GameStarted;
  5. sealed winter orders: each order revealed equals its commitment published when it was sealed;
     one sealed again names the commitment it supersedes (only the last seal is revealed), and each
     order taken back (OrderTakenBack) is the one right before it, by the same player, and drew nothing;
  6. with --pinned EARLIER.json (an export downloaded before the end, whose hashes were withheld
     and pinned): every pin in it is HMAC-SHA256(seed, "aegeapolis-export-pin:" + hash) of the same
     event of this export, so the log is the one the earlier export was cut from;
  7. with --witness FILE... (saved emails, .eml or mbox, or text with pasted heads such as
     "Log 431·c3f09a2e1b2c3d4e…" or an X-Aegea-Log-Head header): the log passes through every head
     the server told the player, i.e. the pin of event 431 is the one witnessed (a head names the
     pin, HMAC-SHA256(seed, "aegeapolis-export-pin:" + hash), not the hash: docs/fairness.md).
Before the end a reader's export withholds the hashes (they would give away what is redacted):
only its seq order is checked, and it is worth keeping for step 6.
What only `manage.py verifygame` proves (it replays the rules): that each batch is exactly what
the rules make of its order, e.g. who won a battle with those dice, which coins an income paid.
None of the checks above needs the rules, so they hold for a game of any rules version; the
script names the versions the opening and the orders record, those to replay the game with.
Exit status 0 when every check passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import email
import hashlib
import hmac
import json
import mailbox
import os
import re
import sys
from email import policy
from typing import Any

SUPPORTED_VERSIONS = (1, 2)  # 2: before the end, hashes withheld and pinned
GENESIS_HASH = "0" * 64
HASHED_FIELDS = ("actor", "created", "payload", "prev_hash", "schema_version", "seq", "type")
PIN_LABEL = "aegeapolis-export-pin:"
SEAT_DRAW_POSITION = -1  # a gathered game's "random" factions (FactionsDrawn): no batch's position


class Failed(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        self.seq = seq
        super().__init__(f"seq {seq}: {reason}")


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(game_id: int, event: dict[str, Any]) -> str:
    document = {name: event[name] for name in HASHED_FIELDS}
    document["game"] = game_id
    return hashlib.sha256(canonical_json(document).encode("utf-8")).hexdigest()


def check_chain(game_id: int, events: list[dict[str, Any]]) -> int:
    """Returns how many events were redacted (linked, but their content not recomputable)."""
    prev, redacted = GENESIS_HASH, 0
    for expected_seq, event in enumerate(events, start=1):
        if event["seq"] != expected_seq:
            raise Failed(expected_seq, f"event {expected_seq} is missing")
        if event["prev_hash"] != prev:
            raise Failed(event["seq"], "prev_hash does not match the event before")
        if event.get("redacted"):
            redacted += 1
        elif event_hash(game_id, event) != event["hash"]:
            raise Failed(event["seq"], "hash does not match its content")
        prev = event["hash"]
    return redacted


def withheld(events: list[dict[str, Any]]) -> bool:
    """Whether this export's hashes are withheld (a reader's export before the end)."""
    return any(event.get("hash") is None for event in events)


def check_seqs(events: list[dict[str, Any]]) -> int:
    """The seqs of an export without hashes; returns how many events were redacted."""
    for expected_seq, event in enumerate(events, start=1):
        if event["seq"] != expected_seq:
            raise Failed(expected_seq, f"event {expected_seq} is missing")
    return sum(1 for event in events if event.get("redacted"))


def pin(seed: str, event_hash: str) -> str:
    return hmac.new(seed.encode(), (PIN_LABEL + event_hash).encode(), hashlib.sha256).hexdigest()


def check_pins(document: dict[str, Any], seed: str, pinned: dict[str, Any]) -> int:
    """Every pin of an earlier export matches the same event of this one. Returns how many."""
    if pinned.get("game", {}).get("id") != document["game"]["id"]:
        raise Failed(0, "the pinned export is of another game")
    by_seq = {event["seq"]: event for event in document["events"]}
    if not any("pin" in event for event in pinned.get("events", [])):
        raise Failed(
            0,
            "the earlier export has no pins: it was downloaded after the game ended (check it"
            " on its own), or it is not an export from before the end",
        )
    checked = 0
    for event in pinned["events"]:
        if "pin" not in event:
            continue
        ours = by_seq.get(event["seq"])
        if ours is None:
            raise Failed(event["seq"], "the pinned export has an event this log lacks")
        if not hmac.compare_digest(pin(seed, ours["hash"]), event["pin"]):
            raise Failed(event["seq"], "the event differs from the one the earlier export pinned")
        checked += 1
    return checked


# A witnessed head: the header's form, or the footer's "431·c3f09a2e1b2c3d4e…" (16 to 64 hex digits).
HEAD_HEADER = "X-Aegea-Log-Head"
Witness = tuple[int | None, int, str, str]  # (game or None, seq, pin or its first digits, where it came from)
HEADER_FORM = re.compile(r"game=(\d+);\s*seq=(\d+);\s*pin=([0-9a-f]{64})")
SHORT_FORM = re.compile(r"\b(\d+)\s*[·.:]\s*([0-9a-f]{16,64})")


def witnesses_in(text: str, source: str) -> list[Witness]:
    """(game or None, seq, pin or its first digits, source) of every head written in `text`."""
    found = [(int(g), int(s), pin, source) for g, s, pin in HEADER_FORM.findall(text)]
    if not found:
        found = [(None, int(s), pin, source) for s, pin in SHORT_FORM.findall(text)]
    return found


def _email_witnesses(message: email.message.Message, source: str) -> list[Witness]:
    """An email's head: its header, else (a client that dropped headers) the footer of its text."""
    source = f"{source} ({message.get('Subject', 'no subject')}, {message.get('Date', 'no date')})"
    found = [w for value in message.get_all(HEAD_HEADER, []) for w in witnesses_in(str(value), source)]
    if found:
        return found
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            found += witnesses_in(part.get_content(), source)
    return found


def _parsed(handle: Any) -> email.message.Message:
    return email.message_from_binary_file(handle, policy=policy.default)


def read_witnesses(paths: list[str]) -> list[Witness]:
    """Every head in the files: saved emails (.eml), mailboxes (mbox), or text with pasted heads;
    an argument that is no file is read as a pasted head itself."""
    found: list[Witness] = []
    for path in paths:
        if not os.path.isfile(path):
            found += witnesses_in(path.lower(), "a head given on the command line")
            continue
        with open(path, "rb") as handle:
            raw = handle.read()
        if raw.startswith(b"From "):
            for message in mailbox.mbox(path, factory=_parsed):
                found += _email_witnesses(message, path)
        elif re.match(rb"[A-Za-z-]+:", raw) and b"\n\n" in raw.replace(b"\r\n", b"\n"):
            found += _email_witnesses(email.message_from_bytes(raw, policy=policy.default), path)
        else:
            found += witnesses_in(raw.decode("utf-8", "replace").lower(), path)
    if not found:
        raise Unreadable('the witnesses given hold no head of a log (no X-Aegea-Log-Head, no "Log N·…")')
    return found


def check_witnesses(game_id: int, pins: dict[int, str], witnesses: list[Witness]) -> tuple[int, int]:
    """Every head witnessed for this game is on the log: its seq there, the pin of that event the
    witnessed one. `pins`: seq -> pin of the log checked. Returns (heads checked, of other games)."""
    checked = others = 0
    last = max(pins, default=0)
    for game, seq, pin, source in sorted(witnesses, key=lambda w: w[1]):
        if game is not None and game != game_id:
            others += 1
            continue
        if seq not in pins:
            raise Failed(seq, f"the log ends at seq {last}, before the head witnessed in {source}")
        if not pins[seq].startswith(pin):
            raise Failed(seq, f"the log does not pass through the head witnessed in {source}")
        checked += 1
    return checked, others


def draw(seed: str, position: int, counter: int, n: int) -> tuple[int, int]:
    """One randbelow(n) of the server's GameRng: (value, next counter)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        message = f"{position}:{counter}".encode()
        counter += 1
        value = int.from_bytes(hmac.new(seed.encode(), message, hashlib.sha256).digest()[:8], "big")
        if value < limit:
            return value % n, counter


def published_seed_hash(first: dict[str, Any]) -> str | None:
    payload = first["payload"]
    return payload.get("seed_hash") or payload.get("state", {}).get("seed_hash")


def check_seed(document: dict[str, Any], events: list[dict[str, Any]], seed: str | None) -> str | None:
    ended = [e for e in events if e["type"] == "GameEnded"]
    revealed = ended[0]["payload"].get("seed") if ended else None
    seed = seed or revealed or document.get("game", {}).get("seed")
    if seed is None:
        return None
    if hashlib.sha256(seed.encode()).hexdigest() != published_seed_hash(events[0]):
        raise Failed(
            events[0]["seq"], "SHA-256 of the seed is not the seed_hash published in the first event"
        )
    if ended and revealed != seed:
        raise Failed(ended[0]["seq"], "GameEnded reveals another seed")
    return seed


def batches(events: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """(position, events) of the opening (position 0) and of each order (its OrderGiven's seq)."""
    out: list[tuple[int, list[dict[str, Any]]]] = [(0, [])]
    for event in events:
        if event["type"] == "OrderGiven":
            out.append((event["seq"], []))
        out[-1][1].append(event)
    return out


class DrawChecker:
    """Rechecks every batch's draws against the seed and against the events of the batch (steps 3
    and 4). They need no rules, so they hold for a game of any rules version: `manage.py
    verifygame` runs this very class over the database's log (games/eventstore/verification.py)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.deck: list[str] | None = None
        self.draws = 0

    def check(self, position: int, batch: list[dict[str, Any]]) -> None:
        self._factions_drawn(position, batch)
        records = [e for e in batch if e["type"] == "RandomnessDrawn"]
        if not records:
            if position and batch:
                raise Failed(batch[0]["seq"], "this order's batch has no RandomnessDrawn")
            return
        if len(records) > 1:
            raise Failed(records[1]["seq"], "a second RandomnessDrawn in one batch")
        record = records[0]
        if record["payload"]["position"] != position:
            raise Failed(
                record["seq"],
                f"draws at position {record['payload']['position']}, the batch is at {position}",
            )
        draws = record["payload"]["draws"]
        if not isinstance(draws, list):
            raise Failed(record["seq"], "the draws are hidden in this export")
        counter = 0
        for index, (label, n, value) in enumerate(draws):
            expected, counter = draw(self.seed, position, counter, n)
            if value != expected:
                raise Failed(record["seq"], f"draw {index} ({label}) is {value}; the seed gives {expected}")
        self.draws += len(draws)
        self._against_events(record["seq"], batch, draws)

    def _factions_drawn(self, position: int, batch: list[dict[str, Any]]) -> None:
        """A gathered game's "random" seats' factions (FactionsDrawn, in the opening only): its draws
        recomputed from the seed at SEAT_DRAW_POSITION, one per random seat, each an index into the
        factions left of its sorted pool (the factions nobody chose), and the game's factions those
        chosen and drawn. That the pool holds every faction nobody chose is the rules' (verifygame)."""
        records = [e for e in batch if e["type"] == "FactionsDrawn"]
        if not records:
            return
        record = records[-1]
        seq, payload = record["seq"], record["payload"]
        if position or len(records) > 1:
            raise Failed(seq, "FactionsDrawn outside the game's opening, or twice")
        if payload["position"] != SEAT_DRAW_POSITION:
            raise Failed(seq, f"faction draws at position {payload['position']}, not {SEAT_DRAW_POSITION}")
        draws, chosen, pool = payload["draws"], payload["chosen"], payload["pool"]
        counter = 0
        for index, (label, n, value) in enumerate(draws):
            expected, counter = draw(self.seed, SEAT_DRAW_POSITION, counter, n)
            if value != expected:
                raise Failed(seq, f"faction draw {index} ({label}) is {value}; the seed gives {expected}")
        if pool != sorted(set(pool)) or set(pool) & set(chosen) or len(set(chosen)) != len(chosen):
            raise Failed(seq, "the factions drawn from are not the factions nobody chose, sorted")
        if len(draws) != payload["random_seats"] or any(d[0] != "faction" for d in draws):
            raise Failed(seq, f"{len(draws)} faction draws for {payload['random_seats']} random seats")
        left, drawn = list(pool), []
        for _label, n, value in draws:
            if n != len(left):
                raise Failed(seq, "faction draw from a pool of another size than the factions left")
            drawn.append(left.pop(value))
        if drawn != payload["drawn"]:
            raise Failed(seq, f"the factions drawn are {payload['drawn']}; the faction draws give {drawn}")
        started = [e["payload"]["seat_order"] for e in batch if e["type"] == "GameStarted"]
        if not started or sorted([*chosen, *drawn]) != sorted(started[0]):
            raise Failed(seq, "the game's factions (GameStarted) are not the factions chosen and drawn here")
        self.draws += len(draws)

    def _against_events(self, seq: int, batch: list[dict[str, Any]], draws: list[list[Any]]) -> None:
        of = {
            label: [d for d in draws if d[0] == label]
            for label in ("die", "coin", "tile", "card", "seat", "salt")
        }
        dice = [
            die
            for e in batch
            if e["type"] == "BattleFought"
            for r in e["payload"]["rounds"]
            for die in r["dice"]
        ]
        if dice != [value + 1 for _label, _n, value in of["die"]]:
            raise Failed(_first(batch, "BattleFought", seq), "the dice shown are not the batch's die draws")
        incomes = [e["payload"] for e in batch if e["type"] == "IncomeReceived"]
        # H-FACTION (rules version 2 on): Thebes' economy draws its coins apart from the Poleis' coins.
        coins = sum(
            sum(p["coins"].values()) + sum(p.get("economy", {}).get("coins", {}).values()) for p in incomes
        )
        coins += sum(sum(e["payload"]["treasure"].values()) for e in batch if e["type"] == "PolisFounded")
        cards = sum(1 for e in batch if e["type"] == "MissionCardDrawn")
        for event in batch:
            if event["type"] == "GameStarted":
                self._seat_order(event, of["seat"])
                self.deck = list(event["payload"]["deck"])
                coins += sum(sum(n["treasure"].values()) for n in event["payload"]["neutrals"])
                cards += sum(len(hand) for hand in event["payload"].get("mission_hands", {}).values())
            elif event["type"] == "ScenarioLoaded":
                self.deck = list(event["payload"]["state"]["deck"])
        if len(of["coin"]) != coins:
            raise Failed(seq, f"{len(of['coin'])} coin draws, but the events show {coins} coins drawn")
        if len(of["card"]) != cards:
            raise Failed(seq, f"{len(of['card'])} card draws, but the events show {cards} cards drawn")
        self._tiles(seq, batch, of["tile"])
        self._salts(batch, of["salt"])

    def _seat_order(self, started: dict[str, Any], draws: list[list[Any]]) -> None:
        order = sorted(started["payload"]["seat_order"])
        values = iter(value for _label, _n, value in draws)
        for i in range(len(order) - 1, 0, -1):
            j = next(values)
            order[i], order[j] = order[j], order[i]
        if order != started["payload"]["seat_order"]:
            raise Failed(started["seq"], "the seat order is not the shuffle its draws give")

    def _tiles(self, seq: int, batch: list[dict[str, Any]], draws: list[list[Any]]) -> None:
        named = []
        for event in batch:
            payload = event["payload"]
            if event["type"] == "GameStarted":
                named += [n["tile"] for n in payload["neutrals"]]
            elif event["type"] == "PolisFounded" and payload.get("source") == "deck":
                named.append(payload["tile"])
            elif event["type"] == "ChoiceTilesDrawn":
                named += [t for t, s in zip(payload["tiles"], payload["sources"], strict=True) if s == "deck"]
            elif event["type"] in ("FirstTileDrawn", "SecondTileDrawn") and payload["source"] == "deck":
                named.append(payload["tile"])  # H-CHOICE-STEP: one tile at a time
        drawn = []
        for _label, n, value in draws:
            if self.deck is None or n != len(self.deck):
                raise Failed(seq, "a tile was drawn from a deck of another size than the log's")
            drawn.append(sorted(self.deck)[value])
            self.deck.remove(drawn[-1])
        if drawn != named:
            raise Failed(seq, f"the tiles drawn from the deck are {drawn}; the events name {named}")

    def _salts(self, batch: list[dict[str, Any]], draws: list[list[Any]]) -> None:
        values = iter(f"{value:016x}" for _label, _n, value in draws)
        for event in batch:
            if event["type"] == "WinterOrderSealed" and "salt" in event["payload"]:
                salt = next(values, "") + next(values, "")
                if event["payload"]["salt"] != salt:
                    raise Failed(event["seq"], "the sealed order's salt is not its batch's salt draws")


# What a log without the shape the server writes raises in the checks above.
MALFORMED = (KeyError, TypeError, ValueError, IndexError, StopIteration, AttributeError)


def _first(batch: list[dict[str, Any]], event_type: str, default: int) -> int:
    return next((e["seq"] for e in batch if e["type"] == event_type), default)


REVEALED_FIELDS = ("coins", "blanks", "mission_card", "card_coins", "card_blanks")


def commitment(order: dict[str, Any], salt: str) -> str:
    return hashlib.sha256(canonical_json({"order": order, "salt": salt}).encode("utf-8")).hexdigest()


def check_sealed_orders(events: list[dict[str, Any]]) -> int:
    """Every revealed order matches the commitment published when it was sealed (the last seal: one
    sealed again names the commitment it supersedes). Returns how many."""
    sealed: dict[str, dict[str, Any]] = {}
    checked = 0
    for event in events:
        payload = event["payload"]
        if event["type"] == "WinterOrderSealed" and "supersedes" in payload:
            before = sealed.get(payload["player"])
            if before is None or before["payload"].get("commitment") != payload["supersedes"]:
                raise Failed(event["seq"], "the order sealed again supersedes no commitment of its player")
        if event["type"] == "WinterOrderSealed" and "commitment" in payload:
            if "salt" in payload:  # unredacted: the commitment must be the order's own
                own = {name: payload.get(name) for name in REVEALED_FIELDS}
                if commitment(own, payload["salt"]) != payload["commitment"]:
                    raise Failed(event["seq"], "the commitment is not the sealed order's")
            sealed[payload["player"]] = event
        elif event["type"] == "WinterOrdersRevealed":
            for faction, salt in payload.get("salts", {}).items():
                if faction not in sealed:
                    raise Failed(event["seq"], f"{faction}'s order is revealed but was never sealed")
                if commitment(payload["orders"][faction], salt) != sealed[faction]["payload"]["commitment"]:
                    raise Failed(event["seq"], f"{faction}'s revealed order differs from the one sealed")
                checked += 1
            sealed = {}
    return checked


def check_take_backs(events: list[dict[str, Any]]) -> int:
    """Every OrderTakenBack takes back the batch right before it: of its player, at its order_seq,
    and (where the draws are shown) with nothing drawn. Returns how many."""
    checked = 0
    for _position, batch in batches(events):
        taken = [e for e in batch if e["type"] == "OrderTakenBack"]
        if not taken:
            continue
        given, back = batch[0], taken[0]
        if len(taken) > 1 or given["type"] != "OrderGiven":
            raise Failed(back["seq"], "the order taken back is not the one right before it")
        if (back["payload"]["order_seq"], back["payload"]["player"]) != (
            given["seq"],
            given["payload"]["player"],
        ):
            raise Failed(back["seq"], "the order taken back is not the one right before it")
        for record in (e for e in batch if e["type"] == "RandomnessDrawn"):
            if isinstance(record["payload"]["draws"], list) and record["payload"]["draws"]:
                raise Failed(back["seq"], "an order taken back had drawn at random")
        checked += 1
    return checked


def verify(
    document: dict[str, Any],
    seed: str | None = None,
    pinned: dict[str, Any] | None = None,
    witnesses: list[Witness] | None = None,
) -> list[str]:
    """Every check in order; returns what was proven, raises Failed at the first bad event."""
    if document.get("format") != "aegeapolis-event-log" or document.get("version") not in SUPPORTED_VERSIONS:
        raise Failed(0, "not an AEGEAPOLIS export of a version this script knows")
    events = document["events"]
    if not events:
        return ["the log is empty"]
    if withheld(events):
        if pinned is not None:
            raise Failed(0, "pins are checked against an export of the ended game, not one without hashes")
        redacted = check_seqs(events)
        proven = [
            f"{len(events)} events in seq order ({redacted} redacted); hashes withheld until the game ends,"
            " keep this file to check its pins then (--pinned)"
        ]
    else:
        redacted = check_chain(document["game"]["id"], events)
        proven = [
            f"hash chain intact over {len(events)} events"
            f" ({redacted} redacted: linked, content not recomputable)"
        ]
    seed = check_seed(document, events, seed)
    if pinned is not None:
        if seed is None:
            raise Failed(0, "pins are checked with the seed: the game has not ended (or pass --seed)")
        proven.append(f"{check_pins(document, seed, pinned)} events pinned by the earlier export match")
    if witnesses is not None:
        proven.append(_witnessed(document, events, seed, witnesses))
    if seed is None:
        proven.append(
            "NOT YET CHECKED: the dice and draws; the seed is revealed when the game ends (or pass --seed)"
        )
    elif redacted:
        proven.append("seed matches the published seed_hash")
        proven.append("NOT CHECKED: the dice and draws, because this export is redacted")
    else:
        checker = DrawChecker(seed)
        for position, batch in batches(events):
            checker.check(position, batch)
        proven.append(f"seed matches the published seed_hash; {checker.draws} draws re-derived and matched")
    proven.append(f"{check_sealed_orders(events)} sealed winter orders match their commitments")
    taken_back = check_take_backs(events)
    if taken_back:  # H-TAKEBACK (rules version 3 on)
        proven.append(f"{taken_back} orders taken back, each right after it was given, drew nothing")
    if seed is not None and not redacted:
        proven.append(not_checked_here(events))
    return proven


def _witnessed(
    document: dict[str, Any],
    events: list[dict[str, Any]],
    seed: str | None,
    witnesses: list[Witness],
) -> str:
    """Step 7: the pins recomputed from the hashes and the seed; before the end, the export's own pins."""
    if seed is not None and not withheld(events):
        pins = {event["seq"]: pin(seed, event["hash"]) for event in events}
        how = "recomputed from the hashes and the seed"
    elif withheld(events):
        pins = {event["seq"]: event["pin"] for event in events if isinstance(event.get("pin"), str)}
        how = "compared with the server's own pins: check again after the end, when the seed is revealed"
    else:
        raise Failed(0, "witnessed heads are checked with the seed: the game has not ended (or pass --seed)")
    checked, others = check_witnesses(document["game"]["id"], pins, witnesses)
    if not checked:
        raise Failed(0, "none of the witnessed heads is of this game")
    other = f"; {others} of other games left aside" if others else ""
    return f"the log passes through all {checked} witnessed heads ({how}){other}"


def rules_versions(events: list[dict[str, Any]]) -> list[int | None]:
    """The rules versions the opening and the orders name, in order (None: one names none)."""
    versions: list[int | None] = []
    for event in events:
        if event["type"] in ("GameStarted", "ScenarioLoaded", "OrderGiven"):
            version = event["payload"].get("rules_version")
            version = version if isinstance(version, int) and not isinstance(version, bool) else None
            if version not in versions:
                versions.append(version)
    return versions


def not_checked_here(events: list[dict[str, Any]]) -> str:
    """What the script leaves to the rules' replay, with the rules version to replay it with."""
    versions = rules_versions(events)
    if versions == [None]:
        code = "the project's code of the game's time (its log names no rules version)"
    elif len(versions) == 1:
        code = f"the project's code of rules version {versions[0]}, the one this game was recorded under"
    else:
        named = ", ".join("none" if v is None else str(v) for v in versions)
        code = f"the project's code of each rules version its orders name ({named})"
    return (
        "NOT CHECKED HERE: that the rules were applied to these draws (who won each battle, which coins"
        " and cards the draws picked, the scores, that every order was allowed);"
        f" `python -m games.eventstore.replay EXPORT.json` in {code} checks that"
        ' (docs/fairness.md; docs/rules.md, "Rules versions")'
    )


# What a failure means, in plain words, by the start of its reason; the first match counts.
MEANINGS = (
    ("not an AEGEAPOLIS export", "This file is not a game export (or one too new for this script)."),
    ("event ", "An event is missing: events were removed from the log, or the file was cut short."),
    ("prev_hash", "The log was changed here: an event was altered, removed, added or moved."),
    ("hash does not match", "This event was changed after the server recorded it."),
    ("SHA-256 of the seed", "The seed is not the one fixed (and fingerprinted) when the game began."),
    ("GameEnded reveals", "The seed revealed at the end is not the seed fixed when the game began."),
    ("the dice shown", "The dice this battle shows are not the dice the game's seed rolled."),
    ("chosen and drawn", "The game's factions are not those its players chose and those drawn for them."),
    ("drawn from are not", "The factions drawn at random were not drawn from the factions nobody chose."),
    ("FactionsDrawn", "The factions drawn at random are recorded outside the game's opening."),
    (
        "faction draw",
        "A faction drawn at random for a seat that asked for one is not the one the game's seed drew.",
    ),
    (
        "the factions drawn",
        "A faction drawn at random for a seat that asked for one is not the one the game's seed drew.",
    ),
    ("draw ", "A die, coin, tile or card drawn here is not the one the game's seed gives."),
    ("draws at position", "The draws here belong to another order than this one."),
    ("the seat order", "The seat order is not the one the game's seed shuffled."),
    ("the tiles drawn", "The tiles drawn here are not the tiles the game's seed drew."),
    ("a tile was drawn", "The tiles drawn here are not the tiles the game's seed drew."),
    (" coin draws", "The coins drawn here are not as many as the game's seed drew."),
    (" card draws", "The cards drawn here are not as many as the game's seed drew."),
    ("the sealed order's salt", "This sealed winter order's secret salt is not the one the seed gives."),
    ("the commitment", "This sealed winter order was changed after it was sealed."),
    ("revealed order differs", "This winter order was changed between its sealing and its reveal."),
    ("revealed but was never sealed", "A winter order was revealed that nobody sealed."),
    ("supersedes no commitment", "A winter order was sealed again over an order that was never sealed."),
    ("the order taken back is not", "An order was taken back that was not the last one given."),
    ("taken back had drawn", "An order was taken back although dice or draws had already decided it."),
    ("the event differs", "This event changed since the earlier export was downloaded."),
    ("the earlier export has no pins", "Pass, after --pinned, an export downloaded before the game ended."),
    ("the pinned export", "The exports are of two games, or the earlier one has events this one lacks."),
    ("pins are checked", "Pins are checked only once the game has ended: keep the earlier file until then."),
    (
        "the log does not pass",
        "The log was changed after the server told this player its head: an event up to this one is"
        " not what the server had recorded when it wrote the email (or showed the page).",
    ),
    ("the log ends at", "Events the server had told this player of are missing from the log."),
    ("none of the witnessed", "The emails or heads given are of another game."),
    ("witnessed heads are checked", "Check the heads once the game has ended, when its seed is revealed."),
)


def meaning(reason: str) -> str:
    for start, text in MEANINGS:
        if start in reason:
            return text
    return "This export is not the game as the server recorded it."


def event_named(document: dict[str, Any], seq: int) -> str:
    """'event 13, BattleFought of 2026-11-30', or '' when the seq names no event of the document."""
    for event in document.get("events", []) if isinstance(document, dict) else []:
        if isinstance(event, dict) and event.get("seq") == seq:
            return f"event {seq}, {event.get('type')} of {str(event.get('created', ''))[:10]}"
    return ""


def read_export(path: str, what: str) -> dict[str, Any]:
    """The JSON document at `path`; SystemExit with a plain message when there is none."""
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
    except FileNotFoundError:
        raise Unreadable(f"there is no file {path} (the {what})") from None
    except (OSError, UnicodeDecodeError) as error:
        raise Unreadable(f"the {what} {path} cannot be read ({error.__class__.__name__})") from None
    except json.JSONDecodeError:
        raise Unreadable(
            f"the {what} {path} is not a game export: it is not JSON, or it is cut short. Download it"
            " again with the history page's link (saving the page itself gives an HTML file)"
        ) from None
    if not isinstance(document, dict):
        raise Unreadable(f"the {what} {path} is not a game export")
    return document


class Unreadable(Exception):
    pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Verify an AEGEAPOLIS game export (docs/fairness.md).")
    parser.add_argument("export", help="the export file (JSON)")
    parser.add_argument("--seed", help="the game's seed, if the export does not reveal it yet")
    parser.add_argument(
        "--pinned", help="an export of the same game downloaded before its end, to check its pins"
    )
    parser.add_argument(
        "--witness",
        nargs="+",
        metavar="FILE",
        help="saved emails (.eml, mbox) or text with pasted heads (Log 431·c3f09a2e…) to check against",
    )
    args = parser.parse_args(argv)
    try:
        document = read_export(args.export, "export")
        pinned = read_export(args.pinned, "earlier export") if args.pinned else None
        witnesses = read_witnesses(args.witness) if args.witness else None
    except (Unreadable, OSError) as problem:
        print(f"FAILED: {problem}")
        return 1
    try:
        proven = verify(document, args.seed, pinned, witnesses)
    except Failed as failure:
        print(f"FAILED at {failure}")
        where = event_named(document, failure.seq)
        print(f"In plain words: {meaning(str(failure))}{f' ({where})' if where else ''}")
        if failure.seq:  # an event of the log, not the files given
            print(FAILED_SO)
        return 1
    except MALFORMED as error:
        print(f"FAILED: the export is malformed ({error!r})")
        print(f"In plain words: a part the server always writes is missing or of the wrong kind. {FAILED_SO}")
        return 1
    for line in proven:
        print(line if line.startswith("NOT ") else f"OK: {line}")
    return 0


FAILED_SO = (
    "So this file is not the game as the server recorded it: it was changed, or it is not the file the"
    " server gave out. Download the export again and check it again; if that fails too, show this"
    " message to the organiser and the other players."
)


if __name__ == "__main__":
    sys.exit(main())
