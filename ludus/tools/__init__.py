"""Tools that work on a file's text rather than on a game: the formatter and the Pygments lexers.

They need only `ludus.language` (the parser and the grammar), so every front end may use them.
"""
