"""Dev-only benchmarks: `make bench` (orders, loads, replay, email delivery, HTTP load) and `make
bench-scale` (scale seeding), and the bots of `manage.py simulate`, with their commands.

Installed only by bench/settings.py (and by the test settings, which test it); nothing in games,
notifications or aegea_pbem imports it, so none of it ships in the product's process
(tests/bench/test_outside_the_product.py checks that). It may import anything of the product.
"""
