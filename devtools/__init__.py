"""Developer tools: checks run by `make`, never imported by the app."""
