"""`python -m ludus` is the `ludus` command."""

from .cli import main

main()
