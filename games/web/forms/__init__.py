"""Django forms of the pages: the order forms built from legal_commands, the trade and winter
forms, the organiser's new-game form and the forms of the table (deadlines, messages, vacations,
preferences, new links). A form only reads what a person typed; the engine and the services
decide. They may import every layer below games.web.
"""
