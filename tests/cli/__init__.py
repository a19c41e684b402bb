"""Tests of the nowline command line (typer CliRunner on real stores in temp folders)."""
