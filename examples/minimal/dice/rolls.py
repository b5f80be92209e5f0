"""The sum of n fair six-sided dice: its exact variance, and a sampled check of it."""

import random
from fractions import Fraction

FACES = range(1, 7)


def variance_of_sum(n: int) -> Fraction:
    """Var(X_1 + ... + X_n) = n * Var(X) for independent dice; Var(X) = 35/12."""
    mean = Fraction(sum(FACES), len(FACES))
    one = sum((Fraction(f) - mean) ** 2 for f in FACES) / len(FACES)
    return n * one


def sampled_sums(n: int, trials: int = 20_000, seed: int = 0) -> list[int]:
    """Sums of n dice over `trials` seeded throws."""
    rng = random.Random(seed)
    return [sum(rng.choice(FACES) for _ in range(n)) for _ in range(trials)]


if __name__ == "__main__":
    sums = sampled_sums(4)
    mean = sum(sums) / len(sums)
    sampled = sum((s - mean) ** 2 for s in sums) / (len(sums) - 1)
    print(f"exact variance for 4 dice: {variance_of_sum(4)} = {float(variance_of_sum(4)):.3f}")
    print(f"sampled: {sampled:.2f}")
