"""cardpress: YAML card data → Jinja layouts → ReportLab print-and-play PDFs, checked by rules models."""

__version__ = "0.1.0"
