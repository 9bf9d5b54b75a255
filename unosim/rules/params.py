"""The rules as the kernel reads them: slots of the float64 vector ``P``.

A config (:mod:`unosim.rules.config`) is turned once into ``P``; every compiled function
reads its rule switches from these slots.  Numba folds module-level integers into the
machine code as constants, so naming a slot costs nothing at run time.  Changing a slot
changes results: bump ``ENGINE_VERSION`` (:mod:`unosim.kernel.layout`).
"""

from __future__ import annotations

from unosim.rules.cards import N_KINDS

MAX_PLAYERS = 10
MAX_CARDS = 216  # 108 x 2 decks

# --------------------------------------------------------------------------- P: rules
# Enumerated switches hold their named code (unosim.rules.codes: the value's index in its
# NamedTuple's fields); bools 0/1; ranks the number or -1 for none.
P_PLAYERS = 0
P_DECKS = 1
P_HAND_SIZE = 2
P_DEALER = 3             # codes.Dealer                                    R4 E4
P_FIRST_CARD = 4         # codes.FirstCard                                 R3 H16
P_FIRST_DRAW2_SKIPS = 5  # bool                                            R3 H15
P_PLAY_DRAWN = 6         # codes.PlayDrawn                                 R6
P_VOLUNTARY_DRAW = 7     # bool                                            R7 H8
P_WILD_DRAW4 = 8         # codes.WildDraw4                                 R8 E1
P_CHALLENGE = 9          # bool                                            R8
P_CHALLENGE_SKIP = 10    # bool challenge_success_skip                     H9
P_TWO_PLAYER_REVERSE = 11  # codes.TwoPlayerReverse                        R9 H14
P_UNO_FORGET = 12        # probability                                     R10
P_UNO_CAUGHT = 13        # probability                                     R10
P_MAX_TURNS = 14         #                                                 R13
P_DRAW2_AMOUNT = 15      #                                                 H18
P_DRAW4_AMOUNT = 16
P_CHALLENGE_EXTRA = 17
P_ZERO_POINTS = 18       #                                                 H17
P_MATCH_TARGET = 19      #                                                 H19
P_STACKING = 20          # codes.Stacking                                  H1
P_JUMP_IN = 21           # codes.JumpIn                                    H2
P_JUMP_IN_STACK = 22     # codes.JumpInStack                               H2
P_DRAW = 23              # codes.Draw                                      H3
P_SEVEN_O = 24           # bool                                            H4
P_RED_ZERO = 25          # codes.RedZero                                   H5
P_MULTI_PLAY = 26        # codes.MultiPlay                                 H6
P_WILD_LAST = 27         # bool (true: allowed)                            H7
P_SLAP_RANK = 28         # -1 none                                         H10
P_SILENT_RANK = 29       # -1 none                                         H11
P_NOISE_CHANCE = 30      #                                                 H11
P_TEAMS = 31             #                                                 H12
P_FINISH = 32            # codes.Finish                                    H13
P_DRAWN_MATCH = 33       # codes.DrawnMatch                                E2
P_DRAWN_DRAW4 = 34       # codes.DrawnDraw4                                E3
P_WATCHERS = 35          # 1 if a seat's strategy watches every card played (strategies.WATCHERS)
P_TURNED_REVERSE = 36    # codes.TurnedReverse                             R3 E5
P_FIRST_PLAYER = 37      # codes.FirstPlayer                               R3 H21
P_BLUFF_PENALTY = 38     # codes.BluffPenalty                              R8 H22
P_UNO_FALSE_CALL = 39    # probability                                     R10 H23
P_MISPLAY = 40           # probability                                     R10 H24
P_SCORE0 = 48            # N_KINDS points per kind (R1, H5, H17)
P_BOT0 = P_SCORE0 + N_KINDS  # per seat: strategy code (strategies.Strategy) then its parameters
BOT_STRIDE = 16
# Formats of play over many hands: read by the match and tournament loops between hands,
# never by a turn, so they sit after the bots' blocks (not copied into the hand's state).
P_CHIPS_HANDS = P_BOT0 + MAX_PLAYERS * BOT_STRIDE  # hands that S4 lasts                 S4
P_HANDS_PER_ROUND = P_CHIPS_HANDS + 1              # hands per table and round           T1
FORMAT_SLOTS = (P_CHIPS_HANDS, P_HANDS_PER_ROUND)
N_PARAMS = P_HANDS_PER_ROUND + 1
