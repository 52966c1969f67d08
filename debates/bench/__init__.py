"""Measurements behind ``manage.py bench`` (see docs/performance.md).

Each module measures one area and returns :class:`~debates.bench.figures.Figure` rows;
the command prints them as one table and records them.
"""
