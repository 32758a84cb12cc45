"""Models that mirror the physical table (see issue 3)."""
