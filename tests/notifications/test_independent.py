"""notifications is a generic mail queue and inbound-mail store: it imports nothing of games
(docs/architecture.md); games registers what notifications asks of it (notifications/hooks.py)."""

from __future__ import annotations

import ast

from tests.import_support import imported_modules, imports_of


def test_no_module_of_notifications_imports_games() -> None:
    assert imports_of("notifications", "games") == []


def test_the_check_sees_imports_inside_functions_and_dotted_paths() -> None:
    # The check itself: an import hidden in a function, or a dotted path handed to import_string,
    # is an import too (that is how notifications reached into games before).
    source = (
        "from .models import Outbox\n"
        "def f():\n"
        "    from games.mail.keys import read_reply_address\n"
        "    import games.tasks\n"
        "    return import_string('games.mail.turns.late_parts')\n"
    )
    found = [module for _line, module in imported_modules(ast.parse(source))]
    assert found == ["games.mail.keys", "games.tasks", "games.mail.turns.late_parts"]
