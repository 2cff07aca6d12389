"""The language: `.ludus` text in, checked declarations out.

source (spans, diagnostics) → parser (Lark) → build (syntax tree to nodes) → loader (includes,
variants, overrides) → checker (symbols, types, every error located). Nothing here runs a game.
"""
