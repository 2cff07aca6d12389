"""Adapters to machine-learning libraries: a ludus game as an OpenSpiel game or a PettingZoo
environment. Each adapter imports its library only when used (`pip install 'ludus[openspiel]'`,
`'ludus[pettingzoo]'`); see docs/ml.md.

`profile` holds what both share: the fixed sizes (actions, length, view text) that these
libraries want up front, found by a scan of seeded random playouts.
"""
