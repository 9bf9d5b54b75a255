"""Counter-based randomness: every hand owns a stream derived from (seed, hand index).

SplitMix64 (Steele, Lea & Flood 2014) is a 64-bit state that passes BigCrush; starting
each hand's stream from a hash of (seed, stream, index) means a hand's cards never
depend on which core played it or how the run was chunked.  The state is a
one-element uint64 array owned by the caller: no global generator anywhere.
"""

import numpy as np
from unosim.kernel.jit import jit

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_INV53 = 1.0 / 9007199254740992.0


@jit(inline=True)
def mix64(z):
    """The SplitMix64 finaliser: a bijective avalanche of 64 bits."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@jit()
def stream_start(seed, stream, index):
    """Initial state of the stream for (seed, stream, index); ``stream`` separates uses
    (independent hands, matches, seat rotations) of the same seed."""
    s = mix64(np.uint64(seed) + _GAMMA)
    s = mix64(s ^ (np.uint64(stream) * _M1 + _GAMMA))
    return mix64(s ^ mix64(np.uint64(index) + _M2))


@jit(inline=True)
def next_u64(rng):
    rng[0] += _GAMMA
    return mix64(rng[0])


@jit(inline=True)
def below(rng, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (Lemire's multiply-shift)."""
    return np.int64(((next_u64(rng) >> _S32) * np.uint64(n)) >> _S32)


@jit(inline=True)
def chance(rng, p):
    """True with probability p (False for p <= 0 without consuming randomness, so a
    rule left at 0 never shifts the stream)."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return np.float64(next_u64(rng) >> _S11) * _INV53 < p
