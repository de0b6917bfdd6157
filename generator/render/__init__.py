"""The render stage: layout documents drawn with ReportLab into PDFs and images."""
