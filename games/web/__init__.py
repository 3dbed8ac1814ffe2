"""The HTTP side: URLs, views, forms, the player page's context, the seat cookie and the seat's
rate-limit buckets. Views only parse, call one service or read function and render. It may
import every layer below it and games.tasks (to hand work to a worker); nothing imports it
except the URL configuration and the management commands' forms.
"""
