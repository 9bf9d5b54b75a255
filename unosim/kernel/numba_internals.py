"""unosim's own compile cache and code generation, built on numba's private API.

The only module of unosim that touches numba's internals. :mod:`unosim.kernel.jit`
imports it unless ``UNOSIM_PLAIN_NUMBA=1`` is set, and compiles with plain
``@njit(cache=True)`` when the import fails (a numba whose internals moved). The
results are the same either way. Why each piece: docs/design.md, "Compile time" and
"The compile cache".
"""

from __future__ import annotations

import functools
import hashlib
import os
import uuid
from contextlib import contextmanager
from types import SimpleNamespace

import llvmlite.binding as ll
from numba import njit
from numba.core import compiler, types
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator, _SourceFileBackedLocatorMixin
from numba.core.codegen import JitEngine, JITCodeLibrary, JITCPUCodegen
from numba.core.registry import CPUDispatcher
from numba.core.runtime import rtsys

from .cache import cache_folder

__all__ = ["SourcesCache", "jit_dispatcher", "kernel_dispatcher"]

_HOOKS = ((JITCodeLibrary, "_optimize_final_module"), (JITCodeLibrary, "enable_object_caching"),
          (JITCPUCodegen, "create_library"), (CPUDispatcher, "enable_caching"),
          (CPUDispatcher, "get_call_template"), (CPUDispatcher, "compile"),
          (compiler.Compiler, "define_pipelines"), (FunctionCache, "_index_key"),
          (CompileResultCacheImpl, "_locator_classes"), (_CacheLocator, "get_suitable_cache_subpath"),
          (FunctionCache, "load_overload"), (FunctionCache, "_load_overload"),
          (FunctionCache, "_guard_against_spurious_io_errors"), (CompileResultCacheImpl, "reduce"),
          (CompileResultCacheImpl, "rebuild"), (JITCodeLibrary, "_unserialize"), (JITCodeLibrary, "_set_compiled_object"),
          (JITCodeLibrary, "_get_module_for_linking"), (JITCodeLibrary, "_finalize_final_module"),
          (JITCPUCodegen, "_library_class"), (JitEngine, "_load_defined_symbols"))
for _owner, _name in _HOOKS:  # an override of a hook numba no longer calls would be silently lost
    if not hasattr(_owner, _name):
        raise ImportError(f"numba has no {_owner.__name__}.{_name}")


class _SourcesLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Numba's cache locator for unosim's functions: :func:`cache_folder`, then numba's
    usual per-source-folder subpath (so two checkouts never share entries)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(cache_folder(), self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    def ensure_cache_path(self):
        """numba's check that the folder exists and takes a file, once per folder and
        process, not once per function."""
        if self._cache_path not in _WRITABLE:
            super().ensure_cache_path()
            _WRITABLE.add(self._cache_path)


_WRITABLE: set[str] = set()
"""Cache folders this process found writable."""


class _SourcesCacheImpl(CompileResultCacheImpl):
    """Numba's cache of compile results, located by :class:`_SourcesLocator`, whose entries
    load as :class:`_LazyLinkLibrary`."""

    _locator_classes = [_SourcesLocator]

    def reduce(self, cres):
        (name, kind, (object_code, bitcode)), *rest = super().reduce(cres)
        if kind != "object":
            raise ValueError(f"numba cached {name} as {kind!r}, not as machine code")
        module = cres.library._get_module_for_linking()
        defined = [v.name for vs in (module.functions, module.global_variables) for v in vs if not v.is_declaration]
        return ((name, _LAZY, (object_code, bitcode, defined)), *rest)

    def rebuild(self, target_context, payload):
        codegen = target_context.codegen()
        codegen._library_class = _LazyLinkLibrary  # this codegen's only, for this load (under numba's compile lock)
        try:
            return super().rebuild(target_context, payload)
        finally:
            del codegen._library_class


_LAZY = "unosim-object"
"""The kind of a cached library's data: numba's machine code and linking bitcode, and the
names that bitcode defines."""


class _LazyLinkLibrary(JITCodeLibrary):
    """A code library loaded from the cache without parsing the bitcode kept for linking it
    into a caller (most of a kernel's load time); it is parsed if a compile links it."""

    _linking_bitcode = None

    @classmethod
    def _unserialize(cls, codegen, state):
        name, kind, data = state
        if kind != _LAZY:
            return super()._unserialize(codegen, state)
        object_code, bitcode, defined = data
        self = codegen.create_library(name)
        self.enable_object_caching()
        self._set_compiled_object(object_code)
        self._linking_bitcode = bitcode
        self._finalize_final_module()
        # the names numba's own load reads off the parsed bitcode
        codegen._engine._load_defined_symbols(SimpleNamespace(
            functions=[SimpleNamespace(name=n, is_declaration=False) for n in defined], global_variables=()))
        return self

    def _get_module_for_linking(self):
        if self._shared_module is None and self._linking_bitcode is not None:
            self._shared_module = ll.parse_bitcode(self._linking_bitcode)
        return super()._get_module_for_linking()


class SourcesCache(FunctionCache):
    """Numba's function cache, located by :class:`_SourcesLocator`."""

    _impl_class = _SourcesCacheImpl

    def _index_key(self, sig, codegen):
        """Numba's key, but a function made by a factory (:func:`unosim.engine.hand.stepper`)
        is told apart from its siblings by the *names* of the functions it closes over:
        numba's own key pickles them, and a pickled dispatcher carries an id drawn afresh in
        every process, so such an entry would never be found again."""
        cells = self._py_func.__closure__
        if not cells:
            return super()._index_key(sig, codegen)
        names = ",".join(_closed_name(c.cell_contents) for c in cells)
        code = hashlib.sha256(self._py_func.__code__.co_code).hexdigest()
        return (sig, codegen.magic_tuple(), (code, hashlib.sha256(names.encode()).hexdigest()))

    def load_overload(self, sig, target_context):
        """Numba's load, with only the runtime (NRT) that cached code calls made ready
        first, not every typing and lowering registry numba has: those serve a compile,
        which readies them itself."""
        rtsys.initialize(target_context)
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)


def _closed_name(value: object) -> str:
    fn = getattr(value, "py_func", value)
    name = getattr(fn, "__qualname__", None)
    if name is None:
        raise TypeError(f"a compiled factory closes over {value!r}: only functions may be closed over")
    return f"{fn.__module__}.{name}"


class _Cached(CPUDispatcher):
    """A CPU dispatcher whose cache is unosim's (:class:`SourcesCache`), not numba's default."""

    def enable_caching(self):
        self._cache = SourcesCache(self.py_func)


def _cached(fn, options: dict, cls=_Cached, pipeline_class=compiler.Compiler):
    """``fn`` under a dispatcher of class ``cls``, with the options ``njit(**options)`` gives."""
    one = cls(py_func=fn, locals={}, targetoptions=dict(_target_options(tuple(sorted(options.items())))),
              pipeline_class=pipeline_class)
    one.enable_caching()
    return one


@functools.lru_cache(maxsize=None)
def _target_options(options: tuple) -> dict:
    """The target options ``njit(**options)`` gives a function, read once per option set."""
    def probe():
        pass
    return njit(**dict(options))(probe).targetoptions


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
    whatever ran first (tests/e2e/test_kernel_body.py).  They are renamed too: numba's JIT finds a
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


def jit_dispatcher(fn, inline: bool):
    """``fn`` compiled once per plain argument types, cached in :func:`cache_folder`,
    inlined by LLVM into every compiled caller when ``inline``."""
    return _cached(fn, {"forceinline": inline}, _OneVersion, _CalleeCompiler)


def kernel_dispatcher(fn, options: dict):
    """``fn`` as an entry point called from Python (``njit(**options)``), cached in
    :func:`cache_folder`, its parallel loop body optimized whole."""
    return _cached(fn, options, _Kernel, _CalleeCompiler)
