"""The read side: where a game stands as one player may know it (H-SCREEN), its history and
export, the previews of an order's cost, the signed per-player links, and what the organiser's
pages watch. Nothing here appends events. It may import games.engine, games.models,
games.eventstore, games.words and games.board.
"""
