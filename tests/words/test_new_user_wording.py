"""Words a new user's walk through a game found wrong, in both languages (docs/i18n.md).

German glued "zu" to a government's name ("Staatsform zu Tyrannis wechseln"): each government is now
named in a whole phrase per language, so German can say "zur Tyrannis".
"""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import Reform
from games.words.events import GAME_TELLERS
from games.words.names import GOVERNMENT_NAMES
from games.words.orders import command_label

GOVERNMENTS = ("tyranny", "oligarchy", "democracy")
GERMAN_GOVERNMENTS = {"tyranny": "Tyrannis", "oligarchy": "Oligarchie", "democracy": "Demokratie"}


@pytest.mark.parametrize("government", GOVERNMENTS)
def test_h_gov_a_reform_names_the_new_government_with_its_article_in_german(government):
    """H-GOV: the suggested Reform and the history's line about it, "zur Tyrannis" in German."""
    reformed = {"player": "sparta", "government": government}
    with translation.override("de"):
        name = GERMAN_GOVERNMENTS[government]
        assert str(GOVERNMENT_NAMES[government]) == name
        assert command_label(Reform("sparta", government=government)) == f"Reform: zur {name} wechseln"
        assert GAME_TELLERS["GovernmentReformed"](reformed, None) == f"Sparta ist zur {name} gewechselt."
    with translation.override("en"):
        name = str(GOVERNMENT_NAMES[government])
        assert command_label(Reform("sparta", government=government)) == (
            f"Reform: change the government to {name}"
        )
        assert GAME_TELLERS["GovernmentReformed"](reformed, None) == (
            f"Sparta changed its government to {name}."
        )
