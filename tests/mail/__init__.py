"""Tests of games/mail/: the turn emails and notices as players receive them."""
