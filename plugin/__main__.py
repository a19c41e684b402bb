"""``python -m nowline``: the command line, as the ``nowline`` command runs it."""

from .surfaces.launch import main

__all__ = ["main"]

if __name__ == "__main__":
    main()
