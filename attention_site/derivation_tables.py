"""Tables and values for the derivation pages (saturation, implementation, variants), computed
when the site is built."""

import math
from collections.abc import Callable

import numpy as np
import torch

from lockstep.tables import markdown_table
from snippets import variance
from snippets.figures import softmax_sharpness
from snippets.overflow import overflow_rows
from snippets.scale_placement import PLACEMENTS, placement_errors
from snippets.softcap import softcap, softcap_grad

HEADERS = {
    "overflow": {
        "zh": ("类型", "最大有限值", "阈值 ln(max)", "阈值下方最近的值", "阈值上方最近的值"),
        "en": (
            "dtype",
            "largest finite",
            "threshold ln(max)",
            "nearest value below",
            "nearest value above",
        ),
    },
    "placement": {
        "zh": ("类型", "乘在分数上", "乘在 Q 上", "乘在 K 上", "拆开：各乘 $d_k^{-1/4}$"),
        "en": ("dtype", "on the scores", "on Q", "on K", "split: $d_k^{-1/4}$ on each"),
    },
    "dmodel": {
        "zh": (
            "头数 $h$",
            r"$d_\text{model} = h\,d_k$",
            r"除以 $\sqrt{d_k}$ 后的 std",
            r"除以 $\sqrt{d_\text{model}}$ 后的 std",
            r"$1/\sqrt{h}$",
        ),
        "en": (
            "heads $h$",
            r"$d_\text{model} = h\,d_k$",
            r"std after $/\sqrt{d_k}$",
            r"std after $/\sqrt{d_\text{model}}$",
            r"$1/\sqrt{h}$",
        ),
    },
    "softcap": {
        "zh": ("原始 logit $x$", r"$30\tanh(x/30)$", "导数", r"$50\tanh(x/50)$", "导数"),
        "en": ("raw logit $x$", r"$30\tanh(x/30)$", "derivative", r"$50\tanh(x/50)$", "derivative"),
    },
}

PLACEMENT_DTYPES = (torch.float32, torch.bfloat16, torch.float16)
DMODEL_D_K = 64
DMODEL_HEADS = (1, 4, 8, 16, 32)
SOFTCAP_XS = (1.0, 10.0, 30.0, 50.0, 100.0, 150.0)


def _markdown(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    """A right-aligned Markdown table."""
    return markdown_table(headers, rows, align="r" * len(headers))


def _shortest(x: float, dtype_name: str) -> str:
    """The shortest decimal that reads back as x in its own type (float32 for bfloat16)."""
    np_type = {"float16": np.float16, "float64": np.float64}.get(dtype_name, np.float32)
    return np.format_float_positional(np_type(x), unique=True, trim="-")


def overflow_table(lang: str) -> str:
    """Per dtype: largest finite value, ln of it, and exp at the two values around it."""
    rows = [
        (
            f"`{name}`",
            f"{fmax:.5g}",
            f"{t:.4f}",
            f"exp({_shortest(below, name)}) = {e_below:.5g}",
            f"exp({_shortest(above, name)}) = {e_above:g}",
        )
        for name, fmax, t, below, e_below, above, e_above in overflow_rows()
    ]
    return _markdown(HEADERS["overflow"][lang], rows)


def placement_table(lang: str) -> str:
    """Largest error of each scale placement, in units of the dtype's eps."""
    rows = []
    for dtype in PLACEMENT_DTYPES:
        errors = placement_errors(dtype)
        name = str(dtype).removeprefix("torch.")
        rows.append((f"`{name}`", *(f"{errors[w]:.2f}" for w in PLACEMENTS)))
    return _markdown(HEADERS["placement"][lang], rows)


def dmodel_rows() -> list[tuple[int, int, float, float, float]]:
    """Rows (h, d_model, std q·k/√d_k, std q·k/√d_model, 1/√h) for d_k = 64, same samples."""
    d_k = DMODEL_D_K
    return [
        (
            h,
            h * d_k,
            variance.scaled_std(d_k, 1 / math.sqrt(d_k)),
            variance.scaled_std(d_k, 1 / math.sqrt(h * d_k)),
            1 / math.sqrt(h),
        )
        for h in DMODEL_HEADS
    ]


def dmodel_table(lang: str) -> str:
    """What dividing by √d_model instead of √d_k does to the logits' std, per head count."""
    rows = [
        (str(h), str(d_model), f"{by_dk:.3f}", f"{by_dm:.3f}", f"{pred:.3f}")
        for h, d_model, by_dk, by_dm, pred in dmodel_rows()
    ]
    return _markdown(HEADERS["dmodel"][lang], rows)


def _gradient(g: float) -> str:
    """Four decimals, or two significant digits once that would round to zero."""
    return f"{g:.4f}" if g >= 1e-3 else f"{g:.1e}"


def softcap_table(lang: str) -> str:
    """cap·tanh(x/cap) and its derivative for the caps 30 and 50."""
    x = torch.tensor(SOFTCAP_XS, dtype=torch.float64)
    cols = [(softcap(x, c), softcap_grad(x, c)) for c in (30.0, 50.0)]
    rows = [
        (
            f"{x[i].item():g}",
            f"{cols[0][0][i].item():.4f}",
            _gradient(cols[0][1][i].item()),
            f"{cols[1][0][i].item():.4f}",
            _gradient(cols[1][1][i].item()),
        )
        for i in range(len(SOFTCAP_XS))
    ]
    return _markdown(HEADERS["softcap"][lang], rows)


def jacobian_rows() -> list[tuple[int, float, float]]:
    """(d_k, mean ||J|| unscaled, mean ||J|| scaled) of the saturation page's sweep."""
    d = softmax_sharpness.data()
    return list(zip(softmax_sharpness.D_KS, d["jac_raw"], d["jac_scaled"], strict=True))


def _unscaled_larger() -> list[int]:
    """The d_k of the sweep at which the unscaled Jacobian is the larger one."""
    return [d_k for d_k, raw, scaled in jacobian_rows() if raw > scaled]


def jacobian_unscaled_larger_up_to(lang: str) -> str:
    """The largest d_k of the sweep at which the unscaled Jacobian is larger (a prefix: tested)."""
    return str(max(_unscaled_larger()))


def jacobian_unscaled_larger_std(lang: str) -> str:
    """The unscaled logits' standard deviation, √d_k, at that d_k."""
    return f"{math.sqrt(max(_unscaled_larger())):.1f}"


def jacobian_scaled_larger_from(lang: str) -> str:
    """The smallest d_k of the sweep at which the scaled Jacobian is the larger one."""
    return str(min(d_k for d_k, raw, scaled in jacobian_rows() if raw < scaled))


def jacobian_unscaled_peak(lang: str) -> str:
    """The d_k of the sweep at which the unscaled Jacobian is largest."""
    return str(max(jacobian_rows(), key=lambda row: row[1])[0])


VALUES: dict[str, Callable[[str], str]] = {
    "overflow_table": overflow_table,
    "placement_table": placement_table,
    "dmodel_table": dmodel_table,
    "softcap_table": softcap_table,
    "jacobian_unscaled_larger_up_to": jacobian_unscaled_larger_up_to,
    "jacobian_unscaled_larger_std": jacobian_unscaled_larger_std,
    "jacobian_scaled_larger_from": jacobian_scaled_larger_from,
    "jacobian_unscaled_peak": jacobian_unscaled_peak,
}
