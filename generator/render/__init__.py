"""The render stage: layout documents drawn with ReportLab into PDFs and images."""

from ..libpatterns import deferring

with deferring():  # ReportLab's first import compiles a pattern it never uses (generator.libpatterns)
    import reportlab.lib.utils  # noqa: F401
