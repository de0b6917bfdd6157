"""Fan editions: the extends chain, file overlays and what an edition changes."""
