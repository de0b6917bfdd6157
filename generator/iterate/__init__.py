"""Iterating on cards and art: proofs, watch and the preview server."""
