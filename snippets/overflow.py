"""Where exp overflows: the threshold ln(finfo.max) of each floating-point type, checked."""

import math

import torch

from snippets.kernels.reference import exp_overflow_threshold

DTYPES = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


def dtype_name(dtype: torch.dtype) -> str:
    """Short name of a dtype: torch.float16 -> float16."""
    return str(dtype).removeprefix("torch.")


def neighbours(t: float, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
    """The two values of dtype that bracket t: the largest <= t and the smallest > t."""
    x = torch.tensor(t, dtype=torch.float64).to(dtype)  # t rounded to the nearest value
    if x.item() > t:
        return torch.nextafter(x, torch.tensor(-math.inf, dtype=dtype)), x
    return x, torch.nextafter(x, torch.tensor(math.inf, dtype=dtype))


def overflow_rows() -> list[tuple[str, float, float, float, float, float, float]]:
    """Rows (dtype, finfo.max, threshold, x below, exp(x below), x above, exp(x above))."""
    rows = []
    for dtype in DTYPES:
        t = exp_overflow_threshold(dtype)  # ln(finfo.max), computed, never typed
        below, above = neighbours(t, dtype)
        rows.append(
            (
                dtype_name(dtype),
                torch.finfo(dtype).max,
                t,
                below.item(),
                torch.exp(below).item(),  # exp in the dtype itself
                above.item(),
                torch.exp(above).item(),
            )
        )
    return rows


if __name__ == "__main__":
    print(f"{'dtype':9s} {'ln(max)':>11s} {'exp(just below)':>16s} {'exp(just above)':>16s}")
    for name, _, t, _, e_below, _, e_above in overflow_rows():
        print(f"{name:9s} {t:11.4f} {e_below:16.4g} {e_above:16.4g}")
    x = torch.tensor(700.0)
    print(f"exp(700) in float32: {torch.exp(x).item()}")
    print(f"exp(700) in float64: {torch.exp(x.double()).item():.4g}")
