"""Rulesets shipped with cardpress, one sub-package per game family; each registers under `cardpress.rulesets`."""
