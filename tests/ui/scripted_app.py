"""The real page with scripted clients (see harness.py): for AppTest and the browser test."""

from tests.ui import harness
from ui.app import main

main(harness.services)
