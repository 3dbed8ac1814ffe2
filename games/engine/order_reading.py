"""H-ORDER: reading an order from untrusted JSON into a Command (commands.py).

The JSON API, the web forms, email replies, `manage.py submitorder`, the replay and
`engine.decide` itself (for commands built in code) all read orders here, so every entry
point refuses the same malformed orders with the same messages: RuleViolation("H-ORDER", ...)
whose English template is translated by the web layer (docs/i18n.md).
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

from .board import is_space
from .commands import COMMAND_TYPES, Bundle, ChooseTile, Command, Destination, Recruit
from .data import COIN_DESIGNS, GOVERNMENTS, MAX_DESTINATIONS
from .events import RuleViolation


def _bad(message: str, **params: Any) -> RuleViolation:
    return RuleViolation("H-ORDER", message, **params)


def _count(name: str, value: Any, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _bad("%(field)s must be a whole number of at least %(min)d.", field=name, min=minimum)
    return value


def _text(name: str, value: Any, choices: tuple[str, ...] | None = None) -> str:
    if not isinstance(value, str) or (choices is not None and value not in choices):
        raise _bad("%(field)s is not valid here.", field=name)
    return value


def _space(name: str, value: Any) -> str:
    if not is_space(value):
        raise _bad("%(field)s must be a space from A1 to I9.", field=name)
    return value


def _optional(parse: Any, name: str, value: Any) -> Any:
    return None if value is None else parse(name, value)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad("%(field)s must be true or false.", field=name)
    return value


def _source(name: str, value: Any) -> str:
    return _text(name, value, ("deck", "discard"))


def _tile_list(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or any(not isinstance(t, str) for t in value):
        raise _bad("%(field)s must be a list of tile names.", field=name)
    return tuple(value)


def _destinations(name: str, value: Any) -> tuple[Destination, ...]:
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_DESTINATIONS:
        raise _bad("A move has 1 to %(max)d destinations.", max=MAX_DESTINATIONS)
    out = []
    for raw in value:
        if not isinstance(raw, dict):
            raise _bad("Each destination must be an object.")
        unknown = set(raw) - {"space", "phalanxes", "king", "navigators", "builders"}
        if unknown or "space" not in raw:
            raise _bad("A destination needs a space and may give phalanxes, king, navigators, builders.")
        king = raw.get("king", False)
        if not isinstance(king, bool):
            raise _bad("king must be true or false.")
        out.append(
            Destination(
                space=_space("destination", raw["space"]),
                phalanxes=_count("phalanxes", raw.get("phalanxes", 0)),
                king=king,
                navigators=_count("navigators", raw.get("navigators", 0)),
                builders=_count("builders", raw.get("builders", 0)),
            )
        )
    return tuple(out)


def _spaces(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise _bad("%(field)s must be a list of spaces.", field=name)
    return tuple(_space(name, v) for v in value)


def _coin_pairs(name: str, value: Any) -> tuple[tuple[str, int], ...]:
    pairs = list(value.items()) if isinstance(value, dict) else value
    if not isinstance(pairs, (list, tuple)):
        raise _bad("%(field)s must map coin designs to counts.", field=name)
    counts: dict[str, int] = {}
    for pair in pairs:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise _bad("%(field)s must map coin designs to counts.", field=name)
        design = _text(f"{name}.{pair[0]}", pair[0], COIN_DESIGNS)
        if design in counts:
            raise _bad("The coin design %(design)s is named twice.", design=design)
        counts[design] = _count(f"{name}.{design}", pair[1])
    return tuple(sorted((d, n) for d, n in counts.items() if n))


def _bundle(name: str, value: Any) -> Bundle:
    if not isinstance(value, dict) or set(value) - {"ap", "fp", "blanks", "coins", "polis"}:
        raise _bad("%(field)s may give ap, fp, blanks, coins and polis.", field=name)
    return Bundle(
        ap=_count(f"{name}.ap", value.get("ap", 0)),
        fp=_count(f"{name}.fp", value.get("fp", 0)),
        blanks=_count(f"{name}.blanks", value.get("blanks", 0)),
        coins=_coin_pairs(f"{name}.coins", value.get("coins", ())),
        polis=_optional(_space, f"{name}.polis", value.get("polis")),
    )


def _card_ids(name: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)) or any(not isinstance(c, str) for c in value):
        raise _bad("%(field)s must be a list of Mission Card names.", field=name)
    return tuple(value)


_FIELD_PARSERS: dict[str, Any] = {
    "space": _space,
    "source": _source,
    "second_source": lambda n, v: _optional(_source, n, v),
    "link_from": lambda n, v: _optional(_space, n, v),
    "keep": lambda n, v: _optional(_text, n, v),
    "choice_step": lambda n, v: _flag(n, v),
    "discard_order": _tile_list,
    "origin": _space,
    "destinations": _destinations,
    "battle_order": _spaces,
    "phalanxes": _count,  # Recruit: at least one phalanx or Navigator, checked below
    "navigators": _count,
    "government": lambda n, v: _text(n, v, tuple(GOVERNMENTS)),
    "coins": _coin_pairs,
    "blanks": _count,
    "mission_cards": _card_ids,
    "card_coins": _coin_pairs,
    "card_blanks": _count,
    "coin": lambda n, v: _text(n, v, (*COIN_DESIGNS, "blank")),
    "to": _text,
    "give": _bundle,
    "take": _bundle,
    "offer": lambda n, v: _count(n, v, 1),
}


def command_from_dict(raw: Any) -> Command:
    """Read an order from untrusted JSON (H-ORDER): anything malformed is refused with a message.

    An unknown field, a missing required one (a Command field without a default) and a value of
    the wrong type or range are each refused as RuleViolation("H-ORDER") naming the field.
    """
    if not isinstance(raw, dict):
        raise _bad("An order must be a JSON object.")
    kind = raw.get("kind")
    cls = COMMAND_TYPES.get(kind) if isinstance(kind, str) else None  # a list or object is no kind
    if cls is None:
        raise _bad("Unknown kind of order: %(kind)s.", kind=str(raw.get("kind")))
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(raw) - names - {"kind"})
    if unknown:
        raise _bad("Unknown field(s) in the order: %(fields)s.", fields=", ".join(map(str, unknown)))
    player = raw.get("player")
    if not isinstance(player, str) or not player:
        raise _bad("The order does not name its player.")
    for f in fields(cls):
        if f.name not in raw and f.default is MISSING and f.default_factory is MISSING:
            raise _bad("The order is missing the field %(field)s.", field=f.name)
    values = {name: _FIELD_PARSERS[name](name, raw[name]) for name in names - {"player"} if name in raw}
    command = cls(player=player, **values)
    asks_second = isinstance(command, ChooseTile) and command.second_source is not None
    if isinstance(command, ChooseTile) and asks_second and (command.keep or command.discard_order):
        raise _bad("Ask for a second tile, or keep one: not both.")
    if (
        isinstance(command, ChooseTile)
        and not asks_second
        and command.keep is None
        and len(command.discard_order) != 2
    ):
        raise _bad("Keep one tile, or list both tiles in their discard order.")
    if isinstance(command, Recruit) and command.phalanxes + command.navigators == 0:
        raise _bad("Recruit at least one phalanx or Navigator.")
    return command
