"""How every engine function is compiled: once per argument type, inlined by LLVM.

``@jit()`` and ``@jit(inline=True)`` stand for ``@njit(cache=True)`` and
``@njit(cache=True, inline="always")`` in kernel/, families/, bots/ and engine/, with three changes:
LLVM inlining instead of numba's IR inlining, plain types for constant arguments, and no
whole-module optimization in callee libraries.  :func:`kernel` makes the parallel batch
kernels.  Every dispatcher caches in :func:`unosim.kernel.cache.cache_folder`.  Why each
choice: docs/design.md, "Compile time".
"""

import uuid
from contextlib import contextmanager

import llvmlite.binding as ll
from numba import config, njit
from numba.core import compiler, types
from numba.core.codegen import JITCodeLibrary, JITCPUCodegen
from numba.core.registry import CPUDispatcher

from .cache import SourcesCache

__all__ = ["jit", "kernel"]


class _Cached(CPUDispatcher):
    """A CPU dispatcher whose cache is unosim's (:class:`SourcesCache`), not numba's default."""

    def enable_caching(self):
        self._cache = SourcesCache(self.py_func)


def _cached(disp, cls=_Cached, pipeline_class=compiler.Compiler):
    one = cls(py_func=disp.py_func, locals=disp.locals, targetoptions=disp.targetoptions,
              pipeline_class=pipeline_class)
    one.enable_caching()
    return one


class _OneVersion(_Cached):
    """A CPU dispatcher that drops literal argument types when called from compiled code."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)


class _CalleeLibrary(JITCodeLibrary):
    """The code library of a function compiled to be called from compiled code: its
    module is not optimized as a whole (each function still is, one by one); the entry
    point that links it in optimizes everything it links, inlined, once."""

    def _optimize_final_module(self):
        pass


class _CalleeCompiler(compiler.Compiler):
    """numba's pipeline, lowering into a :class:`_CalleeLibrary`."""

    def define_pipelines(self):
        if self.state.library is None:
            lib = self.state.targetctx.codegen().create_library(self.state.func_id.func_qualname)
            lib.__class__ = _CalleeLibrary
            lib.enable_object_caching()  # as numba's own lowering does, so the cache can save it
            self.state.library = lib
        return super().define_pipelines()


class _BodyLibrary(JITCodeLibrary):
    """The code library of a batch kernel's parallel loop body, the one optimized whole.

    numba links each callee's code in as a weak (``linkonce_odr``) definition, and the
    process resolves a weak symbol to the first copy it loaded: the callee's own, lightly
    optimized library (:class:`_CalleeLibrary`) whenever that function was compiled or
    run from Python before the kernel was loaded (a first compile, a scenario, a trace).
    The loop then called that copy, several times slower, and the same run's speed
    depended on what the process had done before.  Made internal before the whole-module
    pass, the linked callees are the body's own: it calls the copies optimized with it,
    whatever ran first (tests/test_jit.py).  They are renamed too: numba's JIT finds a
    symbol by its function's name whatever the linkage, and a later library calling
    ``shuffle`` would otherwise get the body's copy, whose arguments the optimizer may
    have changed (a crash)."""

    def _optimize_final_module(self):
        own = "." + uuid.uuid4().hex[:16]  # unique: the bodies of kernels cached by other processes too
        for fn in self._final_module.functions:
            if not fn.is_declaration and fn.linkage == ll.Linkage.linkonce_odr:
                fn.linkage = "internal"
                fn.name = fn.name + own
        super()._optimize_final_module()


_WRAPPERS = ("parallelgufuncwrapper", "<numba.np.ufunc.wrappers._GufuncWrapper")
"""The names numba gives the code libraries of a parallel loop's two wrappers."""
_BODY = "__numba_parfor_gufunc_"
"""The prefix of the name numba gives a parallel loop body's code library."""


@contextmanager
def _light_wrappers():
    """While a batch kernel compiles: its parallel loop body's library is a
    :class:`_BodyLibrary`; numba's two wrappers around the body link it, already optimized
    whole, and call it once per block of work, so their libraries are
    :class:`_CalleeLibrary` (a numba that names them otherwise only loses the saving)."""
    original = JITCPUCodegen.create_library

    def create_library(self, name, **kwargs):
        lib = original(self, name, **kwargs)
        if str(name).startswith(_WRAPPERS):
            lib.__class__ = _CalleeLibrary
        elif str(name).startswith(_BODY):
            lib.__class__ = _BodyLibrary
        return lib

    JITCPUCodegen.create_library = create_library
    try:
        yield
    finally:
        JITCPUCodegen.create_library = original


class _Kernel(_Cached):
    """An entry point called from Python: its parallel loop body (numba's gufunc, its own
    library) is optimized whole, once; the kernel's own code and the loop's wrappers
    only call it."""

    def compile(self, sig):
        with _light_wrappers():
            return super().compile(sig)


def jit(inline: bool = False):
    """Decorator: compile with numba (``cache=True``), one version per plain argument
    types; ``inline`` asks LLVM to inline the function into every compiled caller.
    Under ``NUMBA_DISABLE_JIT=1`` the function stays plain Python (a debugger steps
    through it)."""

    def decorate(fn):
        if config.DISABLE_JIT:
            return fn
        return _cached(njit(forceinline=inline)(fn), _OneVersion, _CalleeCompiler)

    return decorate


def kernel(**options):
    """Decorator for an entry point called from Python (``parallel=True`` batch loops):
    numba's ``njit(**options)``, cached in unosim's folder; plain Python under
    ``NUMBA_DISABLE_JIT=1``."""

    def decorate(fn):
        if config.DISABLE_JIT:
            return fn
        return _cached(njit(**options)(fn), _Kernel, _CalleeCompiler)

    return decorate
