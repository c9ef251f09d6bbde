"""The Textual game screen of Forage (`forage play`): the app, its screens and widgets.

Started by :func:`forage.cli.play.run_game`."""
