"""Export a game everywhere people play: home kits, print-shop files, virtual tables, one bundle.

Each target is a plugin (`generator.export.target.ExportTarget`) registered under `cardpress.exports`;
`generator.export.runner.run` writes the ones asked for.
"""
