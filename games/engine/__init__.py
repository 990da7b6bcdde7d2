"""Troccas rules engine: pure Python, stdlib only (RULES.md). See games/engine/rules.py."""

from .errors import OptionsError, RuleError
from .options import Options

__all__ = ["Options", "OptionsError", "RuleError"]
