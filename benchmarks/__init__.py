"""Speed and memory figures: `make bench` (`python -m benchmarks`) runs every script here."""
