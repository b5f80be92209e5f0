"""Benchmarks: python -m bench.cpu (any machine), python -m bench.gpu (one CUDA GPU)."""
