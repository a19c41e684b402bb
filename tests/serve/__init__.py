"""Tests of nowline serve, the GitHub events translation and their import."""
