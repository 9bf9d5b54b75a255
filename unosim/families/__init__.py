"""The rule families: one module per family of rules that meet at the same moments of a hand.

Each module holds what its rules need to know in the compiled core: which cards they
allow and what those cards do.  The bots and the search ask these modules instead of
re-implementing a rule.  Facing a pending draw, :mod:`.answers` is the one question every
caller asks and the hooks the hand calls; :mod:`.stacking` (H1, H25) and :mod:`.deflect`
(H26) fill them in.
"""
