"""The house rules' families: one module per family of rules that meet at the same moment
of a hand, each naming its rule ids in ``RULES``.

A module holds what its rules add to the compiled core: which cards they allow and what
happens to the table.  The hand asks the seat's strategy and then calls the module, so
the bots and the search can ask these modules too.  Facing a pending draw,
:mod:`.answers` is the one question every caller asks; :mod:`.stacking` (H1, H25) and
:mod:`.deflect` (H26) fill it in.  :mod:`.challenge` (R8, H9, H22), :mod:`.calls` (R10,
H10, H11, H23, H24) and :mod:`.seven_o` (H4, H5) are the others.
"""
