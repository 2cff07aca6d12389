"""`ludus lsp`: a language server for editors, on stdio (needs the `lsp` extra: pygls).

workspace.py answers without the protocol (buffers, the game a file belongs to, diagnostics,
hover, definition, completion, outline); stdio.py cuts the editor's bytes into messages, whatever
they are; server.py speaks LSP through pygls.
"""

from __future__ import annotations

MISSING = "ludus lsp needs pygls: install the extra with  pip install 'ludus[lsp]'"


class MissingExtra(Exception):
    """The `lsp` extra is not installed; the message says how to install it."""


def serve() -> None:
    """Run the language server on stdin and stdout until the editor says exit."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
    except ImportError:
        raise MissingExtra(MISSING) from None
    from .server import serve as run

    run()
