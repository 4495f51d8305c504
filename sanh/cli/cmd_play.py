"""``sanh play [GAME]``: you against the house or bots at a terminal table.

The table is generic: it shows your seat's view field by field in your language, from the
web client's strings (:mod:`sanh.cli._table`: ``sanh/web/i18n.json``, amounts in gold in the
language's number format), numbers your legal actions (amount-carrying ones ask for an amount
in gold within their range), lets bots act for the other seats, draws chance events from the
system CSPRNG (or ``--seed``), and after each hand shows the settlement line by line and
applies it to your session balance (play money only).

Only the player's own actions are offered: the table's actions (closing a betting window,
forced folds, timer actions) are the clock's. Where the clock would close a window, the menu
offers to wait for it, which lets the table go on. End of input or Ctrl-C ends the session
cleanly (exit status 0) with the balance of the hands finished.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from sanh.bots import bot_for
from sanh.cards.rng import Rng, SeededRng, SystemRng
from sanh.cli._table import action_label, gold, parse_gold, render_view
from sanh.cli._texts import describe, term
from sanh.errors import ConfigError, IllegalActionError
from sanh.games import all_games, find_game
from sanh.games.base import CHANCE, Action, AmountRange, Game, OptionValue, Settlement, TableConfig
from sanh.games.driver import chance_event
from sanh.i18n import t
from sanh.types import UNITS_PER_GOLD

__all__ = ["play_session", "player_menu", "refusal", "register"]

HUMAN = 0
MAX_BOT_ACTIONS = 500


def register(sub: Any) -> None:
    """Add the ``play`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "play", help="play a game in the terminal against the house or bots (play money)"
    )
    parser.add_argument("game", nargs="?", help="game id or name; omitted: choose from a list")
    parser.add_argument("--seats", type=int, help="seats at the table (you are seat 1)")
    parser.add_argument("--stake", type=float, default=10.0, help="table bet level L in gold")
    parser.add_argument("--balance", type=float, default=10_000.0, help="your gold")
    parser.add_argument("--seed", help="deterministic shuffles and bots (default: system RNG)")
    parser.add_argument("--lang", choices=["vi", "en"], default="vi")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option"
    )
    parser.add_argument("--hands", type=int, default=0, help="stop after this many hands")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the terminal table."""
    console = Console()
    lang: str = args.lang
    try:
        game = find_game(args.game) if args.game else _choose_game(console, lang)
        options = dict(_parse_option(text) for text in args.option)
    except (KeyError, ValueError) as exc:
        print(f"sanh play: {exc.args[0]}", file=sys.stderr)
        return 2
    except (EOFError, KeyboardInterrupt):
        print()
        return 0
    seats = args.seats or (1 if game.info.banked else min(4, game.info.seats_max))
    seats = max(game.info.seats_min, seats)
    rng: Rng = SeededRng(args.seed) if args.seed is not None else SystemRng()
    try:
        balance = play_session(
            game,
            console,
            lang=lang,
            seats=seats,
            stake=round(args.stake * UNITS_PER_GOLD),
            balance=round(args.balance * UNITS_PER_GOLD),
            options=options,
            rng=rng,
            hands=args.hands,
        )
    except ConfigError as exc:
        print(f"sanh play: {exc}", file=sys.stderr)
        return 2
    console.print(t("goodbye", lang, balance=gold(balance, lang)))
    return 0


def _parse_option(text: str) -> tuple[str, OptionValue]:
    name, sep, raw = text.partition("=")
    if not sep:
        raise ValueError(f"an option is NAME=VALUE, not {text!r}")
    value: OptionValue = raw
    if raw.lower() in {"true", "false"}:
        value = raw.lower() == "true"
    elif raw.lstrip("-").isdigit():
        value = int(raw)
    return name.strip(), value


def _choose_game(console: Console, lang: str) -> Game[Any]:
    games = all_games()
    table = Table(title=t("choose_game", lang))
    table.add_column("#")
    table.add_column("id")
    table.add_column("")
    for number, game in enumerate(games, 1):
        table.add_row(str(number), game.info.id, term("game", "", game.info.id, lang))
    console.print(table)
    while True:
        text = input(t("game_number", lang) + ": ").strip()
        if text.isdigit() and 1 <= int(text) <= len(games):
            return games[int(text) - 1]
        try:
            return find_game(text)
        except KeyError:
            console.print(t("bad_choice", lang, text=text))


def play_session(
    game: Game[Any],
    console: Console,
    *,
    lang: str,
    seats: int,
    stake: int,
    balance: int,
    options: dict[str, OptionValue],
    rng: Rng,
    hands: int = 0,
) -> int:
    """Play hands until the player stops; returns the final balance (minor units).

    End of input or Ctrl-C stops the session: a hand not finished is dropped (play money, no
    settlement), and the balance of the hands finished is returned.
    """
    bot_balances = [balance] * seats
    bots = {seat: bot_for(game.info.id) for seat in range(1, seats)}
    carry: Any = None
    played = 0
    while True:
        stacks = [balance, *bot_balances[1:]]
        config = TableConfig.make(
            seats=seats, stake=stake, stacks=stacks, options=options, carry=carry
        )
        played += 1
        console.rule(f"{term('game', '', game.info.id, lang)} · {t('hand', lang)} {played}")
        console.print(f"{t('balance', lang)}: {gold(balance, lang)}")
        try:
            state = _play_hand(game, console, config, bots, rng, lang)
        except (EOFError, KeyboardInterrupt):
            console.print()
            return balance
        settlement = game.settle(state)
        _show_settlement(console, game.info.id, settlement, lang)
        balance += settlement.deltas[HUMAN]
        for seat in range(1, seats):
            bot_balances[seat] += settlement.deltas[seat]
            if bot_balances[seat] < stake * 10:
                bot_balances[seat] = balance_refill(stake)
        carry = game.carry(state)
        if hands and played >= hands:
            return balance
        if balance <= 0:
            console.print(t("broke", lang))
            return balance
        try:
            answer = input(t("again", lang) + " ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return balance
        if answer not in {t("yes", lang), "y", "c", ""}:
            return balance


def balance_refill(stake: int) -> int:
    """A fresh bankroll for a bot that ran low."""
    return stake * 1000


def _play_hand(
    game: Game[Any],
    console: Console,
    config: TableConfig,
    bots: dict[int, Any],
    rng: Rng,
    lang: str,
) -> Any:
    state = game.new_state(config)
    bot_actions = 0
    shown_version = -1
    while True:
        turn = game.to_act(state)
        if turn is None:
            console.print(Panel(escape(_render(game, state, lang))))
            return state
        if turn is CHANCE:
            state = game.apply(state, chance_event(game, state, rng))
            continue
        bot_seat = next((s for s in turn if s != HUMAN and game.legal_actions_for(state, s)), None)
        if bot_seat is not None and bot_actions < MAX_BOT_ACTIONS:
            action = bots[bot_seat].act(game.observe(state, bot_seat), rng)
            state = game.apply(state, action)
            bot_actions += 1
            continue
        if HUMAN in turn and (
            game.legal_actions_for(state, HUMAN) or game.amount_ranges_for(state, HUMAN)
        ):
            if state.version != shown_version:
                console.print(Panel(escape(_render(game, state, lang))))
                shown_version = state.version
            action = _ask(game, state, console, lang)
            try:
                state = game.apply(state, action)
            except IllegalActionError as exc:
                console.print(escape(refusal(exc, game.info.id, lang)))
            continue
        default = game.default_action(state, None, "timeout")
        if default is None:
            bot_seat = next(iter(s for s in turn if s != HUMAN), None)
            if bot_seat is None:
                raise RuntimeError("no one can act")
            default = game.default_action(state, bot_seat, "timeout")
            if default is None:
                raise RuntimeError("no default action")
        state = game.apply(state, default)


def _render(game: Game[Any], state: Any, lang: str) -> str:
    view = game.observe(state, HUMAN)
    seats: int = state.config.seats
    return render_view(game.info.id, view, lang, lambda s: _who(s, lang), seats)


def player_menu(game: Game[Any], state: Any) -> list[Action | AmountRange | None]:
    """The player's menu: their amount ranges, their other actions, and ``None`` (wait for the
    table) where the table's clock would act. Never a table action (``seat`` ``None``)."""
    ranges: list[AmountRange] = [
        r for r in game.amount_ranges_for(state, HUMAN) if r.template.seat == HUMAN
    ]
    # An action an amount range already offers (its minimum, its maximum) is not listed again.
    actions: list[Action] = [
        a
        for a in game.legal_actions_for(state, HUMAN)
        if a.seat == HUMAN and not any(_in_range(a, r) for r in ranges)
    ]
    clock = game.default_action(state, None, "timeout")
    choices: list[Action | AmountRange | None] = [*ranges, *actions]
    if clock is not None and clock.seat is None:
        choices.append(None)
    return choices


def _ask(game: Game[Any], state: Any, console: Console, lang: str) -> Action:
    """The player's choice among their own actions, or waiting for the table's clock.

    The table's actions (closing a betting window, forced folds, timer actions) are never
    offered; where the clock would close a window (:meth:`Game.default_action` of the table),
    "wait for the table" lets it, and returns the clock's action.
    """
    game_id = game.info.id
    choices = player_menu(game, state)
    console.print(f"[bold]{t('your_turn', lang)}[/bold]")
    who = lambda seat: _who(seat, lang)  # noqa: E731
    for number, choice in enumerate(choices, 1):
        if choice is None:
            label = t("wait_table", lang)
        elif isinstance(choice, AmountRange):
            low, high = gold(choice.min, lang), gold(choice.max, lang)
            name = action_label(game_id, choice.template, lang, who, skip=choice.field)
            label = f"{name} [{low} .. {high}]"
        else:
            label = action_label(game_id, choice, lang, who)
        console.print(f"  {number}) {escape(label)}")
    while True:
        text = input(t("choose_action", lang) + ": ").strip()
        if not (text.isdigit() and 1 <= int(text) <= len(choices)):
            console.print(escape(t("bad_choice", lang, text=text)))
            continue
        choice = choices[int(text) - 1]
        if choice is None:
            clock = game.default_action(state, None, "timeout")
            assert clock is not None
            return clock
        if not isinstance(choice, AmountRange):
            return choice
        low, high = gold(choice.min, lang), gold(choice.max, lang)
        raw = input(t("amount", lang, min=low, max=high) + ": ")
        try:
            amount = parse_gold(raw, lang)
        except ValueError:
            console.print(escape(t("bad_choice", lang, text=raw)))
            continue
        return choice.at(amount)


def _in_range(action: Action, amount_range: AmountRange) -> bool:
    """Whether ``action`` is ``amount_range``'s template at some amount."""
    if type(action) is not type(amount_range.template):
        return False
    amount = getattr(action, amount_range.field, None)
    return isinstance(amount, int) and amount in amount_range and action == amount_range.at(amount)


def _show_settlement(console: Console, game: str, settlement: Settlement, lang: str) -> None:
    table = Table(title=t("settlement", lang))
    for column in ("", "", t("detail", lang), t("stake", lang), t("net", lang)):
        table.add_column(column)
    for line in settlement.lines:
        who = t("house", lang) if line.seat is None else _who(line.seat, lang)
        stake = gold(line.stake, lang) if line.stake else ""
        item = term("item", game, line.item, lang)
        detail = describe(
            line.detail,
            lang,
            game=game,
            seat=lambda s: _who(s, lang),
            gold=lambda units: gold(units, lang),
        )
        table.add_row(who, escape(item), escape(detail), stake, gold(line.amount, lang))
    for seat, delta in enumerate(settlement.deltas):
        bold = f"[bold]{gold(delta, lang)}"
        table.add_row(f"[bold]{_who(seat, lang)}[/bold]", "", "", "", bold)
    if settlement.fee:
        table.add_row(t("fee", lang), "", "", "", gold(settlement.fee, lang))
    if settlement.breakage:
        table.add_row(t("breakage", lang), "", "", "", gold(settlement.breakage, lang))
    console.print(table)


def refusal(error: IllegalActionError, game: str, lang: str) -> str:
    """Why an action was refused, in ``lang`` (the reason's text code put into words)."""
    reason = describe(
        error.reason,
        lang,
        game=game,
        seat=lambda s: _who(s, lang),
        gold=lambda units: gold(units, lang),
    )
    return t("illegal", lang, reason=reason)


def _who(seat: int, lang: str) -> str:
    return t("you", lang) if seat == HUMAN else f"{t('bot', lang)} {seat + 1}"
