"""English: "5 Dec 2026, 19:17", day before month, so that no reader takes it for 12 May."""

SHORT_DATETIME_FORMAT = "j M Y, H:i"
