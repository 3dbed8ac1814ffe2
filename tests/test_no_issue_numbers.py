"""Product code and docs point at a rule ID or a docs section, never at an issue number.

A reader has the rules (docs/rules.md) and the docs, not the tracker the project was built with,
so "issue 6" tells them nothing where "docs/long-games.md" or "H-TRADE" does.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READ = ("aegea_pbem", "games", "notifications", "templates", "tools", "docs")
TEXT = {".py", ".html", ".txt", ".md", ".css", ".js", ".json"}
ISSUE_NUMBER = re.compile(r"\bissues? #?[0-9]", re.IGNORECASE)


def test_no_product_file_names_an_issue_number():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in READ
        for path in sorted((ROOT / folder).rglob("*"))
        if path.suffix in TEXT and "__pycache__" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if ISSUE_NUMBER.search(line)
    ]
    assert not found, "Point at the rule ID or the docs section instead:\n" + "\n".join(found)
