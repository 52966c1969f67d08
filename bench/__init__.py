"""The benchmark harness behind ``make bench`` (``python -m bench``; see
docs/performance.md), with the stub model servers it and the tests talk to. Not part of
the product: it stays in the checkout, out of the wheel.

Each module measures one area and returns :class:`~bench.figures.Figure` rows;
bench/run.py prints them as one table.
"""
