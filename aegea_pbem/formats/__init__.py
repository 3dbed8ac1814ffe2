"""The project's date formats per language (FORMAT_MODULE_PATH), over Django's own: only what differs.

SHORT_DATETIME_FORMAT is how a deadline, a vacation's end and the like read (games/words/clock.py
zone_time), with the zone named after it: "5 Dec 2026, 19:17" / "5.12.2026, 19:17".
"""
