"""The evaluation harness's pure core: does the debate beat a vote of the same panel?

Labelled question sets (``sets``, ``uploads``), a simulated population of known
accuracy (``population``), the statistics (``stats``) and the report the command
prints (``report``). Plain data in, numbers out; nothing here calls a model or touches
Django (docs/engine.md, "Evaluation harness (core)").
"""
