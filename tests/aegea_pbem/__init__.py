"""Tests of aegea_pbem/: settings, error pages, warm-up and the SQL helpers."""
