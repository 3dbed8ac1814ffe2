"""German: "5.12.2026, 19:17"."""

SHORT_DATETIME_FORMAT = "j.n.Y, H:i"
