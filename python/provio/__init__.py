"""provio: workflow-level provenance from Python (docs/workflow-api.md).

Records the workflow, its tasks, configurations (hyperparameters), metrics and model checkpoints
into the same per-thread W3C PROV files as the I/O that the HDF5 VOL connector and the POSIX
preload shim capture, so one merged graph links a metric, its hyperparameters and the write
activities of its checkpoint file::

    import provio
    with provio.workflow("sweep", campaign="mnist-2026"):
        with provio.task("run-3") as run:
            hp = provio.hyperparameters(lr=0.01, epochs=5, hidden=32)
            for epoch in range(5):
                ...
                provio.metric(step=epoch, stage="validation", accuracy=acc, loss=loss)
                provio.model("ckpt/run-3.npz", config=hp, step=epoch)

Values may be bool, int (any size), float (NaN refused), str, bytes, numpy scalars and 0-d
arrays, os.PathLike (a file: a data reference) or a `Data` from `file()` / `hdf5()`. Misuse raises:
TypeError (non-string keys, unsupported values), ValueError (NaN, empty names, unknown stage) and
ProvioError (state errors reported by the C library: a task ended twice, a metric outside a task,
closing a workflow that is not open). Tasks belong to the thread that began them.
"""
import math
import numbers
import os

from . import _native as _n

__all__ = ["ProvioError", "Data", "Workflow", "Task", "Config", "file", "hdf5", "workflow", "task",
           "config", "hyperparameters", "data_selection", "metric", "metrics", "model", "dataset",
           "program_type", "properties", "flush"]

_INT64 = 2 ** 63
_UINT64 = 2 ** 64


class ProvioError(RuntimeError):
    """A call the provio C library refused (the message says why)."""


def _check(rc, what):
    if rc == _n.EINVAL:
        raise ProvioError(_n.last_error().decode("utf-8", "replace") or what)
    return rc


def _text(s, what):
    """str/bytes -> bytes for a char* argument (no NUL inside: C would cut the string there)."""
    if isinstance(s, str):
        b = s.encode("utf-8", "surrogateescape")
    elif isinstance(s, (bytes, bytearray)):
        b = bytes(s)
    else:
        raise TypeError(f"provio: {what} must be a string, not {type(s).__name__}")
    if b"\0" in b:
        raise ValueError(f"provio: {what} contains a NUL character")
    return b


def _name(s, what):
    b = _text(s, what)
    if not b:
        raise ValueError(f"provio: {what} is empty")
    return b


class Data:
    """A data reference: a file or an HDF5 object, with the IRI the I/O layers use for it."""

    __slots__ = ("entity", "path", "object_path")

    def __init__(self, entity, path, object_path=None):
        self.entity, self.path, self.object_path = entity, path, object_path

    def __repr__(self):
        suffix = f"#{self.object_path}" if self.object_path else ""
        return f"provio.Data({os.fsdecode(self.path)}{suffix})"


def file(path):
    """A file (or directory) by path; relative paths resolve against the working directory."""
    b = os.fsencode(path)
    if not b or b"\0" in b:
        raise ValueError("provio: file path is empty or contains a NUL character")
    e = _n.file(b)
    if not e:
        _check(_n.EINVAL, "provio_file failed")
    return Data(e, b)


def hdf5(path, object_path, kind="dataset"):
    """An object inside an HDF5 file by its full path ("/group/dataset")."""
    f = file(path)
    if kind not in _n.CLASSES:
        raise ValueError(f"provio: unknown HDF5 object kind {kind!r} (one of {sorted(_n.CLASSES)})")
    e = _n.object_(f.entity, _name(object_path, "HDF5 object path"), _n.CLASSES[kind])
    if not e:
        _check(_n.EINVAL, "provio_object failed")
    return Data(e, f.path, object_path)


def _data(ref, what):
    if isinstance(ref, Data):
        return ref
    if isinstance(ref, (str, bytes, os.PathLike)):
        return file(ref)
    raise TypeError(f"provio: {what} must be a path or provio.Data, not {type(ref).__name__}")


def _scalar(v):
    # numpy scalars and 0-d arrays, without importing numpy
    if hasattr(v, "dtype") and hasattr(v, "item"):
        if getattr(v, "shape", ()) != ():
            raise TypeError(f"provio: values must be scalars, not arrays of shape {v.shape}")
        return v.item()
    return v


def _value(key, v, keep):
    """A provio_value_t for `v`; `keep` holds the bytes the C call will read."""
    val = _n.Value()
    v = _scalar(v)
    if isinstance(v, Data) or isinstance(v, os.PathLike):
        val.type, val.v.e = _n.VALUE_ENTITY, _data(v, key).entity
    elif isinstance(v, bool):
        val.type, val.v.b = _n.VALUE_BOOL, int(v)
    elif isinstance(v, numbers.Integral):
        i = int(v)
        if -_INT64 <= i < _INT64:
            val.type, val.v.i = _n.VALUE_INT, i
        elif 0 <= i < _UINT64:
            val.type, val.v.u = _n.VALUE_UINT, i
        else:  # beyond 64 bits: exact, as xsd:integer
            b = str(i).encode()
            keep.append(b)
            val.type, val.v.s = _n.VALUE_INTEGER, b
    elif isinstance(v, numbers.Real):
        d = float(v)
        if math.isnan(d):
            raise ValueError(f"provio: value of {key!r} is NaN")
        val.type, val.v.d = _n.VALUE_DOUBLE, d
    elif isinstance(v, (str, bytes, bytearray)):
        b = _text(v, f"value of {key!r}")
        keep.append(b)
        val.type, val.v.s = _n.VALUE_STRING, b
    else:
        raise TypeError(f"provio: value of {key!r} has unsupported type {type(v).__name__}")
    return val


def _params(mapping, kwargs):
    """(array of provio_param_t, n, keep-alive) from a mapping plus keyword arguments."""
    items = []
    if mapping is not None:
        if not hasattr(mapping, "items"):
            raise TypeError(f"provio: expected a mapping of names to values, not {type(mapping).__name__}")
        items.extend(mapping.items())
    items.extend(kwargs.items())
    keep = []
    arr = (_n.Param * max(len(items), 1))()
    seen = set()
    for i, (k, v) in enumerate(items):
        if not isinstance(k, str):
            raise TypeError(f"provio: keys must be strings, not {type(k).__name__} ({k!r})")
        if k in seen:
            raise ValueError(f"provio: key {k!r} given twice")
        seen.add(k)
        kb = _name(k, "key")
        keep.append(kb)
        arr[i].key = kb
        arr[i].value = _value(k, v, keep)
    return arr, len(items), keep


def _stage(stage):
    aliases = {"train": "training", "val": "validation", "valid": "validation", "test": "testing"}
    s = aliases.get(stage, stage)
    if s not in _n.STAGES:
        raise ValueError(f"provio: unknown stage {stage!r} (training, validation, testing or None)")
    return _n.STAGES[s]


def _step(step):
    if step is None:
        return _n.NO_STEP
    step = _scalar(step)
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise TypeError(f"provio: step must be an integer, not {type(step).__name__}")
    if not -_INT64 < int(step) < _INT64:
        raise ValueError(f"provio: step {step} does not fit in 64 bits")
    return int(step)


class Workflow:
    """The workflow this process runs; a context manager (or call open() / close())."""

    def __init__(self, name, campaign=None):
        self.name = _name(name, "workflow name")
        self.campaign = None if campaign is None else _text(campaign, "campaign")

    def open(self):
        _check(_n.workflow_open(self.name, self.campaign), "provio_workflow_open failed")
        return self

    def close(self):
        _check(_n.workflow_close(), "provio_workflow_close failed")

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()
        return False


def workflow(name, campaign=None):
    """`with provio.workflow("sweep", campaign="c"):` names the workflow of this process."""
    return Workflow(name, campaign)


class Config:
    """A recorded configuration (its handle links models and tasks to it)."""

    __slots__ = ("handle", "name")

    def __init__(self, handle, name):
        self.handle, self.name = handle, name

    def __repr__(self):
        return f"provio.Config({self.handle}, {self.name!r})"


class Task:
    """A task of the calling thread; a context manager (or call begin() / end())."""

    def __init__(self, name, parent=None):
        self.name = _name(name, "task name")
        if parent is not None and not isinstance(parent, Task):
            raise TypeError("provio: parent must be a provio.Task")
        self.parent = parent
        self.handle = 0

    def begin(self):
        if self.handle:
            raise ProvioError(f"provio: task {self.name!r} was already begun")
        parent = self.parent.handle if self.parent is not None else 0
        if self.parent is not None and not parent:
            raise ProvioError("provio: the parent task has not begun")
        h = _n.task_begin(self.name, parent)
        if not h:
            _check(_n.EINVAL, "provio_task_begin failed")
        self.handle = h
        return self

    def end(self):
        _check(_n.task_end(self.handle), "provio_task_end failed")

    def _h(self):
        if not self.handle:
            raise ProvioError(f"provio: task {self.name!r} has not begun")
        return self.handle

    def input(self, *data):
        """Data the task reads: paths or provio.Data."""
        refs = [_data(d, "input") for d in data]
        for r in refs:
            _check(_n.task_input(self._h(), r.entity), "provio_task_input failed")

    def output(self, *data):
        """Data the task writes: paths or provio.Data."""
        refs = [_data(d, "output") for d in data]
        for r in refs:
            _check(_n.task_output(self._h(), r.entity), "provio_task_output failed")

    def parameters(self, mapping=None, **kw):
        arr, n, _keep = _params(mapping, kw)
        _check(_n.task_parameters(self._h(), arr, n), "provio_task_parameters failed")

    def results(self, mapping=None, **kw):
        arr, n, _keep = _params(mapping, kw)
        _check(_n.task_results(self._h(), arr, n), "provio_task_results failed")

    def use(self, config):
        if not isinstance(config, Config):
            raise TypeError("provio: use() takes a provio.Config")
        _check(_n.task_use_config(self._h(), config.handle), "provio_task_use_config failed")

    def __call__(self, fn):
        """As a decorator: every call of `fn` runs in a fresh task of this name."""
        import functools

        @functools.wraps(fn)
        def traced(*args, **kwargs):
            with Task(self.name, self.parent):
                return fn(*args, **kwargs)
        return traced

    def __enter__(self):
        return self.begin()

    def __exit__(self, exc_type, exc, tb):
        if exc_type is not None and self.handle:
            # A task that raised says so; the exception itself propagates unchanged.
            try:
                self.results(error=exc_type.__name__)
            except Exception:
                pass
        self.end()
        return False


def task(name, parent=None):
    """`with provio.task("train") as t:` a task of this thread, nested in the open one; or
    `@provio.task("epoch")` on a function: one task per call."""
    return Task(name, parent)


def config(mapping=None, *, name=None, kind="general", **params):
    """Records a configuration (key -> value); the open task of this thread, if any, uses it."""
    if kind not in _n.CONFIG_KINDS:
        raise ValueError(f"provio: unknown configuration kind {kind!r} (one of {sorted(_n.CONFIG_KINDS)})")
    nb = None if name is None else _text(name, "configuration name")
    arr, n, _keep = _params(mapping, params)
    h = _n.config(nb, _n.CONFIG_KINDS[kind], arr, n)
    if not h:
        _check(_n.EINVAL, "provio_config failed")
    return Config(h, name)


def hyperparameters(mapping=None, *, name="hyperparameters", **params):
    """A configuration that is a hyperparameter setting (PROV-ML)."""
    return config(mapping, name=name, kind="hyperparameters", **params)


def data_selection(mapping=None, *, name="data selection", **params):
    """A configuration that preselects data."""
    return config(mapping, name=name, kind="data_selection", **params)


def metrics(mapping, *, step=None, stage=None):
    """Metrics {name: value} of the open task of this thread, at `step` of `stage`."""
    if not hasattr(mapping, "items"):
        raise TypeError(f"provio: metrics() takes a mapping, not {type(mapping).__name__}")
    st, sp = _stage(stage), _step(step)
    checked = []
    for k, v in mapping.items():  # check everything before recording anything
        if not isinstance(k, str):
            raise TypeError(f"provio: metric names must be strings, not {type(k).__name__} ({k!r})")
        v = _scalar(v)
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(f"provio: metric {k!r} must be a number, not {type(v).__name__}")
        d = float(v)
        if math.isnan(d):
            raise ValueError(f"provio: metric {k!r} is NaN")
        checked.append((_name(k, "metric name"), d))
    for k, d in checked:
        _check(_n.metric(k, d, sp, st), "provio_metric failed")


def metric(name=None, value=None, *, step=None, stage=None, **named):
    """`provio.metric("accuracy", 0.9, step=3)` or `provio.metric(step=3, accuracy=0.9, loss=0.2)`."""
    m = dict(named)
    if name is not None:
        if value is None:
            raise TypeError("provio: metric(name, value): value missing")
        if not isinstance(name, str):
            raise TypeError(f"provio: metric names must be strings, not {type(name).__name__}")
        if name in m:
            raise ValueError(f"provio: metric {name!r} given twice")
        m = {name: value, **m}
    if not m:
        raise TypeError("provio: metric() needs a name and value, or name=value keywords")
    metrics(m, step=step, stage=stage)


def model(data, config=None, step=None, name=None):
    """A model or checkpoint written to `data` (path or provio.Data), trained with `config`."""
    ref = _data(data, "model data")
    if config is not None and not isinstance(config, Config):
        raise TypeError("provio: config must be a provio.Config")
    nb = None if name is None else _text(name, "model name")
    _check(_n.model(nb, ref.entity, config.handle if config else 0, _step(step)), "provio_model failed")
    return ref


def dataset(data, stage=None, name=None):
    """A dataset (path or provio.Data) used for a learning stage by the open task, if any."""
    ref = _data(data, "dataset")
    nb = None if name is None else _text(name, "dataset name")
    _check(_n.dataset(nb, ref.entity, _stage(stage)), "provio_dataset failed")
    return ref


def program_type(name):
    """Tags this program execution with a type (PROV-IO+ provio:Type), e.g. "training"."""
    _check(_n.program_type(_name(name, "program type")), "provio_program_type failed")


def properties(mapping=None, **kw):
    """User-defined properties of the open task, else the open workflow, else the program."""
    arr, n, _keep = _params(mapping, kw)
    _check(_n.properties(arr, n), "provio_properties failed")


def flush():
    """Writes every thread's buffered provenance to its file now."""
    _n.flush()


def _flush_in_multiprocessing_children():
    # multiprocessing's children end with os._exit(), which skips the C exit handlers that flush:
    # a child's records would be lost. Its own shutdown (util._exit_function) runs finalizers,
    # so each child registers a flush there (after-fork hooks run after the child's registry of
    # finalizers is reset). Plain os.fork() + os._exit() needs an explicit provio.flush().
    try:
        import multiprocessing.util as mp_util
    except ImportError:
        return

    def register(_):
        mp_util.Finalize(None, _n.flush, exitpriority=-100)

    mp_util.register_after_fork(_flush_in_multiprocessing_children, register)


_flush_in_multiprocessing_children()
