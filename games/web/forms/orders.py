"""Order forms built from `legal_commands` (H-ACTIONS); the organiser's new-game form is organiser.py,
the trade and winter forms trade.py, and kinds.py picks the form of a kind.

A form only reads what the player typed into the plain dict that `command_from_dict`
accepts; the engine decides whether the order is legal. Spaces are free text (with the
legal ones suggested), so a player can ask for something the rules refuse and read why.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine import command_from_dict
from games.engine.actions import hire_cost
from games.engine.board import is_space
from games.engine.commands import ChooseTile, Command, Move, Oracle, Reform
from games.engine.data import COIN_DESIGNS, GOVERNMENTS, MAX_DESTINATIONS, TILES
from games.engine.events import RuleViolation
from games.engine.expansion import expand_cost
from games.engine.movement import battles_as_listed
from games.engine.state import GameState
from games.engine.versions import CHOICE_STEP, plays_by
from games.words.names import GOVERNMENT_NAMES, coin_name, tile_name
from games.words.orders import command_label

SOURCES = [("deck", _("the deck")), ("discard", _("the discard pile"))]


class OrderForm(forms.Form):
    kind = ""
    title = ""
    SUGGEST: dict[str, str] = {}  # form field -> Command attribute whose legal values are suggested

    def __init__(
        self, *args: Any, state: GameState, faction: str, legal: list[Command], **kwargs: Any
    ) -> None:
        super().__init__(*args, prefix=self.kind, **kwargs)
        self.state, self.faction, self.legal = state, faction, legal
        self.order_error = ""
        self.attach_datalists()

    def attach_datalists(self) -> None:
        """Offer the legal values of each space field as a <datalist> (typing anything stays possible)."""
        self.datalists: list[tuple[str, list[str]]] = []
        for field, attribute in self.SUGGEST.items():
            values = self.suggestions(attribute)
            if field in self.fields and values:
                list_id = f"dl-{self.kind}-{field}"
                self.fields[field].widget.attrs["list"] = list_id
                self.datalists.append((list_id, values))

    def legal_of_kind(self) -> list[Command]:
        """The engine's legal orders of this form's kind only: the legal list holds every kind, and a
        space where one may Expand is not one where one may Recruit (H-ACTIONS)."""
        return [c for c in self.legal if c.kind == self.kind]

    def suggestions(self, attribute: str) -> list[str]:
        values = (getattr(c, attribute, None) for c in self.legal_of_kind())
        return sorted({str(value) for value in values if value})

    def order_dict(self) -> dict[str, Any]:
        return {}

    def command(self) -> Command:
        """The typed order as a Command; RuleViolation("H-ORDER") if it cannot be read."""
        return command_from_dict({"kind": self.kind, "player": self.faction, **self.order_dict()})


class PassForm(OrderForm):
    kind, title = "pass", _("Pass")


def _is_a_space(value: str) -> None:
    """A typo like "Z9" is refused beside its own field, in the reader's words (the engine, which
    reads the order later, would name its JSON field: "destination must be a space ...")."""
    if value.strip() and not is_space(value.strip().upper()):
        raise forms.ValidationError(_("Give a space from A1 to I9, e.g. C3."), code="space")


def _are_spaces(value: str) -> None:
    for space in value.split(","):
        _is_a_space(space)


def _space_field(label: str, required: bool = True) -> forms.CharField:
    return forms.CharField(label=label, max_length=3, required=required, strip=True, validators=[_is_a_space])


def _space(value: str) -> str | None:
    return value.strip().upper() or None


def _blanks_field() -> forms.IntegerField:
    """S-BLANK: how much of the order's AP or FP cost to pay in Blanks (0 unless the player says so)."""
    return forms.IntegerField(label=_("Pay in Blanks"), min_value=0, initial=0, required=False)


class ExpandForm(OrderForm):
    kind, title = "expand", _("Expand")
    SUGGEST = {"space": "space", "link_from": "link_from"}
    space = _space_field(_("Empty space"))
    source = forms.ChoiceField(label=_("Take the tile from"), choices=SOURCES)
    second_source = forms.ChoiceField(choices=[("", _("no")), *SOURCES], required=False)
    link_from = _space_field("", required=False)  # labelled with the link's price in __init__
    # H-CHOICE-STEP: see the first tile, then keep it or pay for a second (labelled in __init__).
    choice_step = forms.BooleanField(required=False)
    blanks = _blanks_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """S-EXP-CHOICE: the second tile's price is the faction's own (H-FACTION: Athens' is 0 FP)."""
        super().__init__(*args, **kwargs)
        # A price of 0 FP is left out rather than shown as "+0 FP" (Athens' choice).
        extra = expand_cost(self.faction, True, False) - expand_cost(self.faction, False, False)
        second = gettext("Draw a second tile to choose from")
        if extra:
            second = gettext("Draw a second tile to choose from (+%(fp)s FP)") % {"fp": extra}
        self.fields["second_source"].label = second
        link = expand_cost(self.faction, False, True) - expand_cost(self.faction, False, False)
        self.fields["link_from"].label = gettext("Build a trade link from (+%(fp)s FP)") % {"fp": link}
        step = gettext("Or see the first tile, then decide whether to draw a second")
        if extra:
            step = gettext(
                "Or see the first tile, then decide whether to draw a second (+%(fp)s FP only if you do)"
            ) % {"fp": extra}
        self.fields["choice_step"].label = step
        if not plays_by(self.state.rules_version, CHOICE_STEP):  # rules before version 3
            del self.fields["choice_step"]

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "space": _space(d["space"]),
            "source": d["source"],
            "second_source": d["second_source"] or None,
            "choice_step": bool(d.get("choice_step")),
            "link_from": _space(d["link_from"]),
            "blanks": d["blanks"] or 0,
        }


class MoveForm(OrderForm):
    kind, title = "move", _("Move")
    SUGGEST = {"origin": "origin", **{f"to{i}": "to" for i in range(1, MAX_DESTINATIONS + 1)}}
    origin = _space_field(_("From your Polis"))
    battle_order = forms.CharField(
        label=_("Battle order (spaces, comma-separated)"),
        help_text=_("Left empty: the battles are fought in the order of your destinations."),
        required=False,
        validators=[_are_spaces],
    )
    blanks = _blanks_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, MAX_DESTINATIONS + 1):
            first = i == 1
            self.fields[f"to{i}"] = _space_field(_("Destination %(n)s") % {"n": i}, required=first)
            self.fields[f"phalanxes{i}"] = forms.IntegerField(label=_("Phalanxes"), min_value=0, initial=0)
            self.fields[f"king{i}"] = forms.BooleanField(label=_("with the King"), required=False)
            self.fields[f"navigators{i}"] = forms.IntegerField(label=_("Navigators"), min_value=0, initial=0)
            self.fields[f"builders{i}"] = forms.IntegerField(
                label=_("Builders"), min_value=0, initial=0, required=False
            )
            if not first:
                for name in ("phalanxes", "navigators"):
                    self.fields[f"{name}{i}"].required = False
        self.attach_datalists()
        self.datalists += [(f"dl-move-from-{origin}", spaces) for origin, spaces in self.reach().items()]

    def reach(self) -> dict[str, list[str]]:
        """S-MOVE: each Polis a legal Move starts from, with the Poleis a legal Move from it reaches
        (the engine's legal Moves). The board marks them once the Move's origin is tapped."""
        reach: dict[str, set[str]] = {}
        for move in self.legal_of_kind():
            if isinstance(move, Move):
                reach.setdefault(move.origin, set()).update(d.space for d in move.destinations)
        return {origin: sorted(spaces) for origin, spaces in sorted(reach.items())}

    def destination_rows(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"{name}{i}"] for name in ("to", "phalanxes", "king", "navigators", "builders")]
            for i in range(1, MAX_DESTINATIONS + 1)
        ]

    def suggestions(self, attribute: str) -> list[str]:
        if attribute == "to":
            moves = [c for c in self.legal_of_kind() if isinstance(c, Move)]
            return sorted({d.space for c in moves for d in c.destinations})
        return super().suggestions(attribute)

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data
        destinations = [
            {
                "space": _space(d[f"to{i}"]),
                "phalanxes": d[f"phalanxes{i}"] or 0,
                "king": d[f"king{i}"],
                "navigators": d[f"navigators{i}"] or 0,
                "builders": d[f"builders{i}"] or 0,
            }
            for i in range(1, MAX_DESTINATIONS + 1)
            if d.get(f"to{i}")
        ]
        order = [s.strip().upper() for s in d["battle_order"].split(",") if s.strip()]
        move = {"origin": _space(d["origin"]), "destinations": destinations, "blanks": d["blanks"] or 0}
        if not order:  # S-MOVE-ORDER: the order the player listed (or tapped) the destinations in
            order = _battles_as_listed(self.state, self.faction, move)
        return {
            **move,
            "battle_order": order,
        }


def _battles_as_listed(state: GameState, faction: str, move: dict[str, Any]) -> list[str]:
    """The defended destinations of the Move the form read, in its rows' order (S-MOVE-ORDER); none
    when the rows name a space that is not a Polis (the engine refuses that Move for what it is)."""
    try:
        command = command_from_dict({"kind": "move", "player": faction, **move, "battle_order": []})
        battles = battles_as_listed(state, command)
    except (RuleViolation, KeyError, ValueError, TypeError):
        return []
    return list(battles) if len(battles) > 1 else []


class RecruitForm(OrderForm):
    kind, title = "recruit", _("Recruit")
    SUGGEST = {"space": "space"}
    space = _space_field(_("Where"))
    phalanxes = forms.IntegerField(label=_("Phalanxes"), min_value=0, initial=1)
    navigators = forms.IntegerField(min_value=0, initial=0, required=False)  # labelled in __init__
    blanks = _blanks_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        """H-HEROES: a Navigator's price from the engine's data."""
        super().__init__(*args, **kwargs)
        label = gettext("Hire Navigators (%(ap)s AP each)") % {"ap": hire_cost(1)}
        self.fields["navigators"].label = label

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {
            "space": _space(d["space"]),
            "phalanxes": d["phalanxes"],
            "navigators": d["navigators"] or 0,
            "blanks": d["blanks"] or 0,
        }


class FortifyForm(OrderForm):
    kind, title = "fortify", _("Fortify")
    SUGGEST = {"space": "space"}
    space = _space_field(_("Which Polis"))
    blanks = _blanks_field()

    def order_dict(self) -> dict[str, Any]:
        return {"space": _space(self.cleaned_data["space"]), "blanks": self.cleaned_data["blanks"] or 0}


class ReformForm(OrderForm):
    kind, title = "reform", _("Reform")
    government = forms.ChoiceField(label=_("New government"), choices=[])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offered = [c.government for c in self.legal if isinstance(c, Reform)] or list(GOVERNMENTS)
        self.fields["government"].choices = [(g, GOVERNMENT_NAMES.get(g, g)) for g in offered]

    def order_dict(self) -> dict[str, Any]:
        return {"government": self.cleaned_data["government"]}


class OracleForm(OrderForm):
    """H-ACTIONS Oracle: a Mission Card for one coin from behind the screen, or a Blank."""

    kind, title = "oracle", _("Oracle")
    coin = forms.ChoiceField(label=_("Pay with"), choices=[])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offered = [c.coin for c in self.legal if isinstance(c, Oracle)] or [*COIN_DESIGNS, "blank"]
        names = {"blank": _("a Blank")}
        self.fields["coin"].choices = [(c, names.get(c) or capfirst(coin_name(c))) for c in offered]

    def order_dict(self) -> dict[str, Any]:
        return {"coin": self.cleaned_data["coin"]}


class NeutralTradeForm(OrderForm):
    kind, title = "neutral_trade", _("Trade with your linked neutral Poleis")


class RecruitBuilderForm(OrderForm):
    kind, title = "recruit_builder", _("Recruit a Builder")


class ChooseTileForm(OrderForm):
    """S-EXP-CHOICE, H-CHOICE-STEP: the drawn tiles with their printed values, and one button per
    answer the engine offers, named after the tiles ("Keep Tegea"); no answer is pre-chosen."""

    kind, title = "choose_tile", _("Choose a tile")
    keep = forms.ChoiceField(label=_("Keep"), required=False)
    discard_order = forms.CharField(label=_("Or keep neither: discard order (tile, tile)"), required=False)
    second_source = forms.ChoiceField(label=_("Draw a second tile from"), choices=SOURCES, required=False)
    blanks = _blanks_field()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pending = self.state.pending_choice
        self.tiles = list(pending.tiles) if pending else []
        self.fields["keep"].choices = [("", "—"), *((t, tile_name(t)) for t in self.tiles)]

    def tile_cards(self) -> list[dict[str, Any]]:
        """The drawn tiles as printed (H-TILES: AP, FP, coins; H-NEUTRAL: garrison, treasure; H-MINT)."""
        cards = []
        for tile_id in self.tiles:
            tile = TILES[tile_id]
            cards.append({"id": tile_id, "name": tile_name(tile_id), "tile": tile,
                          "mint": coin_name(tile.mint) if tile.mint else ""})  # fmt: skip
        return cards

    def answers(self) -> list[tuple[str, str, str]]:
        """(field, value, button label) for each answer offered now, in the engine's order."""
        out = []
        for command in self.legal:
            if not isinstance(command, ChooseTile):
                continue
            if command.keep:
                out.append(("keep", command.keep, command_label(command)))
            elif command.second_source:
                extra = expand_cost(self.faction, True, False) - expand_cost(self.faction, False, False)
                label = command_label(command)  # "+0 FP" is left out (Athens' choice)
                if extra:
                    label = gettext("%(order)s (+%(fp)s FP)") % {"order": label, "fp": extra}
                out.append(("second_source", command.second_source, label))
            else:
                out.append(("discard_order", ",".join(command.discard_order), command_label(command)))
        return out

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data
        if d["second_source"]:
            return {"second_source": d["second_source"], "blanks": d["blanks"] or 0}
        order = [t.strip() for t in d["discard_order"].split(",") if t.strip()]
        return {"keep": d["keep"] or None, "discard_order": order}


class CommitCoinsForm(OrderForm):
    kind, title = "commit_coins", _("Sealed winter order: coins to commit")
    blanks = forms.IntegerField(label=_("Blanks"), min_value=0, initial=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for design in COIN_DESIGNS:
            self.fields[design] = forms.IntegerField(
                label=capfirst(coin_name(design)), min_value=0, initial=0
            )
        self.order_fields([*COIN_DESIGNS, "blanks"])

    def order_dict(self) -> dict[str, Any]:
        d = self.cleaned_data
        return {"coins": {design: d[design] for design in COIN_DESIGNS if d[design]}, "blanks": d["blanks"]}
