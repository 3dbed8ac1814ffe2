"""Tests of games/words/: events, orders and times in plain words, and the German catalogue."""
