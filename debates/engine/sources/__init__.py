"""The team's own documents a debate argues from (docs/engine.md, "Sources"): their
text (``documents``), taken out of uploaded files (``extract``), split into passages
with stable ids, offered to each agent within its budget, and the citations checked.
"""
