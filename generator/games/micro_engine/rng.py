"""SplitMix64: the game's only randomness, seeded by the opening chance node and kept as one int on the board."""

from __future__ import annotations

from .board import Board

MASK64 = (1 << 64) - 1


def seeded(seed: int) -> int:
    """Return the generator state for a game seed."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64


def next64(board: Board) -> int:
    """Advance the board's generator and return 64 random bits."""
    board.rng = (board.rng + 0x9E3779B97F4A7C15) & MASK64
    z = board.rng
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def below(board: Board, n: int) -> int:
    """Return a random int in [0, n)."""
    return next64(board) % n


def shuffle(board: Board, items: list[int]) -> None:
    """Shuffle `items` in place (Fisher–Yates)."""
    for i in range(len(items) - 1, 0, -1):
        j = next64(board) % (i + 1)
        items[i], items[j] = items[j], items[i]
