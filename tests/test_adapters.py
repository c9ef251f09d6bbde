"""The private names forage's adapters lean on are still where the adapters look.

Each test fails with a message naming the library, the name and the adapter, so that a new
release that moves one is caught here rather than by a player.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from multiprocessing.process import BaseProcess
from typing import ClassVar

import pytest

from forage.adapters.futures import end_running_workers, running_workers


def test_a_process_pool_still_keeps_its_workers_where_the_adapter_looks() -> None:
    pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
    try:
        pool.submit(os.getpid).result(timeout=60)
        kept = getattr(pool, "_processes", None)
        assert isinstance(kept, dict) and kept, (
            "concurrent.futures changed: ProcessPoolExecutor._processes is no longer the "
            "map of its worker processes (forage/adapters/futures.py)"
        )
        assert all(isinstance(p, BaseProcess) for p in kept.values())
        assert running_workers(pool) == list(kept.values())
    finally:
        end_running_workers(pool)


def test_aiohttps_site_still_keeps_its_runner_server_and_backlog_where_the_adapter_sets_them() -> (
    None
):
    import asyncio

    import aiohttp
    from aiohttp import web

    from forage.adapters.aiohttp import ProtocolSite

    async def scenario() -> None:
        async def page(request: web.Request) -> web.Response:
            return web.Response(text="here")

        app = web.Application()
        app.router.add_get("/", page)
        runner = web.AppRunner(app, handle_signals=False)
        await runner.setup()
        made: list[int] = []

        def wrap(server: web.Server) -> object:
            def protocol() -> object:
                made.append(1)
                return server()

            return protocol

        site = ProtocolSite(runner, "127.0.0.1", 0, wrap, 8)  # type: ignore[arg-type]
        for name in ("_runner", "_server", "_backlog"):
            assert hasattr(site, name), (
                f"aiohttp changed: BaseSite.{name} is gone (forage/adapters/aiohttp.py)"
            )
        await site.start()
        try:
            port = runner.addresses[0][1]
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{port}/") as answer,
            ):
                assert await answer.text() == "here"
            assert made, "the site's connections did not go through the adapter's protocol"
        finally:
            await runner.cleanup()

    asyncio.run(scenario())


class Failing:
    """A Textual app (built on the adapter's :class:`ErrorHookApp`) whose mounting fails,
    keeping every error it was told of and what Textual would print after it, before and
    after that printout is dropped."""

    @staticmethod
    def build() -> object:
        from forage.adapters.textual import ErrorHookApp, drop_exit_printout, exit_printout

        class App(ErrorHookApp[int]):
            told: list[Exception]
            printouts: list[int]

            def on_mount(self) -> None:
                self.told, self.printouts = [], []
                raise LookupError("no such card")

            def unhandled_error(self, error: Exception) -> None:
                self.told.append(error)
                super().unhandled_error(error)
                self.printouts.append(len(exit_printout(self)))
                drop_exit_printout(self)
                self.printouts.append(len(exit_printout(self)))

        return App()


def test_textual_still_hands_an_error_no_handler_caught_to_the_adapters_hook() -> None:
    import asyncio

    from textual.app import App

    app = Failing.build()
    assert isinstance(app, App)

    async def scenario() -> None:
        try:
            async with app.run_test():
                pass
        except LookupError:
            pass  # the pilot raises the app's error again once it has ended

    asyncio.run(scenario())
    told = getattr(app, "told", [])
    assert [str(error) for error in told] == ["no such card"], (
        "textual changed: App._handle_exception no longer receives an error no handler caught "
        "(forage/adapters/textual.py: ErrorHookApp)"
    )
    assert app.return_code == 1, "textual's own handling no longer ends the app with code 1"
    assert getattr(app, "printouts", []) == [1, 0], (
        "textual changed: App._exit_renderables no longer keeps the traceback to print "
        "(forage/adapters/textual.py: exit_printout, drop_exit_printout)"
    )


def test_textual_still_keeps_the_app_loops_thread_where_the_adapter_looks() -> None:
    import asyncio
    import threading

    from textual.app import App

    from forage.adapters.textual import on_app_thread

    app: App[None] = App()
    seen: dict[str, bool] = {}

    async def scenario() -> None:
        async with app.run_test() as pilot:
            seen["loop"] = on_app_thread(app)
            other = threading.Thread(target=lambda: seen.update(other=on_app_thread(app)))
            other.start()
            other.join(timeout=60)
            await pilot.pause()

    asyncio.run(scenario())
    assert seen == {"loop": True, "other": False}, (
        "textual changed: App._thread_id is no longer the thread of the app's event loop "
        "(forage/adapters/textual.py: on_app_thread)"
    )


def test_a_process_pool_still_keeps_its_manager_thread_where_the_adapter_looks() -> None:
    from forage.adapters.futures import manager_thread, settle_ended_pools

    pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
    pool.submit(os.getpid).result(timeout=60)
    manager = manager_thread(pool)
    assert manager is not None and manager.is_alive(), (
        "concurrent.futures changed: ProcessPoolExecutor._executor_manager_thread is no "
        "longer the thread that runs the pool (forage/adapters/futures.py)"
    )
    end_running_workers(pool)
    settle_ended_pools()
    assert not manager.is_alive()


def test_argparse_still_translates_its_words_through_its_module_level_names() -> None:
    """argparse looks up ``_`` and ``ngettext`` in its module at each use: the adapter points
    them elsewhere and argparse's usage and errors come out through them."""
    import argparse

    from forage.adapters.argparse import PRIVATE_NAMES, install

    kept = {name: getattr(argparse, name, None) for name in PRIVATE_NAMES}
    assert all(callable(found) for found in kept.values()), (
        "argparse changed: its module-level _ and ngettext (gettext's) are gone "
        "(forage/adapters/argparse.py)"
    )
    try:
        install(lambda message: f"<{message}>", lambda one, many, n: f"<{one if n == 1 else many}>")
        parser = argparse.ArgumentParser(prog="p", exit_on_error=False)
        parser.add_argument("--n", type=int)
        assert parser.format_usage().startswith("<usage: >p"), (
            "argparse changed: its usage no longer says 'usage: ' through its module-level _ "
            "(forage/adapters/argparse.py)"
        )
        assert "<options>" in parser.format_help()
        try:
            parser.parse_args(["--n", "x"])
        except argparse.ArgumentError as error:
            assert str(error) == "<argument --n: <invalid int value: 'x'>>", (
                "argparse changed: its errors no longer go through its module-level _ "
                "(forage/adapters/argparse.py)"
            )
        else:
            raise AssertionError("argparse took 'x' for a whole number")
    finally:
        for name, found in kept.items():
            setattr(argparse, name, found)


def test_argparse_still_wraps_help_with_the_methods_the_formatter_overrides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import argparse

    monkeypatch.setenv("COLUMNS", "80")
    from forage.adapters.argparse import PRIVATE_METHODS, WideTextFormatter, columns

    for name in PRIVATE_METHODS:
        assert callable(getattr(argparse.HelpFormatter, name, None)), (
            f"argparse changed: HelpFormatter.{name} is gone (forage/adapters/argparse.py)"
        )
    parser = argparse.ArgumentParser(
        prog="p", description="説明" * 60, formatter_class=WideTextFormatter
    )
    parser.add_argument("--x", help="長い説明の文" * 20)
    lines = parser.format_help().splitlines()
    assert max(columns(line) for line in lines) <= 80, (
        "argparse changed: its help is no longer wrapped through HelpFormatter._split_lines "
        "and _fill_text (forage/adapters/argparse.py)"
    )
    english = argparse.ArgumentParser(prog="p", description="word " * 40)
    ours = argparse.ArgumentParser(
        prog="p", description="word " * 40, formatter_class=WideTextFormatter
    )
    assert ours.format_help() == english.format_help()


def test_textual_still_keeps_a_nodes_bindings_where_the_adapter_merges_a_modes() -> None:
    import asyncio

    from textual.app import App
    from textual.binding import Binding, BindingType
    from textual.screen import Screen

    from forage.adapters.textual import bind_also

    more: list[BindingType] = [Binding("escape,q", "leave", "Leave"), Binding("a", "answer", "A")]

    class Plain(Screen[None]):
        BINDINGS: ClassVar[list[BindingType]] = [
            Binding("q", "quit_game", "Quit"),
            Binding("r", "rotate", "Rotate"),
        ]
        done: ClassVar[list[str]] = []

        def action_leave(self) -> None:
            self.done.append("leave")

    class Sub(Plain):
        BINDINGS: ClassVar[list[BindingType]] = more

    def shown(screen: Screen[None]) -> list[tuple[str, str]]:
        return [(key, b.action) for key, b in screen._bindings]

    class Shown(App[None]):
        def on_mount(self) -> None:
            screen = Plain()
            bind_also(screen, more)
            self.push_screen(screen)

    app = Shown()
    seen: dict[str, object] = {}

    async def scenario() -> None:
        async with app.run_test() as pilot:
            await pilot.pause()
            seen["active"] = [(k, a.binding.action) for k, a in app.screen.active_bindings.items()]
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(scenario())
    bound = Plain()
    bind_also(bound, more)
    assert shown(bound) == shown(Sub()), "textual merges a subclass's bindings otherwise now"
    expected = [("q", "leave"), ("r", "rotate"), ("escape", "leave"), ("a", "answer")]
    active = seen["active"]
    assert isinstance(active, list)
    assert [pair for pair in active if pair[0] in {"q", "r", "escape", "a"}] == expected, (
        "textual changed: DOMNode._bindings is no longer where a node's bindings are looked "
        "up (forage/adapters/textual.py: bind_also)"
    )
    assert Plain.done == ["leave"], "textual no longer runs a key bound by bind_also"
