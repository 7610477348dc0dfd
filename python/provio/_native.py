"""ctypes bindings to libprovio's C API (include/provio/provio.h).

Why ctypes: the C API is already the stable interface, so the binding needs no compiler and no
per-interpreter build (any Python 3 can import it, Debian's or a pyenv one), no pybind11 (PyPI is
not reachable on the target machines) and no re-run of the program under another interpreter.
A metric costs a few microseconds of call overhead, negligible next to a training step.

One core per process: if libprovio is already loaded (the preload shim or the HDF5 VOL connector
pulled it in), that copy is used, so Python's records and the transparently captured I/O share
one identity and one set of per-thread files.
"""
import ctypes
import os

SONAME = "libprovio.so.0"


def _candidates():
    env = os.environ.get("PROVIO_LIBRARY")
    if env:
        yield env
    try:
        from . import _location  # written by CMake: build tree (absolute) or install (relative)
        path = _location.LIBRARY
        if not os.path.isabs(path):
            path = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), path))
        yield path
    except ImportError:
        pass
    yield SONAME


def _load():
    # Already in the process (LD_PRELOAD shim, VOL plugin)? Then use that copy, whatever its path.
    try:
        return ctypes.CDLL(SONAME, mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)
    except OSError:
        pass
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path, mode=os.RTLD_GLOBAL)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("provio: cannot load libprovio (set PROVIO_LIBRARY to its path): " + "; ".join(errors))


lib = _load()

entity_t = ctypes.c_uint32
handle_t = ctypes.c_uint64

# provio_value_type_t
VALUE_INT, VALUE_UINT, VALUE_DOUBLE, VALUE_BOOL, VALUE_STRING, VALUE_INTEGER, VALUE_ENTITY = range(7)
# provio_stage_t, provio_config_kind_t, provio_class_t
STAGES = {None: 0, "training": 1, "validation": 2, "testing": 3}
CONFIG_KINDS = {"general": 0, "hyperparameters": 1, "data_selection": 2}
CLASSES = {"file": 0, "directory": 1, "group": 2, "dataset": 3, "attribute": 4, "datatype": 5,
           "link": 6, "object": 7}
OK, EINVAL, EOFF = 0, -1, -2
NO_STEP = -(2 ** 63)


class _V(ctypes.Union):
    _fields_ = [("i", ctypes.c_int64), ("u", ctypes.c_uint64), ("d", ctypes.c_double),
                ("b", ctypes.c_int), ("s", ctypes.c_char_p), ("e", entity_t)]


class Value(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("v", _V)]


class Param(ctypes.Structure):
    _fields_ = [("key", ctypes.c_char_p), ("value", Value)]


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


_c = ctypes
file = _fn("provio_file", entity_t, _c.c_char_p)
object_ = _fn("provio_object", entity_t, entity_t, _c.c_char_p, _c.c_int)
last_error = _fn("provio_last_error", _c.c_char_p)
flush = _fn("provio_flush", None)
workflow_open = _fn("provio_workflow_open", _c.c_int, _c.c_char_p, _c.c_char_p)
workflow_close = _fn("provio_workflow_close", _c.c_int)
task_begin = _fn("provio_task_begin", handle_t, _c.c_char_p, handle_t)
task_end = _fn("provio_task_end", _c.c_int, handle_t)
task_input = _fn("provio_task_input", _c.c_int, handle_t, entity_t)
task_output = _fn("provio_task_output", _c.c_int, handle_t, entity_t)
# Values travel inside arrays (by pointer): passing a struct holding a union by value is not
# something ctypes does portably.
task_parameters = _fn("provio_task_parameters", _c.c_int, handle_t, _c.POINTER(Param), _c.c_size_t)
task_results = _fn("provio_task_results", _c.c_int, handle_t, _c.POINTER(Param), _c.c_size_t)
task_use_config = _fn("provio_task_use_config", _c.c_int, handle_t, handle_t)
config = _fn("provio_config", handle_t, _c.c_char_p, _c.c_int, _c.POINTER(Param), _c.c_size_t)
metric = _fn("provio_metric", _c.c_int, _c.c_char_p, _c.c_double, _c.c_int64, _c.c_int)
model = _fn("provio_model", _c.c_int, _c.c_char_p, entity_t, handle_t, _c.c_int64)
dataset = _fn("provio_dataset", _c.c_int, _c.c_char_p, entity_t, _c.c_int)
program_type = _fn("provio_program_type", _c.c_int, _c.c_char_p)
properties = _fn("provio_properties", _c.c_int, _c.POINTER(Param), _c.c_size_t)
