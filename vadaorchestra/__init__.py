"""vadaorchestra: auditable LLM-driven decision workflows over a Datalog engine."""

__version__ = "0.1.0"
