"""The games app: the rules engine and everything around it, in layers (docs/architecture.md, "The
map"): engine, eventstore, words, board, reading, projectors, mail, services, tasks, then web, the
management commands and the admin. Each layer imports only the ones before it (.importlinter).
"""
