"""Stand-alone tools shipped with the project. `tools/verify_export.py` needs only Python's standard
library (a player runs it on its own); the package lets `manage.py verifygame` use the same checks
(games/eventstore/verification.py) instead of a second copy of them."""
