"""Rules text: what a card does, written out as plain English from its checked declaration.

`card_text(decl, symbols)` renders one card; `RulesText` renders many and counts the constructs it
could only show as their source (kept at zero for every shipped game by the tests).
"""

from .render import CardText, RulesText, card_text, cards_of

__all__ = ["CardText", "RulesText", "card_text", "cards_of"]
