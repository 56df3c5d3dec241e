"""The mission's tool inside the faults (filled in below)."""

SCHEDULES = {}
