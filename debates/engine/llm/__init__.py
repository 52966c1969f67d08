"""Calling models: the one gateway over litellm (``gateway``), one model's attempts at
a call (``attempts``) under the retry policy (``retry``, on tenacity), the errors and
their classification (``errors``), reply parsing and repair (``replies``), the
structured-output request (``output_format``, ``request``), cost (``cost``), what is
known of a model before calling it (``capabilities``), the grammar limits of local
servers (``grammar_limits``), litellm's loading and custom providers (``loader``) and
the usage summed from the call ledger (``usage``). Never imports the simulator: its
provider is registered by ``debates.engine.plugins``."""
