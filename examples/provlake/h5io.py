"""ctypes over libh5io.so (h5io.c): HDF5 files written and read through our HDF5, so that the
provio VOL connector records them. Used by lifecycle.py and tests/ml."""
import ctypes

import numpy as np


class H5IO:
    def __init__(self, library):
        lib = ctypes.CDLL(library)
        hid, size = ctypes.c_int64, ctypes.c_uint64
        dims = ctypes.POINTER(size)
        doubles = ctypes.POINTER(ctypes.c_double)
        for name, res, args in (
                ("h5io_file", hid, [ctypes.c_char_p, ctypes.c_int]),
                ("h5io_close", ctypes.c_int, [hid]),
                ("h5io_write", ctypes.c_int, [hid, ctypes.c_char_p, ctypes.c_int, dims, doubles]),
                ("h5io_shape", ctypes.c_int, [hid, ctypes.c_char_p, ctypes.c_int, dims]),
                ("h5io_read_rows", ctypes.c_int, [hid, ctypes.c_char_p, size, size, doubles]),
                ("h5io_attr_double", ctypes.c_int, [hid, ctypes.c_char_p, ctypes.c_double]),
                ("h5io_attr_string", ctypes.c_int, [hid, ctypes.c_char_p, ctypes.c_char_p])):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        self.lib = lib

    @staticmethod
    def _ok(rc, what):
        if rc < 0:
            raise OSError(f"h5io: {what} failed")
        return rc

    def write(self, path, arrays, attributes=None):
        """Creates `path` with one float64 dataset per {name: array} and root attributes."""
        f = self._ok(self.lib.h5io_file(str(path).encode(), 1), f"creating {path}")
        try:
            for name, a in arrays.items():
                a = np.ascontiguousarray(a, dtype=np.float64)
                dims = (ctypes.c_uint64 * a.ndim)(*a.shape)
                self._ok(self.lib.h5io_write(f, name.encode(), a.ndim, dims,
                                             a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))), f"writing {name}")
            for name, v in (attributes or {}).items():
                if isinstance(v, str):
                    self._ok(self.lib.h5io_attr_string(f, name.encode(), v.encode()), f"attribute {name}")
                else:
                    self._ok(self.lib.h5io_attr_double(f, name.encode(), float(v)), f"attribute {name}")
        finally:
            self._ok(self.lib.h5io_close(f), f"closing {path}")

    def read(self, path, name, first=0, count=None):
        """Rows [first, first + count) of dataset `name` (all rows by default)."""
        f = self._ok(self.lib.h5io_file(str(path).encode(), 0), f"opening {path}")
        try:
            dims = (ctypes.c_uint64 * 8)()
            rank = self._ok(self.lib.h5io_shape(f, name.encode(), 8, dims), f"shape of {name}")
            shape = [dims[i] for i in range(rank)]
            count = shape[0] - first if count is None else count
            out = np.empty([count] + shape[1:], dtype=np.float64)
            self._ok(self.lib.h5io_read_rows(f, name.encode(), first, count,
                                             out.ctypes.data_as(ctypes.POINTER(ctypes.c_double))), f"reading {name}")
            return out
        finally:
            self._ok(self.lib.h5io_close(f), f"closing {path}")
