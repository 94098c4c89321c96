"""Programs several test modules share."""

# LANGUAGE.md's company-control rules, and its reference program: their control is exactly 12 pairs.
CONTROL_RULES = """
controlled_shares(X,Y,Y,Q) :- own(X,Y,Q), X <> Y.
controlled_shares(X,Z,Y,Q) :- control(X,Z), own(Z,Y,Q), X <> Z, Z <> Y, X <> Y.
total(X,Y,S) :- controlled_shares(X,Z,Y,Q), S = msum(Q,<Z>).
control(X,Y) :- total(X,Y,S), S > 0.5.
@output("control").
"""
CONTROL = """
own(1,2,0.9). own(2,3,1.0). own(3,4,0.9). own(1,6,0.9). own(6,5,1.0). own(1,10,0.9). own(10,20,1.0).""" + CONTROL_RULES
CONTROL_PAIRS = [(1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (1, 10), (1, 20), (2, 3), (2, 4), (3, 4), (6, 5), (10, 20)]
