"""The order syntax of email replies (docs/email-orders.md), in English and German.

`read_reply(text)` finds the order in a reply: the player's own lines, the quoted, signed and
forwarded parts left out (games/services/inbox/reply_lines.py, importable from here beside the syntax).
`parse_order(line, faction)` turns such a line into the plain dict `engine.command_from_dict`
reads (the engine then checks it like any other order), or into a message to other players.
Keywords are case-insensitive; German umlauts may be written as ae/oe/ue. The words themselves
(keywords, filler, numbers, spaces) are games/words/syntax.py's; a trade offer's and a winter
order's Mission Card, which read more words than the rest, have modules of their own.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.engine.data import FACTION_IDS, GOVERNMENTS
from games.services.inbox.card_syntax import parse_commit

# Re-exported: the mail handler and the tests read a reply and its order from this one module, and
# catch the error its parsing raises.
from games.services.inbox.reply_lines import read_reply as read_reply
from games.services.inbox.trade_syntax import parse_offer
from games.words.board_names import TILE_NAMES
from games.words.syntax import (
    FILLER,
    KEYWORDS,
    PRONOUNS,
    SPACE,
    STRIPPED,
    fold,
    is_number,
    known_word,
    number_at,
    space_at,
)
from games.words.syntax import OrderSyntaxError as OrderSyntaxError


def help_lines() -> list[str]:
    """The syntax, one example per line, in the active language (English keywords work in both)."""
    return [
        _("pass  (passen)"),
        _("expand D4 deck  (expandieren D4 stapel) — or: discard; options: choice deck, link C3, blanks 1"),
        _("move C3 D4 3  (bewegen C3 D4 3) — more: E5 2 king; options: navigators 1, builders 1"),
        _("recruit C3 2  (rekrutieren C3 2) — options: navigators 1, blanks 1"),
        _("fortify D4  (befestigen D4)"),
        _("commit owl 2 turtle 1 blanks 1  (einsetzen eule 2 schildkroete 1) — commit nothing: commit"),
        _(
            "with a Mission Card: commit owl 1 card combo owl 1 shield 1 blanks 1"
            "  (einsetzen eule 1 karte kombo eule 1 schild 1 blanko 1)"
            " — cards: combo, flush, monopoly ap/fp/coins, multiplier, extra-scoring, second-coin-scoring"
        ),
        _("keep TILE  (behalten TILE); neither TILE1 TILE2  (keine TILE1 TILE2)"),
        _("accept 3 / decline 3  (annehmen 3 / ablehnen 3)"),
        _(
            "offer sparta 2 ap 1 owl for 1 fp polis D3  (anbieten sparta 2 ap 1 eule gegen 1 fp polis D3)"
            " — also fp, blanks, pegasus, shield, turtle; an empty side: nothing"
        ),
        _(
            "reform democracy  (reformieren demokratie); oracle owl  (orakel eule), paid with a Blank:"
            " oracle blank  (orakel blanko); trade  (handeln); Corinth's Builder: builder  (baumeister)"
        ),
        _("message sparta Hello!  (nachricht sparta Hallo!) — to everyone: message all ..."),
    ]


@dataclass(frozen=True)
class MessageOrder:
    """A "message" line: `to` a faction or "all", and the text."""

    to: str
    text: str


def parse_order(line: str, faction: str) -> dict[str, Any] | MessageOrder:
    """One order line -> the dict for `engine.command_from_dict`, or a MessageOrder."""
    words = line.split()
    if len(words) > 1 and fold(words[0]).strip(",") in PRONOUNS:
        words = words[1:]
    if not words:
        raise OrderSyntaxError(_("The reply holds no order."))
    kind = KEYWORDS.get(fold(words[0]).strip(STRIPPED))
    last = KEYWORDS.get(fold(words[-1]).strip(STRIPPED)) if len(words) > 1 else None
    # German puts the verb last: "Angebot 1 annehmen", "Milet behalten", "keine behalten".
    if last in VERBS_LAST and kind not in ANSWERS and kind != last:
        words = [words[-1], *words[:-1]]
        kind = last
    if kind is None:
        raise OrderSyntaxError(_('"%(word)s" is not an order keyword.') % {"word": words[0][:40]})
    if kind == "message":
        if len(words) < 3:
            raise OrderSyntaxError(_("Write: message FACTION (or all) and your text."))
        if known_word(words[1]) in ("to", "an") and len(words) > 3:  # "nachricht an sparta: hallo"
            words = [words[0], *words[2:]]
            line = " ".join(words)
        to = known_word(words[1])
        if to != "all" and to not in FACTION_IDS:
            raise OrderSyntaxError(_('"%(word)s" is not a faction.') % {"word": words[1][:40]})
        return MessageOrder(to=to, text=line.split(None, 2)[2])
    args = [word for word in (known_word(w) for w in words[1:]) if word and word not in FILLER]
    order = PARSERS[kind](args)
    return {"player": faction, **order}


ANSWERS = ("accept_offer", "decline_offer")
VERBS_LAST = (*ANSWERS, "keep")  # the orders German may close with their verb


def _options(args: list[str], start: int, allowed: tuple[str, ...]) -> dict[str, Any]:
    """Trailing "name value" options, e.g. "blanks 1 link C3"."""
    out: dict[str, Any] = {}
    i = start
    while i < len(args):
        name = args[i]
        if name not in allowed:
            raise OrderSyntaxError(_('"%(word)s" is not understood here.') % {"word": name[:40]})
        if name in ("link",):
            out["link_from"] = space_at(args, i + 1)
        elif name == "choice":
            if i + 1 < len(args) and args[i + 1] == "later":  # H-CHOICE-STEP
                out["choice_step"] = True
            elif i + 1 >= len(args) or args[i + 1] not in ("deck", "discard"):
                raise OrderSyntaxError(_("After choice, name deck, discard or later."))
            else:
                out["second_source"] = args[i + 1]
        else:
            out[name] = number_at(args, i + 1)
        i += 2
    return out


def _expand(args: list[str]) -> dict[str, Any]:
    order: dict[str, Any] = {"kind": "expand", "space": space_at(args, 0), "source": "deck"}
    rest = 1
    if len(args) > 1 and args[1] in ("deck", "discard"):
        order["source"], rest = args[1], 2
    return order | _options(args, rest, ("choice", "link", "blanks"))


def _move(args: list[str]) -> dict[str, Any]:
    if len(args) >= 3 and is_number(args[0]) and SPACE.match(args[1]) and SPACE.match(args[2]):
        args = [args[1], args[2], args[0], *args[3:]]  # "move 3 from C3 to D4"
    origin = space_at(args, 0)
    destinations: list[dict[str, Any]] = []
    blanks, battle, i = 0, [], 1
    while i < len(args):
        word = args[i]
        if SPACE.match(word):
            destinations.append({"space": word.upper()})
            if i + 1 < len(args) and is_number(args[i + 1]):
                destinations[-1]["phalanxes"] = int(args[i + 1])
                i += 1
        elif word == "king" and destinations:
            destinations[-1]["king"] = True
        elif word in ("navigators", "builders") and destinations:
            destinations[-1][word] = number_at(args, i + 1)
            i += 1
        elif word == "blanks":
            blanks = number_at(args, i + 1)
            i += 1
        elif word == "battle":
            battle = [a.upper() for a in args[i + 1 :]]
            break
        else:
            raise OrderSyntaxError(_('"%(word)s" is not understood in a move.') % {"word": word[:40]})
        i += 1
    if not destinations:
        raise OrderSyntaxError(_("Name where to move: move C3 D4 3."))
    return {
        "kind": "move",
        "origin": origin,
        "destinations": destinations,
        "battle_order": battle,
        "blanks": blanks,
    }


def _recruit(args: list[str]) -> dict[str, Any]:
    if args in (["builder"], ["builders"]):  # S-BUILDER in its form's words: "recruit a Builder"
        return {"kind": "recruit_builder"}
    if len(args) >= 2 and is_number(args[0]) and SPACE.match(args[1]):
        args = [args[1], args[0], *args[2:]]  # "recruit 2 in C3"
    order: dict[str, Any] = {"kind": "recruit", "space": space_at(args, 0), "phalanxes": 1}
    rest = 1
    if len(args) > 1 and is_number(args[1]):
        order["phalanxes"], rest = int(args[1]), 2
    return order | _options(args, rest, ("navigators", "blanks"))


def _one(kind: str, field: str, read: Any) -> Any:
    def parse(args: list[str]) -> dict[str, Any]:
        if len(args) != 1:
            raise OrderSyntaxError(_("Give exactly one value after the keyword."))
        return {"kind": kind, field: read(args)}

    return parse


def _government(args: list[str]) -> str:
    if args[0] not in GOVERNMENTS:
        raise OrderSyntaxError(_('"%(word)s" is not a government.') % {"word": args[0][:40]})
    return args[0]


@functools.cache
def _tile_ids() -> dict[str, str]:
    """H-TILES: every tile's printed name in every language, folded -> its id ("Milet" -> "miletos")."""
    ids = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            ids |= {fold(str(name)): tile for tile, name in TILE_NAMES.items()}
    return ids


def _tile(word: str) -> str:
    """A tile named as the emails print it, in either language; anything else for the engine to refuse."""
    return _tile_ids().get(word, word)


NEITHER = ("neither", "keine", "keines", "keinen")


def _keep(args: list[str]) -> dict[str, Any]:
    """ "keep Milet"; "keep neither" / "behalte keine" (both tiles to the discard pile, in the order the
    email named them unless the tiles follow: replies.py fills the order in)."""
    if args and args[0] in NEITHER:
        return {"kind": "choose_tile", "keep": None, "discard_order": [_tile(t) for t in args[1:3]]}
    return _one("choose_tile", "keep", lambda a: _tile(a[0]))(args)


def _second_tile(args: list[str]) -> dict[str, Any]:
    """H-CHOICE-STEP: "second deck" / "zweites Ablage" after the first tile alone (blanks N may follow)."""
    if not args or args[0] not in ("deck", "discard"):
        raise OrderSyntaxError(_("After second, name deck or discard."))
    order = {"kind": "choose_tile", "keep": None, "discard_order": [], "second_source": args[0]}
    return order | _options(args, 1, ("blanks",))


def _bare(kind: str) -> Any:
    def parse(args: list[str]) -> dict[str, Any]:
        if args:
            raise OrderSyntaxError(_('"%(word)s" is not understood here.') % {"word": args[0][:40]})
        return {"kind": kind}

    return parse


PARSERS: dict[str, Any] = {
    "pass": _bare("pass"),
    "expand": _expand,
    "move": _move,
    "recruit": _recruit,
    "fortify": lambda a: {"kind": "fortify", "space": space_at(a, 0)} | _options(a, 1, ("blanks",)),
    "keep": lambda a: _keep(a),
    "second_tile": _second_tile,
    "neither": lambda a: {"kind": "choose_tile", "keep": None, "discard_order": [_tile(t) for t in a[:2]]},
    "accept_offer": _one("accept_offer", "offer", lambda a: number_at(a, 0)),
    "decline_offer": _one("decline_offer", "offer", lambda a: number_at(a, 0)),
    "reform": _one("reform", "government", _government),
    "oracle": _one("oracle", "coin", lambda a: "blank" if a[0] == "blanks" else a[0]),  # H-ACTIONS
    "neutral_trade": _bare("neutral_trade"),
    "recruit_builder": _bare("recruit_builder"),
    "offer_trade": parse_offer,  # H-TRADE
    "commit_coins": parse_commit,  # S-WINTER, with a Mission Card (H-MISSIONS)
}
