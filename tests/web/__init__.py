"""Tests of games/web/: the pages, forms and the JSON API through the test client."""
