"""Tests of games/admin.py: the operators' admin pages."""
