"""Orders and messages by email reply (docs/email-orders.md): finding the player's own lines in a
reply, the order, card and trade syntax in English and German, and what an authenticated reply
does. It may import what games.services may, and the other services.
"""
