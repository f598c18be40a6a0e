"""``python -m graphrag.cli``: the ``graphrag`` command."""

from graphrag.cli import main

main()
