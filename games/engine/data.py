"""The printed data of AEGEAPOLIS: factions, coin designs, Polis tiles and the game's constants.

Faction differences live here, not in `if faction == ...` branches (H-FACTION): the rule
modules read `FACTIONS[f].recruit_per_ap_native`, `.choice_cost_fp`, `.economy_coins`,
`.extra_actions` (Corinth's Builder, S-BUILDER); governments' income bonuses are in GOVERNMENTS (H-GOV).
"""

from __future__ import annotations

from dataclasses import dataclass

# --- S-FAC: the four factions ---------------------------------------------------------


@dataclass(frozen=True)
class FactionData:
    id: str
    name: str
    leader: str
    colour: str
    native_space: str  # H-SETUP
    native_tile: str
    recruit_per_ap_native: int  # H-FACTION: Sparta recruits 2 phalanxes per AP in its Native Polis
    choice_cost_fp: int  # S-EXP-CHOICE costs 1 FP; H-FACTION: 0 for Athens
    # H-FACTION: the faction's own income at each Spring while it holds its Native Polis (Thebes' economy:
    # +1 coin), drawn blind from the bag; no Polis pays it, every Polis pays its print alone (S-INC).
    economy_coins: int
    starting_government: str  # H-GOV
    starting_navigators: int  # H-HEROES: Athens starts with one Navigator
    extra_actions: tuple[str, ...] = ()  # H-FACTION: order kinds only this faction may give (S-BUILDER)


BUILDER = ("recruit_builder",)  # S-BUILDER: Corinth's 8th action, as an extra order kind

FACTIONS: dict[str, FactionData] = {
    f.id: f
    for f in (
        FactionData("athens", "Athens", "Athene", "blue", "C3", "athens", 1, 0, 0, "democracy", 1),
        FactionData("sparta", "Sparta", "Leonidas", "black", "G3", "sparta", 2, 1, 0, "oligarchy", 0),
        FactionData(
            "corinth", "Corinth", "Sisyphos", "terracotta", "C7", "corinth", 1, 1, 0, "oligarchy", 0, BUILDER
        ),
        FactionData("thebes", "Thebes", "Phix", "cream", "G7", "thebes", 1, 1, 1, "oligarchy", 0),
    )
}
FACTION_IDS: tuple[str, ...] = tuple(FACTIONS)


def native_space(faction: str) -> str:
    """H-SETUP: the fixed space of the faction's Native Polis."""
    return FACTIONS[faction].native_space


def faction_of_native_space(space: str) -> str | None:
    """H-SETUP: the faction whose Native Polis stands on `space` (whoever controls it now), or None."""
    for faction in FACTIONS.values():
        if faction.native_space == space:
            return faction.id
    return None


# --- H-BAG: coins ----------------------------------------------------------------------

COIN_DESIGNS: tuple[str, ...] = ("owl", "pegasus", "shield", "turtle")
COINS_PER_DESIGN = 12

# --- H-TILES: the Polis tiles -------------------------------------------------------------


@dataclass(frozen=True)
class TileData:
    id: str
    name: str
    ap: int
    fp: int
    coins: int
    garrison: int = 0  # H-NEUTRAL: neutral phalanxes when the tile is placed
    treasure: int = 0  # H-NEUTRAL: unminted coins drawn blind from the bag onto it
    mint: str | None = None  # coin design minted here (H-MINT), or None
    native_of: str | None = None  # the faction whose Native tile this is


_NATIVE_TILES = (
    # Athens FP-heavy, Sparta AP-heavy, Corinth and Thebes coin-heavy (H-TILES).
    TileData("athens", "Athens", ap=1, fp=3, coins=1, mint="owl", native_of="athens"),
    TileData("sparta", "Sparta", ap=3, fp=1, coins=1, native_of="sparta"),
    TileData("corinth", "Corinth", ap=1, fp=1, coins=2, mint="pegasus", native_of="corinth"),
    TileData("thebes", "Thebes", ap=1, fp=1, coins=2, mint="shield", native_of="thebes"),
)

# The Polis deck: 36 tiles. Columns: id, name, AP, FP, coins, garrison, treasure, Mint design.
_DECK_ROWS: tuple[tuple[str, str, int, int, int, int, int, str | None], ...] = (
    ("aegina", "Aegina", 0, 1, 1, 2, 1, "turtle"),
    ("ambrakia", "Ambrakia", 1, 0, 1, 1, 0, None),
    ("amphipolis", "Amphipolis", 1, 1, 1, 3, 1, None),
    ("argos", "Argos", 2, 0, 1, 3, 1, None),
    ("chalkis", "Chalkis", 0, 1, 1, 2, 1, "owl"),
    ("chios", "Chios", 0, 2, 1, 2, 1, None),
    ("delos", "Delos", 0, 1, 2, 1, 2, None),
    ("delphi", "Delphi", 1, 0, 2, 2, 2, None),
    ("elis", "Elis", 1, 0, 0, 1, 0, None),
    ("ephesos", "Ephesos", 0, 1, 2, 2, 1, "turtle"),
    ("epidauros", "Epidauros", 1, 1, 0, 1, 0, None),
    ("eretria", "Eretria", 0, 1, 1, 1, 0, None),
    ("halikarnassos", "Halikarnassos", 1, 1, 1, 2, 1, None),
    ("kerkyra", "Kerkyra", 0, 2, 1, 3, 1, None),
    ("knidos", "Knidos", 0, 1, 1, 1, 1, "shield"),
    ("kos", "Kos", 1, 0, 1, 1, 0, None),
    ("lesbos", "Lesbos", 0, 1, 1, 2, 1, None),
    ("leukas", "Leukas", 1, 1, 0, 1, 0, None),
    ("mantinea", "Mantinea", 2, 0, 0, 2, 0, None),
    ("megara", "Megara", 1, 1, 1, 2, 1, "pegasus"),
    ("melos", "Melos", 0, 1, 0, 1, 0, None),
    ("messene", "Messene", 2, 0, 1, 3, 0, None),
    ("miletos", "Miletos", 0, 1, 2, 2, 2, "owl"),
    ("naxos", "Naxos", 0, 1, 1, 1, 1, "turtle"),
    ("olympia", "Olympia", 1, 0, 1, 1, 2, None),
    ("paros", "Paros", 0, 1, 1, 1, 1, None),
    ("plataia", "Plataia", 1, 0, 0, 1, 0, None),
    ("potidaia", "Potidaia", 1, 0, 1, 2, 0, None),
    ("pylos", "Pylos", 1, 1, 0, 1, 0, None),
    ("rhodos", "Rhodos", 0, 1, 2, 3, 2, "pegasus"),
    ("samos", "Samos", 0, 2, 1, 3, 1, None),
    ("sikyon", "Sikyon", 1, 0, 1, 1, 1, "shield"),
    ("tegea", "Tegea", 2, 0, 0, 2, 0, None),
    ("thasos", "Thasos", 0, 0, 2, 1, 1, None),
    ("thera", "Thera", 0, 1, 1, 1, 0, None),
    ("troizen", "Troizen", 1, 0, 0, 1, 0, None),
)

DECK_TILES: tuple[str, ...] = tuple(row[0] for row in _DECK_ROWS)
TILES: dict[str, TileData] = {t.id: t for t in _NATIVE_TILES} | {
    row[0]: TileData(*row[:7], mint=row[7]) for row in _DECK_ROWS
}

# --- Setup and the year (H-SETUP, H-YEAR, S-TIME) ------------------------------------------

NEUTRAL_SPACES: tuple[str, ...] = ("E3", "C5", "E5", "G5", "E7")
STARTING_AP = 2
STARTING_FP = 2
STARTING_PHALANXES = 4
PHALANX_PIECES = 60  # H-PIECES: per faction, supply + board
MIN_PLAYERS, MAX_PLAYERS = 2, 4

FIRST_YEAR, LAST_YEAR = 431, 421  # S-TIME: years count down
ACTION_ROUNDS = 3  # H-YEAR
INCOME_YEARS: frozenset[int] = frozenset({431, 429, 427, 425, 423})  # S-INC: never 421
SCORING_YEARS: frozenset[int] = frozenset({430, 428, 426, 424, 422, 421})  # S-WINTER

# --- Action costs (H-ACTIONS, S-EXP-CHOICE, S-EXP-LINK, S-MOVE, S-FORT) --------------------

RECRUIT_PHALANXES_PER_AP = 1
FORTIFY_AP = 3
LINK_FP = 1
FORTIFICATION_HP = 3
UNITS_PER_FLEET_STEP = 4  # S-MOVE: ceil(units / 4) × distance
MAX_DESTINATIONS = 3
MAX_DICE = 4  # S-COMBAT: at most 4 dice per combat round
HIT_MIN = 3  # S-COMBAT: a 3, 4, 5 or 6 hits
KING_KILL_VP = 2  # H-HEROES
NAVIGATOR_AP = 2  # H-HEROES: hiring a Navigator is a Recruit option for 2 AP
MAX_NAVIGATORS = 2  # H-HEROES: at most 2 Navigators of one player in play
MAX_BUILDERS = 5  # S-BUILDER: at most 5 Builders of one player in play

# --- H-GOV: governments and their income bonus ----------------------------------------------


@dataclass(frozen=True)
class GovernmentData:
    id: str
    name: str
    bonus_ap: int = 0
    bonus_fp: int = 0
    bonus_blanks: int = 0  # S-BLANK: Democracy creates Blanks


GOVERNMENTS: dict[str, GovernmentData] = {
    g.id: g
    for g in (
        GovernmentData("tyranny", "Tyranny", bonus_ap=1),
        GovernmentData("oligarchy", "Oligarchy", bonus_fp=1),
        GovernmentData("democracy", "Democracy", bonus_blanks=1),
    )
}

# --- Winter (S-RANK, S-REINF) --------------------------------------------------------------

RANK_VP: tuple[int, ...] = (3, 2, 1, 0)  # places from the top
RANK_VP_TWO_PLAYERS: tuple[int, ...] = (3, 2)
REINFORCEMENT_PHALANXES = 6
RANKINGS: tuple[str, ...] = ("poleis", "coins", "mint")  # S-WINTER: in this order

# --- H-MISSIONS: the Mission Card deck -------------------------------------------------------

WINTER_CARD_KINDS: tuple[str, ...] = (
    "monopoly", "coin_multiplier", "combo", "flush", "extra_scoring", "second_coin_scoring",
)  # fmt: skip
# "mints" is a card of rules version 1 only: from version 2 on no card turns on Mints, since a Mint counts
# only for the Mint ranking (S-INC); "fortifications" takes its place.
OBJECTIVE_CARD_KINDS: tuple[str, ...] = ("poleis", "rival_native", "trade_links", "fortifications", "mints")
MONOPOLY_RESOURCES: tuple[str, ...] = ("ap", "fp", "coins")
MISSION_CARDS_PER_PLAYER = 3  # H-SETUP
ORACLE_COINS = 1  # H-ACTIONS: Oracle draws a Mission Card for 1 coin


@dataclass(frozen=True)
class MissionCardData:
    """One Mission Card. Winter cards are redeemed in the sealed winter order (S-WINTER);
    objective cards are claimed at the end of the owner's own turn once `target` is reached."""

    id: str
    kind: str  # one of WINTER_CARD_KINDS or OBJECTIVE_CARD_KINDS
    vp: int  # VP scored (combo and flush: before the Blank penalty); 0 for cards that change rankings
    resource: str | None = None  # monopoly: "ap" | "fp" | "coins"
    target: int = 0  # objective: how many Poleis / trade links / Mints; coins a combo or flush needs

    @property
    def is_winter(self) -> bool:
        return self.kind in WINTER_CARD_KINDS


_MISSION_ROWS: tuple[tuple[str, str, int, str | None, int, int], ...] = (
    # kind, id stem, VP, resource, target, copies
    ("monopoly", "monopoly-ap", 3, "ap", 0, 2),
    ("monopoly", "monopoly-fp", 3, "fp", 0, 2),
    ("monopoly", "monopoly-coins", 3, "coins", 0, 2),
    ("coin_multiplier", "coin-multiplier", 0, None, 0, 2),
    ("combo", "combo", 4, None, 3, 3),  # 3 coins of 3 different designs, 4 VP
    ("flush", "flush", 5, None, 4, 2),  # 4 coins of one design, 5 VP
    ("extra_scoring", "extra-scoring", 0, None, 0, 2),
    ("second_coin_scoring", "second-coin-scoring", 0, None, 0, 2),
    ("poleis", "objective-poleis", 3, None, 6, 2),  # control 6 Poleis
    ("rival_native", "objective-rival-native", 4, None, 1, 2),  # control a rival's Native Polis
    ("trade_links", "objective-trade-links", 3, None, 4, 2),  # hold 4 trade links
    ("fortifications", "objective-fortifications", 3, None, 3, 2),  # 3 Fortifications on your Poleis
    ("mints", "objective-mints", 3, None, 3, 2),  # rules version 1 only: control 3 Mint Poleis
)
# Every card any rules version deals, so that a game of any version names its cards (and is told in words).
MISSION_CARDS: dict[str, MissionCardData] = {
    f"{stem}-{n}": MissionCardData(f"{stem}-{n}", kind, vp, resource, target)
    for kind, stem, vp, resource, target, copies in _MISSION_ROWS
    for n in range(1, copies + 1)
}
# H-MISSIONS, H-RULES-VERSION: the card each card of version 1 turned on Mints counts as from version 2 on,
# in a game begun under version 1 (the card in a hand or in the deck stays; what it asks for changes).
REPLACED_CARDS: dict[str, str] = {f"objective-mints-{n}": f"objective-fortifications-{n}" for n in (1, 2)}
# The 25 cards of the Mission deck: version 1 dealt the Mints objective, version 2 the Fortifications one.
_VERSION_1_DECK = tuple(sorted(c for c in MISSION_CARDS if c not in REPLACED_CARDS.values()))
_DECK_SINCE_2 = tuple(sorted(c for c in MISSION_CARDS if c not in REPLACED_CARDS))


def mission_deck(seed_wins: bool) -> tuple[str, ...]:
    """H-MISSIONS: the Mission deck's card ids, sorted: from rules version 2 on (`seed_wins`), with no
    card that turns on Mints (S-INC); under version 1 and before, with the Mints objective."""
    return _DECK_SINCE_2 if seed_wins else _VERSION_1_DECK
