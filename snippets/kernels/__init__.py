"""Attention kernels with one calling convention: (batch, heads, seq, d), causal=, scale=."""
