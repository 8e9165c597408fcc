"""Figures and tables for people: matplotlib figures (:mod:`.figures`) and tables as
Markdown and HTML (:mod:`.text`).
"""
