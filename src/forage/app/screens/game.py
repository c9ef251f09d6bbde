"""The game screen: the woodland, the hand, the supply, the score and the live preview."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.widgets import Static

from forage.adapters.textual import bind_also
from forage.app.describe import (
    ARROW_KEYS,
    ASK_KEY,
    COSTLY_NOTE,
    DOT,
    ELLIPSIS,
    ENTER_KEY,
    FRIENDS_KEY,
    MOUSE_COLOUR,
    asking_words,
    card_name,
    drop_aftermath,
    tone_of,
)
from forage.app.keeper import Keeper, tell_save_news
from forage.app.modes.base import Mode
from forage.app.modes.solo import SoloMode
from forage.app.screens.base import ModeHost, too_small_notice
from forage.app.services import services_of
from forage.app.session import Session
from forage.app.themes import next_theme, palette_name
from forage.app.view import (
    DropChange,
    PositionKey,
    Spot,
    Standing,
    drop_change,
    hand_state,
    is_costly,
    score_state,
    spot_index,
    spot_order,
    standing_of,
    status_state,
    title_text,
    woodland_state,
)
from forage.app.widgets import (
    HandView,
    KeyBar,
    ScorePanel,
    StatusBar,
    SupplyView,
    WoodlandView,
)
from forage.app.widgets.woodland import edwood_mark
from forage.engine import Game, Outcome, Placement
from forage.i18n import N_, _
from forage.settings import Settings, load_settings, save_settings

if TYPE_CHECKING:
    from forage.ai.hint import Hint


DROP_SAID: dict[tuple[str, bool], str] = {
    ("Placed", False): N_("Placed {card}: {gain} (score now {score}){also}."),
    ("Placed", True): N_("Placed {card}: {gain} (final now {score}){also}."),
    ("Took back", False): N_("Took back {card}: {gain} (score now {score}){also}."),
    ("Took back", True): N_("Took back {card}: {gain} (final now {score}){also}."),
    ("Redid: placed", False): N_("Redid: placed {card}: {gain} (score now {score}){also}."),
    ("Redid: placed", True): N_("Redid: placed {card}: {gain} (final now {score}){also}."),
}
"""The note on a drop, an undo or a redo (by its verb), in a standard game (False) or a
recipe challenge (True): the card, the change, the score (or final score) now, what else
the drop did."""


class GameWidgets(NamedTuple):
    """The game screen's widgets that show the game."""

    woodland: WoodlandView
    hand: HandView
    supply: SupplyView
    score: ScorePanel
    status: StatusBar


class GameScreen(ModeHost):
    """Play a game with the keyboard (or the mouse); every rule comes from the engine; what
    differs between a game of one's own, a lesson, a puzzle and a room's game is the screen's
    mode (``forage.app.modes``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Translators: the key bar's labels; those shown (Move ... Hint, Mouse colour) with
        # their keys fit one line of 80.
        Binding("left,h", "move(-1, 0)", _("Move"), key_display=ARROW_KEYS),
        Binding("right,l", "move(1, 0)", _("Right"), show=False),
        Binding("up,k", "move(0, -1)", _("Up"), show=False),
        Binding("down,j", "move(0, 1)", _("Down"), show=False),
        Binding("r", "rotate(True)", _("Rotate")),
        Binding("R", "rotate(False)", _("Rotate back"), show=False),
        Binding("tab", "next_card", _("Card"), priority=True),
        Binding("1", "choose(0)", _("Card 1"), show=False),
        Binding("2", "choose(1)", _("Card 2"), show=False),
        Binding("enter,space", "place", _("Place"), key_display=ENTER_KEY),
        Binding("question_mark", "help", _("Help"), key_display="?"),
        Binding("q", "quit_game", _("Quit")),
        Binding("u", "undo", _("Undo")),
        Binding("ctrl+r", "redo", _("Redo"), show=False),
        Binding("t", "hint", _("Hint")),
        Binding("c", "mouse_colour", MOUSE_COLOUR),  # shown where there is a choice
        Binding("p", "peek", _("Peek under"), show=False),
        Binding("n", "new_game", _("New"), show=False),
        Binding("s", "stats", _("Statistics"), show=False),
        Binding("g", "history", _("Games"), show=False),
        Binding("v", "colours", _("Colours"), show=False),
        Binding("L", "learn", _("Learn"), show=False),
        Binding("P", "puzzle", _("Puzzle"), show=False),
        Binding(ASK_KEY, "ask_costly", _("Ask before costly drops"), show=False),
        Binding("f", "spot(1)", _("Next spot"), show=False),
        Binding("F", "spot(-1)", _("Spot back"), show=False),
        Binding(FRIENDS_KEY, "friends", _("Friends"), show=False),
    ]

    class LearnAsked(Message):
        """The player asked for the guided first game over this one (``L``)."""

    class PuzzleAsked(Message):
        """The player asked for the day's puzzle over this game (``P``)."""

    class FriendsAsked(Message):
        """The player asked to play with friends: a room on a server (``i``)."""

    version: var[int] = var(0, init=False)
    """Goes up whenever the game or the cursor changes; the widgets are then updated."""

    def __init__(self, session: Session, mode: Mode | None = None) -> None:
        """A screen for the session's game, in ``mode`` (a game of one's own by default):
        the mode's keys on top of the game's, its classes and styles."""
        super().__init__()
        self.mode = mode or SoloMode()
        self.mode.attach(self)
        bind_also(self, self.mode.BINDINGS)
        self.add_class(*self.mode.CLASSES)
        self.css_path = [*self.css_path, *self.mode.CSS_PATHS]
        self.session = session
        self.set_class(session.is_challenge, "-challenge")
        self._ending = False
        self._keys_for = (session.game.is_over(), len(session.game.hand) < 2)
        """Whether the game is over and whether one card is left in hand: the keys shown."""
        self._title = ""
        self._serial = 0
        self._standing: Standing | None = None
        """The woodland and standing of the position shown (kept while the card moves)."""
        self._peek = False
        self._message = ""
        """A one-off answer to the last key, shown once on the status bar's last line."""
        self._last = ""
        """What the last drop (or undo, redo) did."""
        self._last_tone = "note"
        """How that reads: ``gain``, ``level`` or ``loss`` (the palette's mark)."""
        self._hint: tuple[tuple[int, tuple[Placement, ...]], Placement, str] | None = None
        """The hint in words, for the game as it stood when it was worked out and the
        placement it suggests (it goes once the card leaves that placement)."""
        self._early: Placement | None = None
        """Where the answer so far put the card, while the final hint is still coming."""
        self._follow = False
        """The player has tried to move the card since the last drop: the view shows it
        even where it waits (until then the view keeps its place)."""
        self._asked: tuple[PositionKey, Placement | None] | None = None
        """The costly drop enter was pressed for once (the position and the placement): a
        second enter there places it."""
        self._settings: Settings | None = None
        """The player's settings, read when first needed (not at start-up)."""
        self._choice = False
        """The card shown has a choice of mouse colour (the key bar names c)."""
        self._spots: tuple[PositionKey, int, tuple[Spot, ...]] | None = None
        """The legal spots of a card, best first, for the position they were found in."""
        self._stepped: int | None = None
        """The card f and F last stepped through; a card chosen since starts at its first
        spot (or its last, with F), wherever it lies."""

    def compose(self) -> ComposeResult:
        """Title; woodland and side panel; status bar; footer."""
        # Laid out by the screen's grid (app.tcss), with no containers between: a key press
        # repaints fewer lines.
        yield too_small_notice()
        yield Static(id="title", classes="body")
        yield from self.mode.compose_lesson()
        yield WoodlandView(id="woodland", classes="body")
        with VerticalScroll(id="side", classes="body", can_focus=False):  # scrolls when cut
            yield HandView(id="hand")
            yield SupplyView(id="supply")
            yield ScorePanel(id="score")
            yield from self.mode.compose_side()
        yield StatusBar(id="status", classes="body")
        yield KeyBar()

    def on_mount(self) -> None:
        """Draw the game as it stands (the mode's own set-up around it)."""
        self.mode.mounting()
        self.update_view()
        self.tell_save_news()
        self.check_end()
        self.mode.mounted()

    def on_unmount(self) -> None:
        """The mode's own ending (before the screen's drawn lines are let go)."""
        self.mode.unmounted()

    @on(Message)
    def to_mode(self, message: Message) -> None:
        """Hand every message and event to the mode, which answers those it deals in."""
        self.mode.handle(message)

    # -- attributes down ---------------------------------------------------------------------

    def watch_version(self) -> None:
        """Push the new state down to the widgets."""
        self.update_view()

    def changed(self) -> None:
        """Note that the game or the cursor changed."""
        self.version += 1
        self.tell_save_news()
        game = self.session.game
        over = (game.is_over(), len(game.hand) < 2)
        if over != self._keys_for:  # the keys that work have changed: the footer follows
            self._keys_for = over
            self.refresh_bindings()

    PLACING_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"move", "rotate", "next_card", "choose", "mouse_colour", "hint", "peek", "spot"}
    )
    """The keys that work on the card being placed: none once the game is over."""

    CARD_ACTIONS: ClassVar[frozenset[str]] = frozenset({"next_card", "choose"})
    """The keys that take the other hand card: none with one card left (the last turn)."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The mode's locked keys are not shown (nor work), nor those the mode does not
        allow now; once the game is over, nor those for placing a card, nor those that take
        the other hand card while there is one card in hand."""
        if action == "mode":  # a key of the mode's own: ``mode('answer')``
            return self.mode.allows(str(parameters[0]))
        game = self.session.game
        if action in self.mode.LOCKED or not self.mode.allows(action):
            return False
        if action in self.CARD_ACTIONS and len(game.hand) < 2:
            return False
        return not (action in self.PLACING_ACTIONS and game.is_over())

    def key_label(self, action: str, description: str) -> str | None:
        """What the key bar calls a key's action: once the game is over, enter shows the
        summary again; the mouse colour key is named only where the card has a choice
        (None: not named; the key still answers); the mode may name it otherwise."""
        named = self.mode.key_name(action)
        if named is not None:
            return named
        if action == "place" and self.session.game.is_over():
            return _("Summary")
        if action == "mouse_colour" and not self._choice:
            return None
        return description

    def tell_save_news(self) -> None:
        """Say once what went wrong (or right again) with saving the game."""
        tell_save_news(self.app)

    @cached_property
    def _widgets(self) -> GameWidgets:
        """The widgets the view's states go to (found once: the screen never rebuilds them)."""
        return GameWidgets(
            self.query_one(WoodlandView),
            self.query_one(HandView),
            self.query_one(SupplyView),
            self.query_one(ScorePanel),
            self.query_one(StatusBar),
        )

    def update_view(self) -> None:
        """Give every widget its state (``forage.app.view``): what depends only on the
        position once per position, what depends on the card being placed each time."""
        session = self.session
        game = session.game
        key = self._position_key()
        moved_on = self._standing is None or self._standing.key != key
        widgets = self._widgets
        if moved_on:
            self._standing = standing_of(game, self._serial)
            widgets.supply.supply = game.supply
        standing = self._standing
        assert standing is not None
        outcome = None if game.is_over() else session.preview()
        waiting = session.waiting  # dealt beside the woodland: not refused, not yet placed
        choice = outcome is not None and outcome.legal and bool(outcome.mouse_choice_possible)
        if choice != self._choice:  # the key bar names c only where it chooses something
            self._choice = choice
            self.refresh_bindings()
        widgets.woodland.state = woodland_state(
            game,
            standing.squares,
            outcome,
            previews=not waiting,
            peek=self._peek,
            serial=self._serial,
            marked=self.mode.marked(),
            follow=self._follow or not waiting,
        )
        widgets.hand.state = self.mode.hand_shown(
            hand_state(game, session.cursor, session.is_challenge)
        )
        # In a recipe challenge the engine works out the standing after the drop shown.
        after = None
        if session.is_challenge and outcome is not None and outcome.legal:
            after = game.result_after(outcome)
        if moved_on or session.is_challenge:
            widgets.score.state = self.mode.score_shown(score_state(game, standing, after, outcome))
        title = title_text(self.daily_label() or session.label())
        if title != self._title:
            self._title = title
            self.query_one("#title", Static).update(title)
        asking: DropChange | None = None
        if self._asked is not None and self._asked != (key, session.cursor):
            self._asked = None  # the card has moved: the question is dropped
        if self._asked is not None and outcome is not None and outcome.legal:
            asking = drop_change(game, outcome, after)
        note = self._message or (COSTLY_NOTE if asking else "") or self._hint_text() or self._last
        note_tone = self._last_tone if note == self._last else "note"
        self._message = ""
        widgets.status.state = self.mode.status_shown(
            status_state(
                game,
                standing,
                outcome,
                waiting=waiting,
                peek=self._peek,
                note=note,
                note_tone=note_tone,
                after=after,
                hints=self.check_action("hint", ()) is not False,
                asking=asking,
            )
        )
        self.mode.view_updated()

    def _position_key(self) -> PositionKey:
        """Which game of this screen and which position of it is shown."""
        return (self._serial, tuple(self.session.game.moves))

    def say(self, text: str) -> None:
        """Answer a key on the status bar's last line (instead of a notification)."""
        self._message = text
        self.changed()

    @property
    def last_note(self) -> str:
        """What the last drop (or undo, redo) did, or the note kept since."""
        return self._last

    def keep_note(self, text: str, tone: str = "note") -> None:
        """Say what happened on the status bar's last line, in the palette's mark ``tone``,
        until the next drop (or undo, redo) says what it did."""
        self._last, self._last_tone = text, tone
        self.changed()

    # -- messages up ---------------------------------------------------------------------------

    def on_hand_view_chosen(self, message: HandView.Chosen) -> None:
        """A click on a hand card chooses it."""
        self.action_choose(message.index)

    def on_woodland_view_spot_clicked(self, message: WoodlandView.SpotClicked) -> None:
        """A click on the woodland moves the card there (its top-left area)."""
        cursor = self.session.cursor
        if cursor is not None and self.session.move(message.x - cursor.x, message.y - cursor.y):
            self.changed()

    def on_woodland_view_turned(self, message: WoodlandView.Turned) -> None:
        """The wheel or a right click rotates the card."""
        self.action_rotate(message.clockwise)

    def on_woodland_view_double_clicked(self, message: WoodlandView.DoubleClicked) -> None:
        """A double click places the card."""
        self.action_place()

    # -- actions ---------------------------------------------------------------------------------

    def action_move(self, dx: int, dy: int) -> None:
        """Move the card being placed one area."""
        self._peek = False
        self._follow = True
        if self.session.move(dx, dy):
            self.changed()
        else:
            self.say(_("The card can go only one card beyond the woodland."))

    def action_rotate(self, clockwise: bool) -> None:
        """Turn the card a quarter."""
        self._peek = False
        self.session.rotate(clockwise)
        self.changed()

    def action_spot(self, step: int) -> None:
        """Move the card to the next legal spot (``step`` 1) or the one before (-1), in
        the order of what each gives at once (``view.spot_order``)."""
        session = self.session
        card = session.card_number
        if card is None:
            return
        key = self._position_key()
        if self._spots is None or self._spots[:2] != (key, card):
            self._spots = (key, card, spot_order(session.game, card))
        spots = self._spots[2]
        if not spots:
            name = card_name(session.game.card(card))
            name = name[:1].upper() + name[1:]
            self.say(_("{name} has no legal spot: tab takes the other card.").format(name=name))
            return
        here = session.cursor if self._stepped == card else None
        index = spot_index(spots, here, step)
        self._stepped = card
        session.go_to(spots[index].placement)
        self._peek = False
        self._follow = True
        self.say(
            _(
                "Spot {number} of {count} for this card, by what it gives at once "
                "({gain}): f next, F back."
            ).format(number=index + 1, count=len(spots), gain=f"{spots[index].gain:+d}")
        )

    def action_peek(self) -> None:
        """Show what lies under the card being placed (again: show the card)."""
        self._peek = not self._peek
        self.changed()

    def action_colours(self) -> None:
        """Switch between the standard and the colour-blind palette (Textual's theme)."""
        self.app.theme = next_theme(self.app.theme)
        self.say(
            _("Colours: the {palette} palette (v switches).").format(palette=palette_name(self.app))
        )

    def action_next_card(self) -> None:
        """Take the other hand card."""
        self._stepped = None
        self.session.next_card()
        self.changed()

    def action_choose(self, index: int) -> None:
        """Take hand card 1 or 2."""
        before = self.session.card_number
        if self.session.choose(index):
            if self.session.card_number != before:
                self._stepped = None
            self.changed()

    def action_mouse_colour(self) -> None:
        """Change the colour of the mouse die on a split area, where there is a choice."""
        if self.session.cycle_mouse():
            self.changed()
        else:
            self.say(_("No mouse colour to choose here."))

    def action_place(self) -> None:
        """Place the card, as the mode does."""
        self.mode.place()

    def action_mode(self, name: str) -> None:
        """A key of the mode's own: the mode's action ``name``."""
        action: Callable[[], object] = getattr(self.mode, f"action_{name}")
        action()

    def place_card(self) -> None:
        """Place the card; an illegal spot is refused with its reason."""
        if self.session.game.is_over():
            self.check_end()
            return
        if self.session.waiting:
            self.say(_("Move the card onto the woodland first: enter then places it."))
            return
        if self._ask_first():
            return
        self._asked = None
        before = self._final()
        outcome = self.session.place()
        if outcome is None:
            return
        if not outcome.legal:  # the headline says why, once
            self.changed()
            return
        self.keeper().keep(self.session)
        self.mode.after_placing(outcome)
        self.think_ahead()
        self._dropped("Placed", outcome.placement.card, before, outcome)
        self.check_end()

    def think_ahead(self) -> None:
        """While the player thinks: have the app's workers review the move just made (and
        work out the deal's par), where the app asks for it, for this player's own game."""
        if self.mode.OWN_GAME and getattr(self.app, "analyse_while_playing", False):
            from forage.app.screens.review import review_settings

            services_of(self.app).think_ahead(self.session.game, review_settings(self.app))

    def _final(self) -> int:
        """The score that decides the game: final in a recipe challenge, else base."""
        game = self.session.game
        return game.result().score.final if self.session.is_challenge else game.base

    def _dropped(self, verb: str, card: int, before: int, outcome: Outcome | None = None) -> None:
        """Note what the last drop (or undo, redo) did to the score, coloured by the change,
        and in plain words what else the drop's ``outcome`` did: Edwood used up, dice sent
        back to the supply."""
        self._peek = False
        self._follow = False
        self._hint = None
        gain = self._final() - before
        name = card_name(self.session.game.card(card))
        also = drop_aftermath(outcome) if outcome is not None else ""
        said = DROP_SAID[verb, self.session.is_challenge]
        self._last = _(said).format(card=name, gain=f"{gain:+d}", score=self._final(), also=also)
        self._last_tone = tone_of(gain)
        self.changed()

    def action_undo(self) -> None:
        """Take back the last placement."""
        self._step_back_or_on(back=True)

    def action_redo(self) -> None:
        """Make again the placement last undone."""
        self._step_back_or_on(back=False)

    def _step_back_or_on(self, back: bool) -> None:
        """Undo (``back``) or redo one placement and say what that did to the score."""
        before = self._final()
        done = self.session.undo() if back else self.session.redo()
        if done is None:
            self.say(
                _("Nothing to undo: this is the start of the game.")
                if back
                else _("Nothing to redo.")
            )
            return
        self.keeper().keep(self.session)
        card = done.card if isinstance(done, Placement) else done.placement.card
        redone = None if isinstance(done, Placement) else done
        self._dropped("Took back" if back else "Redid: placed", card, before, redone)
        if not back:
            self.check_end()

    def action_learn(self) -> None:
        """Ask for the guided first game over this one (the app opens it; escape comes back)."""
        self.post_message(self.LearnAsked())

    def action_puzzle(self) -> None:
        """Ask for the day's puzzle over this game (the app opens it; escape comes back)."""
        self.post_message(self.PuzzleAsked())

    def action_friends(self) -> None:
        """Ask for a room to play in with friends (the app asks for a name and a code)."""
        self.post_message(self.FriendsAsked())

    # -- between games and screens: a new game, quitting, the end, the screens over it -------

    def action_help(self) -> None:
        """Open the keys (those of this screen) and rules, Edwood's mark as the board draws
        it."""
        from forage.app.screens.help import HelpScreen, game_keys

        mode = self.mode
        asks = self._asks_costly() if mode.ASKS_BEFORE_COSTLY else None
        keys = game_keys(asks, mode.LOCKED, mode.quit_help())
        layout = self.query_one(WoodlandView).drawn_layout
        edwood = edwood_mark(layout[0].height) if layout is not None else None
        self.app.push_screen(HelpScreen(self.session.game.recipes, keys=keys, edwood=edwood))

    def action_new_game(self) -> None:
        """Start a new game (asking first if this one is under way)."""
        from forage.app.screens.confirm import ConfirmScreen

        game = self.session.game
        if game.moves and not game.is_over():

            def answered(answer: str | None) -> None:
                if answer == "yes":
                    self.load(self.session.new_game())

            self.app.push_screen(
                ConfirmScreen(_("Start a new game? This game will be lost.")), answered
            )
        else:
            self.leave_finished(lambda: self.load(self.session.new_game()), _("A new game"))

    def action_quit_game(self) -> None:
        """Quit, as the mode does."""
        self.mode.quit()

    def save_and_quit(self) -> None:
        """Save the game and leave (it is offered next time: not abandoned), the keeper
        noting what it kept where, for the terminal."""
        keeper = self.keeper()
        keeper.save(self.session)

        def leave() -> None:
            keeper.quit(self.session, self.in_history())
            self.app.exit(0)

        self.leave_finished(leave, _("Quitting"))

    def leave_finished(self, then: Callable[[], None], doing: str) -> None:
        """Do ``then`` once the finished game on this screen (if it is one) is kept apart
        from the save; when it cannot be kept, say why and what ``doing`` would do, and
        ask first."""
        problem = self.keeper().secure_finished(self.session, self.in_history())
        if problem is None:
            then()
            return
        from forage.app.screens.confirm import ConfirmScreen

        def answered(answer: str | None) -> None:
            if answer == "yes":
                then()
            else:
                self.say(_("The finished game is still here: free some space, then try again."))

        # Translators: {doing} is what the player chose: "Quitting", "A new game" ...
        question = _(
            "This finished game is not kept anywhere yet ({problem}), so the history "
            "cannot have it.\n\n{doing} now loses it. Go on anyway?"
        ).format(problem=problem, doing=doing)
        answers = (_("lose it"), _("keep playing here"))
        self.app.push_screen(ConfirmScreen(question, answers), answered)

    def load(self, session: Session) -> None:
        """Play another session on this screen (the one it replaces, if unfinished, is
        recorded as abandoned)."""
        if self.mode.OWN_GAME:
            services_of(self.app).take_game(session.carry_on(self.session), self.session)
        self.session = session
        self.set_class(session.is_challenge, "-challenge")
        self._serial += 1
        self._last = ""
        self._hint = None
        self._peek = False
        self.query_one(ScorePanel).refresh(layout=True)
        self.keeper().keep(session)
        self.changed()
        self.check_end()

    def in_history(self) -> bool:
        """Whether this screen's finished game is stored in the history."""
        return self.mode.OWN_GAME and services_of(self.app).has_recorded(self.session)

    def keeper(self) -> Keeper:
        """What writes this screen's game down (the save, the --record file), as the mode
        says."""
        return self.mode.keeper()

    def daily_label(self) -> str | None:
        """How the daily deal is named in the title (not by its long seed), else None."""
        daily = services_of(self.app).daily_of(self.session) if self.mode.OWN_GAME else None
        if daily is not None:
            if self.session.is_challenge:
                return _("daily deal {date} {dot} recipe challenge").format(date=daily, dot=DOT)
            return _("daily deal {date} {dot} standard game").format(date=daily, dot=DOT)
        return None

    async def action_stats(self) -> None:
        """Open the statistics and achievements (read on the history's thread)."""
        from forage.app.screens.stats import StatsScreen

        stats, unlocked = await services_of(self.app).statistics()
        self.app.push_screen(StatsScreen(stats, unlocked))

    async def action_history(self) -> None:
        """Open the list of stored games, from which any can be reviewed (read on the
        history's thread)."""
        from forage.app.screens.history import SHOWN, HistoryScreen

        games = await services_of(self.app).stored_games(SHOWN)
        self.app.push_screen(HistoryScreen(games))

    def check_end(self) -> None:
        """Show the end screen once the game is over (finished or stuck), in a mode that
        has one."""
        if not self.mode.ends() or not self.session.game.is_over() or self._ending:
            return
        from forage.app.screens.end import EndScreen

        self._ending = True
        self.app.push_screen(EndScreen(self.session), self._after_end)

    def _after_end(self, choice: str | None) -> None:
        self._ending = False
        session = self.session
        if choice == "again":
            self.leave_finished(lambda: self.load(session.same_deal()), _("Playing the deal again"))
        elif choice == "other":
            other = session.other_deck()
            if other is not None:
                self.leave_finished(lambda: self.load(other), _("Playing the other deck"))
        elif choice == "new":
            self.leave_finished(lambda: self.load(session.new_game()), _("A new game"))
        elif choice == "undo":
            self.action_undo()
        elif choice == "look":
            self.say(_("The finished woodland: enter shows the summary again."))
        elif choice == "quit":
            self.action_quit_game()

    # -- the question before a costly drop (a second enter; w turns it off or on) ----------

    @property
    def asks_again(self) -> bool:
        """Whether enter was pressed once for a costly drop, and a second enter places it."""
        return self._asked is not None and self._asked == (
            self._position_key(),
            self.session.cursor,
        )

    def _ask_first(self) -> bool:
        """Whether enter asks again rather than places: the drop shown is costly, the
        player has not turned the question off, and enter was not just pressed for it."""
        session = self.session
        here = (self._position_key(), session.cursor)
        if not self.mode.ASKS_BEFORE_COSTLY or self._asked == here or not self._asks_costly():
            return False
        outcome = session.preview()
        if outcome is None or not outcome.legal:
            return False
        game = session.game
        after = game.result_after(outcome) if session.is_challenge else None
        if not is_costly(drop_change(game, outcome, after)):
            return False
        self._asked = here
        self.changed()
        return True

    def _asks_costly(self) -> bool:
        """Whether the player wants a second enter before a costly drop (read once from
        the data folder; in a browser tab, whose data folder is the server's, asked until
        turned off there)."""
        if self._settings is None:
            self._settings = Settings() if self.app.is_web else load_settings()
        return self._settings.ask_costly

    def action_ask_costly(self) -> None:
        """Turn the question before a costly drop off, or on again (kept for next time)."""
        asks = self._asks_costly()
        kept_now = Settings() if self.app.is_web else load_settings()  # the language too
        self._settings = replace(kept_now, ask_costly=not asks)
        self._asked = None
        kept = self.app.is_web or save_settings(self._settings)
        answer = asking_words(self._settings.ask_costly)
        if not kept:
            answer += _(" (For this game only: the data folder cannot be written.)")
        self.say(answer)

    # -- hints: worked out in the background, the answer so far shown, then the final one ------

    def _hint_text(self) -> str:
        """The hint in words while it is for the game as it stands, else nothing."""
        if self._hint is None:
            return ""
        key, placement, text = self._hint
        here = self.session.cursor
        if key != (self._serial, tuple(self.session.game.moves)) or here != placement:
            self._hint = None  # the card left the hinted placement: the hint no longer applies
            return ""
        return text

    def action_hint(self) -> None:
        """Work out a suggested placement in the background, then show it."""
        game = self.session.game
        if game.is_over():
            return
        self.session.hints += 1
        self._early = None
        self.say(_("Hint: looking for a good placement{ellipsis}").format(ellipsis=ELLIPSIS))
        key = (self._serial, tuple(game.moves))
        snapshot = self.session.snapshot()
        self.run_worker(self._find_hint(key, snapshot), exclusive=True, group="hint")

    async def _find_hint(self, key: tuple[int, tuple[Placement, ...]], game: Game) -> None:
        """Ask the app's services for a hint on a copy of the game; show the answer so
        far, then the final one."""
        from forage.ai.workers import POOL_ERRORS, pool_problem

        def so_far(found: Hint) -> None:
            if self.on_stack():  # the screen may have closed meanwhile
                self._hint_ready(key, found)

        try:
            found = await services_of(self.app).hint(game, so_far)
        except POOL_ERRORS as error:
            self.say(_("No hint: {problem}.").format(problem=pool_problem(error)))
            return
        self._hint_ready(key, found)

    def _hint_ready(self, key: tuple[int, tuple[Placement, ...]], found: Hint | None) -> None:
        """Show the hint (first the answer so far, then the final one), unless the game
        moved on while it was being worked out, or the player has moved the card off the
        answer so far."""
        if key != (self._serial, tuple(self.session.game.moves)):
            return
        if found is None:
            self.say(_("No placement to suggest."))
            return
        early, self._early = self._early, None
        if found.final and early is not None and self.session.cursor != early:
            return  # the player moved the card off the answer so far: leave it be
        self.show_hint(found.placement, found.gain, found.expected, found.final, found.proven)
        if not found.final:
            self._early = self.session.cursor

    def show_hint(
        self,
        placement: Placement,
        gain: int = 0,
        expected: float = 0.0,
        final: bool = True,
        proven: bool = False,
    ) -> None:
        """Move the card being placed to a suggested placement; enter then places it
        (``final`` False: the answer so far, the search still checking it; ``proven``: the
        exact search's best, ``expected`` the final score it reaches)."""
        if self.session.go_to(placement):
            self._peek = False
            game = self.session.game
            more = expected - (game.base + gain)
            name = card_name(game.card(placement.card))
            said = {"card": name, "gain": f"{gain:+d}", "more": f"{more:.0f}"}
            last = game.turn >= game.turns
            if not final:  # the headline above says that enter places it
                text = _("Hint so far: {card} here, {gain} now; still checking{ellipsis}").format(
                    ellipsis=ELLIPSIS, **said
                )
            elif proven and last:
                text = _("Hint: {card} here, {gain} now; proven best.").format(**said)
            elif proven:
                text = _(
                    "Hint: {card} here, {gain} now, {more} more next turn; proven best."
                ).format(**said)
            elif last:
                text = _("Hint: {card} here, {gain} now.").format(**said)
            else:
                text = _("Hint: {card} here, {gain} now, about {more} more next turn.").format(
                    **said
                )
            here = self.session.cursor
            assert here is not None
            self._hint = ((self._serial, tuple(self.session.game.moves)), here, text)
            self.changed()
