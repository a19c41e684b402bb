"""nowline tests."""
