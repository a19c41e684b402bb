"""nowline's version: one constant, for the package face and the modules that record it."""

__all__ = ["VERSION"]

VERSION = "0.2.0"
"""nowline's version, as ``pyproject.toml`` declares it (a test holds them equal)."""
