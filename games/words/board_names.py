"""Names the board picture prints, as gettext source strings (English), so German follows.

The tile names come from the printed tiles (H-TILES); each has its own msgid here because
makemessages only finds literal strings. A test checks that every tile in the data file has one.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

TILE_NAMES: dict[str, Promise] = {
    "athens": _("Athens"),
    "sparta": _("Sparta"),
    "corinth": _("Corinth"),
    "thebes": _("Thebes"),
    "aegina": _("Aegina"),
    "ambrakia": _("Ambrakia"),
    "amphipolis": _("Amphipolis"),
    "argos": _("Argos"),
    "chalkis": _("Chalkis"),
    "chios": _("Chios"),
    "delos": _("Delos"),
    "delphi": _("Delphi"),
    "elis": _("Elis"),
    "ephesos": _("Ephesos"),
    "epidauros": _("Epidauros"),
    "eretria": _("Eretria"),
    "halikarnassos": _("Halikarnassos"),
    "kerkyra": _("Kerkyra"),
    "knidos": _("Knidos"),
    "kos": _("Kos"),
    "lesbos": _("Lesbos"),
    "leukas": _("Leukas"),
    "mantinea": _("Mantinea"),
    "megara": _("Megara"),
    "melos": _("Melos"),
    "messene": _("Messene"),
    "miletos": _("Miletos"),
    "naxos": _("Naxos"),
    "olympia": _("Olympia"),
    "paros": _("Paros"),
    "plataia": _("Plataia"),
    "potidaia": _("Potidaia"),
    "pylos": _("Pylos"),
    "rhodos": _("Rhodos"),
    "samos": _("Samos"),
    "sikyon": _("Sikyon"),
    "tegea": _("Tegea"),
    "thasos": _("Thasos"),
    "thera": _("Thera"),
    "troizen": _("Troizen"),
}

# H-BAG: the four coin designs.
COIN_NAMES: dict[str, Promise] = {
    "owl": _("Owl"),
    "pegasus": _("Pegasus"),
    "shield": _("Shield"),
    "turtle": _("Turtle"),
}

# S-FAC: a letter on each faction's mark, so that colour is never the only sign of an owner.
FACTION_INITIALS: dict[str, Promise] = {
    "athens": pgettext_lazy("initial of Athens on the board", "A"),
    "sparta": pgettext_lazy("initial of Sparta on the board", "S"),
    "corinth": pgettext_lazy("initial of Corinth on the board", "C"),
    "thebes": pgettext_lazy("initial of Thebes on the board", "T"),
}


def tile_name(tile_id: str) -> str:
    return str(TILE_NAMES.get(tile_id, tile_id))


def coin_name(design: str) -> str:
    return str(COIN_NAMES.get(design, design))
