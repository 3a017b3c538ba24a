"""The experiment runner behind scripts/experiment (docs/EXPERIMENTS.md)."""
