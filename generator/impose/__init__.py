"""The impose stage: card sizes and the sheets they are laid out on."""
