"""The training experiment: the code does what the page says, and the cached runs belong to it."""

import math

import numpy as np
import pytest
import torch

from attention_site import training_tables
from lockstep import placeholders
from lockstep.numbers import prose_numbers
from snippets import training
from snippets.figures import training_curves
from tests.conftest import DOCS

CFG = training.CONFIG
# Small enough to train in well under a second; large enough for the statistics below.
TINY = training.Config(
    d_model=64,
    d_ks=(16, 256),
    lrs=(1e-2,),
    seeds=(0,),
    n_pairs=8,
    n_keys=16,
    n_values=16,
    batch=32,
    steps=40,
    eval_every=10,
    n_eval=256,
)


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """Train as the sweep does; tiny ops on 2 threads of a busy machine are many times slower."""
    threads = torch.get_num_threads()
    torch.set_num_threads(training.THREADS)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def cached() -> dict:
    return training.load()


@pytest.fixture(scope="module")
def runs(cached) -> list[dict]:
    return cached["runs"]


def best_steps(runs, d_k, scale) -> int | None:
    lr = training.best_lr(runs, d_k, scale)
    return training.slowest_steps_to(training.select(runs, d_k=d_k, scale=scale, lr=lr))


def working(runs, d_k, scale) -> set[float]:
    """The learning rates at which every seed reaches the threshold."""
    return {
        lr
        for lr in CFG.lrs
        if training.slowest_steps_to(training.select(runs, d_k=d_k, scale=scale, lr=lr))
    }


# --- The code ----------------------------------------------------------------------------


def test_initialisation_gives_q_and_k_unit_variance_components():
    gen = torch.Generator().manual_seed(0)
    model = training.KeyRetrieval(CFG, 256, 1.0, gen)
    keys, values, query, _ = training.make_batch(CFG, 2048, torch.Generator().manual_seed(1))
    with torch.no_grad():
        q = model.key_emb[query] @ model.W_Q  # (n, d_k)
        x = (model.key_emb[keys] + model.value_emb[values]) / math.sqrt(2)
        k = x @ model.W_K  # (n, P, d_k)
    assert q.var().item() == pytest.approx(1.0, rel=0.1)
    assert k.var().item() == pytest.approx(1.0, rel=0.1)


def test_scales_start_from_the_same_weights_and_see_the_same_batches():
    models = [
        training.KeyRetrieval(CFG, 64, scale(64), torch.Generator().manual_seed(3))
        for scale in training.SCALES.values()
    ]
    for name, p in models[0].named_parameters():
        assert all(torch.equal(p, dict(m.named_parameters())[name]) for m in models[1:])
    a, b = (training.make_batch(CFG, 8, torch.Generator().manual_seed(4)) for _ in range(2))
    assert all(torch.equal(x, y) for x, y in zip(a, b, strict=True))


def test_at_init_unscaled_attention_peaks_on_a_random_position_not_the_query_key():
    keys, values, query, _ = training.make_batch(
        CFG, CFG.n_eval, torch.Generator().manual_seed(training.EVAL_SEED)
    )
    model = training.KeyRetrieval(CFG, 256, 1.0, torch.Generator().manual_seed(0))
    with torch.no_grad():
        _, s = model(keys, values, query)
    hits = (s.argmax(-1) == (keys == query[:, None]).float().argmax(-1)).float().mean()
    assert hits.item() < 2.5 / CFG.n_pairs  # chance is 1/n_pairs


@pytest.mark.parametrize("d_k", TINY.d_ks)
def test_at_init_unscaled_logits_have_std_sqrt_d_k_and_a_sharper_softmax(d_k):
    stats = {}
    for scale in training.SCALES:
        run = training.train(TINY, d_k, scale, lr=1e-2, seed=0, steps=0)
        stats[scale] = run["logit_std"][0], run["entropy"][0]
    assert stats["none"][0] == pytest.approx(math.sqrt(d_k), rel=0.15)
    assert stats["sqrt"][0] == pytest.approx(1.0, rel=0.15)
    assert stats["d"][0] == pytest.approx(1 / math.sqrt(d_k), rel=0.15)
    assert stats["none"][1] < stats["sqrt"][1] < stats["d"][1] <= math.log(TINY.n_pairs)


def test_scaled_model_loss_decreases():
    run = training.train(TINY, 16, "sqrt", lr=1e-2, seed=0)
    assert run["step"] == list(range(0, TINY.steps + 1, TINY.eval_every))
    assert run["loss"][-1] < 0.8 * run["loss"][0]
    assert run["accuracy"][-1] > run["accuracy"][0]


def test_same_seed_gives_an_identical_run_and_another_seed_does_not():
    a, b = (training.train(TINY, 16, "sqrt", lr=1e-2, seed=0, steps=10) for _ in range(2))
    assert a == b
    assert training.train(TINY, 16, "sqrt", lr=1e-2, seed=1, steps=10)["loss"] != a["loss"]


def test_sweep_runs_every_setting_on_one_thread_and_restores_threads():
    small = training.Config(**{**TINY.__dict__, "steps": 1, "scales": ("sqrt", "none")})
    threads = torch.get_num_threads()
    runs = training.sweep(small)
    assert torch.get_num_threads() == threads
    settings = {(r["d_k"], r["scale"], r["lr"], r["seed"]) for r in runs}
    assert len(runs) == len(settings) == len(small.d_ks) * 2 * len(small.lrs) * len(small.seeds)


def test_steps_to_and_best_lr_on_hand_made_runs():
    def run(lr, seed, acc):
        return {
            "d_k": 8,
            "scale": "sqrt",
            "lr": lr,
            "seed": seed,
            "step": [0, 10, 20],
            "accuracy": acc,
        }

    runs = [
        run(0.1, 0, [0.0, 0.95, 1.0]),
        run(0.1, 1, [0.0, 0.5, 0.92]),  # slower seed: 20 steps
        run(0.3, 0, [0.0, 0.91, 0.5]),
        run(0.3, 1, [0.0, 0.9, 0.4]),  # both at 10, but ends lower
        run(1.0, 0, [0.0, 0.1, 0.1]),
        run(1.0, 1, [0.0, 0.95, 1.0]),  # one seed never: None
    ]
    assert training.steps_to(runs[0]) == 10
    assert training.slowest_steps_to(training.select(runs, lr=0.1)) == 20
    assert training.slowest_steps_to(training.select(runs, lr=1.0)) is None
    assert training.best_lr(runs, 8, "sqrt") == 0.3
    assert training.fastest_lrs(runs, 8, "sqrt") == [0.3]
    tie = [*runs[:2], run(0.3, 0, [0.0, 0.5, 0.92]), run(0.3, 1, [0.0, 0.9, 0.95])]
    assert training.fastest_lrs(tie, 8, "sqrt") == [0.1, 0.3]
    assert training.fastest_lrs(runs[4:], 8, "sqrt") == []


# --- The cache -----------------------------------------------------------------------------


def test_cached_results_were_made_with_the_current_config(cached):
    assert cached["config"] == training.config_dict(), (
        "snippets/data/training_runs.json is stale: run `python -m snippets.training`"
    )
    for key in ("date", "seconds", "machine", "versions"):
        assert cached[key], f"the cache does not record {key}"


def test_cache_holds_every_setting_with_full_curves(runs):
    settings = [(r["d_k"], r["scale"], r["lr"], r["seed"]) for r in runs]
    expected = [
        (d_k, s, lr, seed)
        for d_k in CFG.d_ks
        for s in CFG.scales
        for lr in CFG.lrs
        for seed in CFG.seeds
    ]
    assert settings == expected
    steps = list(range(0, CFG.steps + 1, CFG.eval_every))
    for r in runs:
        assert r["step"] == steps
        assert all(len(r[k]) == len(steps) for k in ("loss", "accuracy", "logit_std", "entropy"))


def test_cache_reproduces_its_first_steps(runs):
    d_k, seed = CFG.d_ks[-1], 0
    lr = training.best_lr(runs, d_k, "sqrt")
    cached = training.select(runs, d_k=d_k, scale="sqrt", lr=lr, seed=seed)[0]
    fresh = training.train(CFG, d_k, "sqrt", lr, seed, steps=CFG.eval_every)
    for key in ("loss", "accuracy", "logit_std", "entropy"):
        assert fresh[key] == pytest.approx(cached[key][: len(fresh[key])], rel=1e-4), key


# --- What the page claims, checked on the cached runs --------------------------------------


def test_claim_logit_spread_at_init_is_scale_times_sqrt_d_k(runs):
    for r in runs:
        predicted = training.SCALES[r["scale"]](r["d_k"]) * math.sqrt(r["d_k"])
        assert r["logit_std"][0] == pytest.approx(predicted, rel=0.1)


def test_claim_unscaled_attention_starts_sharp_and_sharper_at_larger_d_k(runs):
    def h0(d_k, scale):
        return training.select(runs, d_k=d_k, scale=scale, seed=0)[0]["entropy"][0]

    uniform = math.log(CFG.n_pairs)
    small, large = CFG.d_ks[0], CFG.d_ks[-1]
    assert h0(large, "none") < h0(small, "none") < 0.25 * uniform
    assert h0(small, "d") > 0.99 * uniform and h0(large, "d") > 0.99 * uniform
    assert h0(small, "none") < h0(small, "sqrt") < h0(small, "d")
    assert h0(small, "sqrt") == pytest.approx(h0(large, "sqrt"), abs=0.1)


def test_claim_at_initialisation_accuracy_is_about_one_over_the_number_of_values(runs):
    # "At initialisation the model knows nothing and is at about 1/64, one over the number of
    # values" (and below the 1/16 of a guess among the values of the sequence)
    first = [r["accuracy"][0] for r in runs]
    assert max(first) < 2 / CFG.n_values < 1 / CFG.n_pairs
    assert sum(first) / len(first) == pytest.approx(1 / CFG.n_values, rel=0.5)


def test_claim_every_best_lr_lies_inside_the_grid(runs):
    # notebook: the next larger learning rate is slower or does not reach the threshold, and the
    # best one is not the smallest of the grid, so the grid brackets every optimum
    for d_k in CFG.d_ks:
        for scale in CFG.scales:
            best = training.best_lr(runs, d_k, scale)
            assert CFG.lrs[0] < best < CFG.lrs[-1], (d_k, scale, best)
            above = CFG.lrs[CFG.lrs.index(best) + 1]
            same = training.select(runs, d_k=d_k, scale=scale, lr=above)
            steps = training.slowest_steps_to(same)
            assert steps is None or steps > best_steps(runs, d_k, scale), (d_k, scale, above)


@pytest.mark.parametrize("d_k", CFG.d_ks)
def test_claim_unscaled_learns_fastest_at_a_smaller_lr_and_still_slower(runs, d_k):
    fastest = training.fastest_lrs(runs, d_k, "none")
    assert fastest and max(fastest) < min(training.fastest_lrs(runs, d_k, "sqrt"))
    unscaled, scaled = best_steps(runs, d_k, "none"), best_steps(runs, d_k, "sqrt")
    assert unscaled is not None, "the page says the unscaled model reaches the threshold"
    assert unscaled >= 2 * scaled, "the page says 'clearly more steps'"


def test_claim_unscaled_working_range_narrows_as_d_k_grows(runs):
    small, large = CFG.d_ks[0], CFG.d_ks[-1]
    assert working(runs, large, "none") < working(runs, small, "none")
    lr = training.best_lr(runs, large, "sqrt")
    assert lr == training.best_lr(runs, small, "sqrt")
    assert lr in working(runs, small, "none") and lr not in working(runs, large, "none")


@pytest.mark.parametrize("scale", ["sqrt", "d"])
def test_claim_with_a_scale_best_lr_and_steps_carry_over_between_d_k(runs, scale):
    # "the fastest learning rate is the same at both sizes, and every learning rate that works
    # at both sizes needs about the same number of steps at each, within one or two evaluation
    # intervals. Only at the edge does that change: divided by √d_k, the largest learning rate
    # that still learns at d_k = 64 no longer does at d_k = 256."
    small, large = CFG.d_ks[0], CFG.d_ks[-1]
    assert training.fastest_lrs(runs, small, scale) == training.fastest_lrs(runs, large, scale)
    both = working(runs, small, scale) & working(runs, large, scale)
    for lr in both:
        steps = [
            training.slowest_steps_to(training.select(runs, d_k=d_k, scale=scale, lr=lr))
            for d_k in CFG.d_ks
        ]
        assert max(steps) - min(steps) <= 2 * CFG.eval_every, f"lr {lr}: steps {steps}"
    lost = working(runs, small, scale) - working(runs, large, scale)
    assert working(runs, large, scale) <= working(runs, small, scale)
    assert lost == ({max(working(runs, small, scale))} if scale == "sqrt" else set())


def test_claim_unscaled_keeps_its_fastest_lr_but_needs_more_steps_at_larger_d_k(runs):
    small, large = CFG.d_ks[0], CFG.d_ks[-1]
    assert training.fastest_lrs(runs, small, "none") == training.fastest_lrs(runs, large, "none")
    assert best_steps(runs, large, "none") > best_steps(runs, small, "none")


@pytest.mark.parametrize("d_k", CFG.d_ks)
def test_claim_dividing_by_d_k_is_as_fast_at_a_larger_lr(runs, d_k):
    assert best_steps(runs, d_k, "d") <= best_steps(runs, d_k, "sqrt")
    best = training.best_lr(runs, d_k, "d")
    assert best > training.best_lr(runs, d_k, "sqrt")
    # "at that rate it then stays less accurate; one learning rate lower it is at most one
    # evaluation interval slower and ends as accurate"
    lower = CFG.lrs[CFG.lrs.index(best) - 1]
    at_best, at_lower = (training.select(runs, d_k=d_k, scale="d", lr=lr) for lr in (best, lower))
    scaled = training.select(runs, d_k=d_k, scale="sqrt", lr=training.best_lr(runs, d_k, "sqrt"))
    assert training.final_accuracy(at_best) < training.final_accuracy(at_lower)
    assert training.slowest_steps_to(at_lower) <= best_steps(runs, d_k, "sqrt") + CFG.eval_every
    assert training.final_accuracy(at_lower) >= training.final_accuracy(scaled)


def test_numbers_in_the_page_prose_come_from_the_config():
    cfg = training.config_dict()
    allowed = {"0", "1", "2"}  # in formulas: N(0, 1), /√2, 1/√d_k
    for value in cfg.values():
        for v in value if isinstance(value, list) else [value]:
            allowed.add(f"{v:g}" if isinstance(v, float) else str(v))
    for lang in ("zh", "en"):
        text = (DOCS / lang / "derivation" / "training.md").read_text(encoding="utf-8")
        stray = set(prose_numbers(text)) - allowed
        assert not stray, f"docs/{lang}/derivation/training.md: numbers no code checks: {stray}"


# --- Tables and figure -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_results_table_has_a_row_per_setting_and_bolds_every_fastest_lr(lang, runs):
    rows = training_tables.training_table(lang).splitlines()[2:]
    settings = [(d_k, scale) for d_k in CFG.d_ks for scale in CFG.scales]
    assert len(rows) == len(settings)
    for row, (d_k, scale) in zip(rows, settings, strict=True):
        cells = [c.strip() for c in row.strip("|").split("|")][2:]  # one per learning rate
        bold = [lr for lr, cell in zip(CFG.lrs, cells, strict=True) if cell.startswith("**")]
        assert bold == training.fastest_lrs(runs, d_k, scale), row
        steps = best_steps(runs, d_k, scale)
        assert all(cells[CFG.lrs.index(lr)].startswith(f"**{steps} (") for lr in bold), row


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_setup_table_and_provenance_come_from_the_cache(lang, cached):
    setup = training_tables.training_setup(lang)
    assert f"| {CFG.steps} |" in setup
    assert ", ".join(f"{lr:g}" for lr in cached["config"]["lrs"]) in setup
    assert cached["date"] in training_tables.training_provenance(lang)
    assert float(training_tables.training_threshold(lang).removesuffix("%")) == 100 * (
        training.THRESHOLD
    )


def test_figure_data_is_the_seed_mean_of_the_cached_curves(runs):
    data = training_curves.data()
    assert set(data) == {(d_k, s) for d_k in CFG.d_ks for s in CFG.scales}
    for (d_k, scale), by_lr in data.items():
        assert list(by_lr) == list(CFG.lrs)
        for lr, curve in by_lr.items():
            same = training.select(runs, d_k=d_k, scale=scale, lr=lr)
            np.testing.assert_array_equal(curve["step"], same[0]["step"])
            expected = np.mean([r["accuracy"] for r in same], axis=0)
            np.testing.assert_allclose(curve["accuracy"], expected)
            assert ((curve["accuracy"] >= 0) & (curve["accuracy"] <= 1)).all()
    best = training.best_lr(runs, CFG.d_ks[-1], "sqrt")
    assert data[CFG.d_ks[-1], "sqrt"][best]["accuracy"][-1] >= training.THRESHOLD


def test_training_page_shows_the_figure_and_the_computed_tables():
    for lang in ("zh", "en"):
        text = (DOCS / lang / "derivation" / "training.md").read_text(encoding="utf-8")
        assert f"training_curves.{lang}.svg" in text
        for name in training_tables.VALUES:
            assert name in placeholders.names(text), f"{{{{ {name} }}}} unused"
