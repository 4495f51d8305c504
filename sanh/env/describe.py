"""Markdown tables of a game's action ids and observation layout (docs/env.md is made of them).

``python -m sanh.env.describe`` prints the tables for every game at its documented table
size; tests/env/test_docs.py checks that docs/env.md holds exactly this text.
"""

from __future__ import annotations

from sanh.env.actions import AmountHead, ComboHead, OrdinalHead, ProductHead, SimpleHead
from sanh.env.core import Table, TableSpec
from sanh.games import all_games

__all__ = ["DOC_SEATS", "describe", "describe_all"]

DOC_SEATS = 4
"""The table size the docs describe (or the game's maximum, if smaller)."""


def describe(game_id: str, seats: int) -> str:
    """The action ids and the observation layout of one game at ``seats`` seats."""
    table = Table(TableSpec(game_id=game_id, seats=seats))
    codec, encoder = table.codec, table.encoder
    info = table.game.info
    lines = [
        f"### {info.id} ({info.name_vi})",
        "",
        f"{seats} seats: {codec.size} action ids, observation of {encoder.size} floats; "
        f"rewards in units of {table.unit} (the "
        + ("big blind" if table.unit != table.config.stake else "stake")
        + f" at stake {table.config.stake}).",
        "",
        "| ids | action | encoding |",
        "| --- | --- | --- |",
    ]
    for head in codec.heads:
        span = (
            str(head.offset) if head.size == 1 else f"{head.offset}-{head.offset + head.size - 1}"
        )
        if isinstance(head, SimpleHead):
            how = "one id"
        elif isinstance(head, ProductHead):
            dims = " × ".join(
                f"{name} ({len(d)})" for name, d in zip(head.fields, head.domains, strict=True)
            )
            how = f"one id per {dims}"
            if "card" in head.fields:
                how += "; card = rank × 4 + suit, 2c = 0 … As = 51"
        elif isinstance(head, AmountHead):
            buckets = ", ".join(head.label(i).split(" ")[-1] for i in range(head.buckets))
            keys = f"{len(head.keys)} {head.key_field}s × " if head.key_field else ""
            how = f"{keys}buckets {buckets}"
        elif isinstance(head, ComboHead):
            how = "canonical combination index (COMBOS): id = offset + combination id"
        else:
            assert isinstance(head, OrdinalHead)
            how = f"the k-th legal {head.cls.__name__} in the engine's order (k < {head.size})"
        lines.append(f"| {span} | {head.cls.__name__} | {how} |")
    lines += ["", "| offset | size | view field | encoding |", "| --- | --- | --- | --- |"]
    for block in encoder.layout():
        lines.append(f"| {block.offset} | {block.size} | {block.name} | {block.kind} |")
    vocab = encoder.vocab
    if vocab:
        lines += ["", "Vocabularies: " + "; ".join(
            f"{name}: {', '.join(values)}" for name, values in vocab.items()
        ) + "."]  # fmt: skip
    return "\n".join(lines) + "\n"


def describe_all() -> str:
    """Every game's tables, in id order."""
    parts = []
    for game in all_games():
        seats = min(DOC_SEATS, game.info.seats_max)
        parts.append(describe(game.info.id, seats))
    return "\n".join(parts)


if __name__ == "__main__":  # pragma: no cover
    print(describe_all(), end="")
