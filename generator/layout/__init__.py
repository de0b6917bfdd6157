"""The layout stage: templates rendered into layout documents, checked by the lint."""
