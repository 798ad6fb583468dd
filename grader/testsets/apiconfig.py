"""The ``[api]`` table of ``assignment.toml`` (declared in :mod:`grader.model.apiconfig`)."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter

from grader.model.apiconfig import GROUPS, STYLES, ApiConfig, Weights
from grader.model.loading import validated

__all__ = ["GROUPS", "STYLES", "ApiConfig", "Weights", "api_from_dict"]

_API = TypeAdapter(ApiConfig)


def api_from_dict(table: dict[str, Any] | None, source: str = "assignment.toml") -> ApiConfig | None:
    """The ``[api]`` table as an :class:`ApiConfig`; ``None`` when absent."""
    return None if table is None else validated(_API, table, source)
