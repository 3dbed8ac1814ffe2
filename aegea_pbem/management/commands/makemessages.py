"""`manage.py makemessages`, also extracting the rules engine's refusals (docs/i18n.md).

Django's own command with more xgettext keywords, the way Django's docs show for customizing it
(override `xgettext_options`). The engine may not import Django, so its English refusals carry no
gettext marker: `RuleViolation(rule, "template %(x)s", **params)` and `_bad("template", ...)`
(games/engine/order_reading.py) are the markers instead, read wherever they are called (the web
layer raises the engine's class too). The web layer translates a refusal with
gettext(message_template) (games/web/forms/orders.py violation_text). A template must be a string literal:
xgettext skips anything else, and tests/test_i18n_catalogue.py fails on it.
"""

from __future__ import annotations

from django.core.management.commands.makemessages import Command as DjangoMakemessages

# Name of a callable -> the position of its message template (xgettext counts from 1).
ENGINE_KEYWORDS = {"RuleViolation": 2, "_bad": 1}


class Command(DjangoMakemessages):
    xgettext_options = DjangoMakemessages.xgettext_options + [
        f"--keyword={name}:{position}" for name, position in ENGINE_KEYWORDS.items()
    ]
