"""The history of games played: the SQLite store, statistics, achievements and the daily deal.

Neither the engine nor the screen's drawing code knows about this package; the app hands
finished and abandoned games to :class:`HistoryStore` and shows what it gives back.
"""
