"""Game-independent simulation: the state protocol every rules engine implements, bots, runner, stats, reports."""
