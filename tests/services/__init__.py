"""Tests of games/services/: orders, their lock, deadlines and delivery problems."""
