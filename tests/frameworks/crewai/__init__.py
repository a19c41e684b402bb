"""CrewAI 1.15 under nowline: runs in its own virtualenv (``make crewai-suite``)."""
