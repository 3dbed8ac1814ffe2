"""The use cases that write: orders and their lock, setting a game up, substitutes, vacations,
messages between players, new links, the deadline tick, digests, delivery problems, pruning the
outbox; inbox/ reads orders and messages from email replies. Each appends events or writes rows
in one transaction. It may import every layer below it (engine, eventstore, words, board,
reading, projectors, mail); never games.web, games.tasks or the management commands.
"""
