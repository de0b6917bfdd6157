"""Art: images named by card data, checked, fitted to their boxes, and stood in for when missing."""
