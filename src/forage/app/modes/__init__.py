"""The game screen's modes: what differs between a game of one's own (``solo``: a deal or
the daily deal), a lesson of the guided first game (``lesson``), the day's puzzle
(``puzzle``) and a room's game (``room``). The one game screen
(:class:`forage.app.screens.game.GameScreen`) consults its mode through the hooks of
:class:`~forage.app.modes.base.Mode`."""
