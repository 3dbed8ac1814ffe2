"""The event store: a game's log appended at an expected seq under its hash chain, read back and
folded into states (with snapshots and a per-process state cache), the projections registry that
keeps read models in step inside the appending transaction, and the log's verification and replay
(docs/architecture.md "The hash chain", docs/fairness.md). It may import games.engine, games.models
and aegea_pbem's SQL helpers; nothing that tells people anything, reads requests or sends mail.
"""
