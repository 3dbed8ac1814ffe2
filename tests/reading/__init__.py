"""Tests of games/reading/: history, previews, links, the organiser's watch, and what no reader may see."""
