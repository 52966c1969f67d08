"""The API's result type: the result model of any registered protocol (each
protocol's ``result_model``), for the routes that answer with a debate's result."""

from typing import Union

from debates.engine import result_models

ResultOut = Union[tuple(result_models())]  # type: ignore[valid-type]  # noqa: UP007
