"""Telling the webhooks' two kinds of failure apart: a post the ESP garbled (400: posting it again
would not help) and our own receiver failing on a good post (500: the ESP posts it again later)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any


class HandlerFailed(Exception):
    """A receiver of ours failed on a post anymail could read: the webhook answers 500."""


def our_handler(receiver: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a signal receiver so that its own errors (a ValueError of a bug as much as a database
    error) come out as HandlerFailed, which webhooks.readable never mistakes for a garbled post."""

    @wraps(receiver)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        try:
            return receiver(*args, **kwargs)
        except Exception as exc:
            raise HandlerFailed(f"{receiver.__name__} failed") from exc

    return wrapped
