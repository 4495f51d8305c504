"""``sanh verify``: recompute a provably fair deck or dice roll and check the commitment."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sanh.cards.card import format_cards
from sanh.cards.deck import DECKS
from sanh.cards.rng import ProvablyFairRng, roll_dice, shuffled

__all__ = ["register"]

_DICE_GAMES = {"tai-xiu", "sic-bo", "taixiu"}


def register(sub: Any) -> None:
    """Add the ``verify`` subcommand."""
    parser: argparse.ArgumentParser = sub.add_parser(
        "verify",
        help="recompute a provably fair deck or dice and check the commitment",
        description=(
            "Recompute the deck order (or the dice) from HMAC-SHA256(server seed, "
            "'client seed:nonce:counter') and check SHA-256(server seed) against --commitment."
        ),
    )
    parser.add_argument("--server-seed", required=True)
    parser.add_argument("--client-seed", required=True)
    parser.add_argument("--nonce", required=True, type=int)
    parser.add_argument("--commitment", help="the SHA-256 published before the round (hex)")
    parser.add_argument(
        "--game",
        default="52",
        help="a game id (its deck, or dice for tai-xiu) or a deck size: 52, 36, 28, dice",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Recompute and print; exit 1 if the commitment does not match, 2 on bad input."""
    problem = _bad_input(args)
    if problem:
        print(f"sanh verify: {problem}", file=sys.stderr)
        return 2
    rng = ProvablyFairRng(args.server_seed, args.client_seed, args.nonce)
    out: dict[str, Any] = {
        "server_seed": args.server_seed,
        "client_seed": args.client_seed,
        "nonce": args.nonce,
        "commitment": rng.commitment,
    }
    kind = _deck_kind(args.game)
    if kind == "dice":
        out["dice"] = list(roll_dice(rng, 3))
    else:
        out["deck"] = format_cards(shuffled(DECKS[kind], rng)).split()
    ok = True
    if args.commitment is not None:
        ok = args.commitment.strip().lower() == rng.commitment
        out["commitment_ok"] = ok
    if args.json:
        print(json.dumps(out))
    else:
        print(f"commitment  {rng.commitment}")
        if "dice" in out:
            print("dice        " + " ".join(map(str, out["dice"])))
        else:
            print("deck        " + " ".join(out["deck"]))
        if args.commitment is not None:
            print("commitment matches" if ok else "COMMITMENT DOES NOT MATCH")
    return 0 if ok else 1


def _bad_input(args: argparse.Namespace) -> str:
    """Why the arguments cannot name a provably fair round ('' when they can)."""
    if not args.server_seed.strip():
        return "seed_empty: --server-seed must not be empty"
    if not args.client_seed.strip():
        return "seed_empty: --client-seed must not be empty"
    if args.nonce < 0:
        return f"nonce_negative: --nonce must be 0 or more, not {args.nonce}"
    return ""


def _deck_kind(game: str) -> str:
    if game in DECKS or game == "dice":
        return game
    if game in _DICE_GAMES:
        return "dice"
    from sanh.games import find_game

    try:
        return find_game(game).info.deck
    except KeyError as exc:
        raise SystemExit(f"sanh verify: {exc}") from None
