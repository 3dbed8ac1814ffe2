"""The game's emails as outbox rows: turn emails and notices, which emails a player wants, the keys
an email carries (Reply-To token, unsubscribe links) and the board picture attached to it
(docs/email-orders.md). notifications/ delivers the rows. It may import every layer below it
(engine, eventstore, words, board, reading, projectors) and notifications' queue; never a
service, a view or a task.
"""
