"""Which order form a player is shown or has posted, by the kind of order: the forms of orders.py and
the trade offer and the sealed winter order of trade.py (which build on orders.py, so this module
joins them instead of orders.py importing trade.py back). The engine's legal_commands decide which
kinds are offered; a form only reads what the player typed.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms

from games.engine import RuleViolation, command_from_dict
from games.engine.commands import Command
from games.engine.state import GameState
from games.web.forms.orders import (
    ChooseTileForm,
    CommitCoinsForm,
    ExpandForm,
    FortifyForm,
    MoveForm,
    NeutralTradeForm,
    OracleForm,
    OrderForm,
    PassForm,
    RecruitBuilderForm,
    RecruitForm,
    ReformForm,
)
from games.web.forms.trade import TRADE_FORMS

FORM_BY_KIND: dict[str, type[OrderForm]] = (
    {
        cls.kind: cls
        for cls in (PassForm, ExpandForm, MoveForm, RecruitForm, FortifyForm, ChooseTileForm, CommitCoinsForm)
    }
    | {cls.kind: cls for cls in (ReformForm, RecruitBuilderForm, OracleForm, NeutralTradeForm)}
    | TRADE_FORMS
)


def order_forms(state: GameState, faction: str, legal: list[Command]) -> dict[str, OrderForm]:
    """One empty form for every kind of order the player may give now, in the order of `legal`.

    A kind without a form of its own yet is still offered among the suggested orders.
    """
    forms_by_kind: dict[str, OrderForm] = {}
    for command in legal:
        cls = FORM_BY_KIND.get(command.kind)
        if cls is not None and cls.kind not in forms_by_kind:
            forms_by_kind[cls.kind] = cls(state=state, faction=faction, legal=legal)
    return forms_by_kind


def bound_order_form(data: Any, state: GameState, faction: str, legal: list[Command]) -> OrderForm | None:
    """The posted form, bound to its data; None for an unknown kind."""
    cls = FORM_BY_KIND.get(str(data.get("kind", "")))
    return None if cls is None else cls(data, state=state, faction=faction, legal=legal)


def refilled_order_form(data: Any, state: GameState, faction: str, legal: list[Command]) -> OrderForm | None:
    """The posted form again, unbound, filled with what was posted (H-ORDER: an order refused because
    the game moved on is not lost from the page: the player checks it against the new state and
    sends it again); None for a kind not offered any more."""
    cls = FORM_BY_KIND.get(str(data.get("kind", "")))
    if cls is None or not any(c.kind == cls.kind for c in legal):
        return None
    empty = cls(state=state, faction=faction, legal=legal)
    initial = {}
    for name, field in empty.fields.items():
        key = empty.add_prefix(name)
        if key in data:
            many = isinstance(field, forms.MultipleChoiceField)
            initial[name] = data.getlist(key) if many and hasattr(data, "getlist") else data.get(key)
    return cls(initial=initial, state=state, faction=faction, legal=legal)


def suggested_order(data: Any, faction: str) -> Command:
    """A one-click order from the page's list of suggestions (JSON of Command.to_dict())."""
    try:
        raw = json.loads(data.get("command", ""))
    except (TypeError, ValueError, RecursionError):  # RecursionError: JSON nested too deep
        raise RuleViolation("H-ORDER", "An order must be a JSON object.") from None
    if isinstance(raw, dict):
        raw["player"] = faction
    return command_from_dict(raw)
