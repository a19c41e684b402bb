"""End-to-end tests of nowline under the frameworks people use (real packages, test extras)."""
