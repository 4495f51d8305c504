"""Randomness for shuffles and dice, made outside the engines and passed to them as data.

Three sources share one interface, :class:`Rng`:

* :class:`SystemRng` draws from the operating system's CSPRNG (the default in play);
* :class:`SeededRng` is deterministic for tests, replays and simulations;
* :class:`ProvablyFairRng` derives every draw from HMAC-SHA256(server seed,
  ``"client seed:nonce:counter"``), so that a published commitment SHA-256(server seed) binds
  the deck order or the dice before the round, and anyone can recompute them after the seed is
  revealed (``sanh verify``).

Integers are drawn by rejection sampling (no modulo bias) and decks are shuffled with
Fisher-Yates.

>>> rng = ProvablyFairRng("server", "client", 7)
>>> rng.commitment == commitment_of("server")
True
>>> roll_dice(ProvablyFairRng("server", "client", 7), 3) == roll_dice(rng, 3)
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Protocol, TypeVar, runtime_checkable

__all__ = [
    "ByteStreamRng",
    "ProvablyFairRng",
    "Rng",
    "SeededRng",
    "SystemRng",
    "commitment_of",
    "new_server_seed",
    "roll_dice",
    "shuffled",
]

T = TypeVar("T")


@runtime_checkable
class Rng(Protocol):
    """A source of uniform integers."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; ``n`` must be positive."""
        ...


class SystemRng:
    """The operating system's CSPRNG (:mod:`secrets`)."""

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        return secrets.randbelow(n)


class ByteStreamRng:
    """Uniform integers by rejection sampling over a deterministic stream of 32-byte blocks.

    Subclasses define :meth:`block`; block ``k`` feeds bytes ``32k .. 32k+31`` of the stream.
    """

    def __init__(self) -> None:
        self._buffer = b""
        self._pos = 0
        self.counter = 0
        """How many blocks have been consumed."""

    def block(self, counter: int) -> bytes:
        """The 32-byte block number ``counter``."""
        raise NotImplementedError

    def _take(self, count: int) -> bytes:
        pos = self._pos
        end = pos + count
        if end <= len(self._buffer):  # the usual case: the bytes are in the current block
            self._pos = end
            return self._buffer[pos:end]
        out = bytearray()
        while len(out) < count:
            if self._pos >= len(self._buffer):
                self._buffer = self.block(self.counter)
                self.counter += 1
                self._pos = 0
            take = min(count - len(out), len(self._buffer) - self._pos)
            out += self._buffer[self._pos : self._pos + take]
            self._pos += take
        return bytes(out)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``: by masked rejection sampling."""
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._take(nbytes), "big") & mask
            if value < n:
                return value


class SeededRng(ByteStreamRng):
    """A deterministic source for tests and replays: SHA-256(seed ":" counter) blocks.

    The stream depends only on the seed, never on the Python version.
    """

    def __init__(self, seed: int | str | bytes) -> None:
        super().__init__()
        if isinstance(seed, bytes):
            self._seed = seed
        else:
            self._seed = str(seed).encode()
        self.seed = seed
        """The seed this stream was made from."""

    def block(self, counter: int) -> bytes:
        """SHA-256 of ``seed:counter``."""
        return hashlib.sha256(self._seed + b":" + str(counter).encode()).digest()

    def fork(self, label: str) -> SeededRng:
        """An independent deterministic stream derived from this seed and a label."""
        return SeededRng(hashlib.sha256(self._seed + b"/" + label.encode()).digest())


class ProvablyFairRng(ByteStreamRng):
    """Provably fair draws: block ``k`` is HMAC-SHA256(server_seed, "client_seed:nonce:k")."""

    def __init__(self, server_seed: str, client_seed: str, nonce: int) -> None:
        super().__init__()
        self.server_seed = server_seed
        """The secret seed, revealed after the round."""
        self.client_seed = client_seed
        """The player's (or the table's) public seed."""
        self.nonce = nonce
        """The round number under this server seed."""

    @property
    def commitment(self) -> str:
        """SHA-256(server seed) in hex, published before the round."""
        return commitment_of(self.server_seed)

    def block(self, counter: int) -> bytes:
        """HMAC-SHA256(server seed, ``client_seed:nonce:counter``)."""
        message = f"{self.client_seed}:{self.nonce}:{counter}".encode()
        return hmac.new(self.server_seed.encode(), message, hashlib.sha256).digest()


def commitment_of(server_seed: str) -> str:
    """The public commitment to a server seed: its SHA-256 in hex."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def new_server_seed() -> str:
    """A fresh 256-bit server seed in hex, from the operating system's CSPRNG."""
    return secrets.token_hex(32)


def shuffled(items: Sequence[T], rng: Rng) -> tuple[T, ...]:
    """A Fisher-Yates shuffle of ``items`` (a new tuple; the input is untouched).

    For ``i`` from the last index down to 1, swap item ``i`` with item ``randbelow(i + 1)``.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def roll_dice(rng: Rng, count: int = 3, sides: int = 6) -> tuple[int, ...]:
    """Roll ``count`` dice numbered 1..``sides``."""
    return tuple(rng.randbelow(sides) + 1 for _ in range(count))
