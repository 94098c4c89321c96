"""The Vadalog dialect: parse, validate, compile and evaluate programs.

This package knows nothing of MCP or agents. The public API is re-exported from :mod:`vadaorchestra.datalog.api`.
"""

from vadaorchestra.datalog.api import RunResult, check, load, parse, run, validate

__all__ = ["RunResult", "check", "load", "parse", "run", "validate"]
