"""Every module in this package registers its projectors on import (see games/eventstore/projections.py).

games.apps imports this package at start-up; adding a read model is adding one module here.
Modules load in name order, which is the order projectors run in.
"""

import importlib
import pkgutil

for _module in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
    importlib.import_module(f"{__name__}.{_module.name}")
