"""The evaluation harness: does the debate beat a vote of the same panel?

Labelled question sets (``sets``, ``uploads``), a simulated population of known
accuracy (``population``), the statistics (``stats``) and the report the command
prints (``report``): plain data in, numbers out. ``arms`` runs each question's debates
through the engine and reads the arms' answers from them; ``runs`` is the per-question
contract a worker stores. Nothing here touches Django (docs/engine.md, "Evaluation
harness").
"""
