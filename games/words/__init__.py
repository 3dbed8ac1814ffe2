"""Text for people: the names of factions, tiles, coins and phases, events and orders in plain
words, a player's position, the words of the email order syntax and the turn clock (deadlines in
the reader's zone). Every string is an English gettext source string (docs/i18n.md). It may import
games.engine, games.models and games.eventstore; never the read side, the mail or a service.
"""
