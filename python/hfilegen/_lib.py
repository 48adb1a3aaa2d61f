"""ctypes declarations of libhfilegen.so (include/hfilegen/batch.h and src/cli/bind.c).

The library is found through HFILEGEN_LIB (a path to libhfilegen.so), else next to this
package (hfilegen/libhfilegen.so), else in the repository's build/ directory.
"""
import ctypes as C
import os

_here = os.path.dirname(os.path.abspath(__file__))


def _find():
    cands = []
    if os.environ.get("HFILEGEN_LIB"):
        cands.append(os.environ["HFILEGEN_LIB"])
    cands.append(os.path.join(_here, "libhfilegen.so"))
    cands.append(os.path.join(_here, "..", "..", "build", "libhfilegen.so"))
    for c in cands:
        if os.path.exists(c):
            return os.path.abspath(c)
    raise OSError("libhfilegen.so not found: set HFILEGEN_LIB or build it "
                  "(cmake ... && ninja -C build), tried " + ", ".join(cands))


path = _find()
lib = C.CDLL(path)

u8p = C.POINTER(C.c_uint8)
i64p = C.POINTER(C.c_int64)
u64p = C.POINTER(C.c_uint64)


class BatchOut(C.Structure):
    _fields_ = [("n", C.c_size_t), ("region", C.POINTER(C.c_uint32)),
                ("key_off", i64p), ("key_data", u8p), ("order", u64p),
                ("pl_off", i64p), ("pl_data", u8p),
                ("rejects", u8p), ("rejects_len", C.c_size_t),
                ("records_read", C.c_uint64), ("records_rejected", C.c_uint64),
                ("long_keys", C.c_uint64), ("input_bytes", C.c_uint64),
                ("null_values", C.c_uint64), ("blank_lines", C.c_uint64)]


class BatchFile(C.Structure):
    _fields_ = [("region", C.c_size_t), ("family", C.c_size_t), ("seq", C.c_uint),
                ("name", C.c_char_p), ("path", C.c_char_p),
                ("first_row", u8p), ("last_row", u8p),
                ("first_len", C.c_size_t), ("last_len", C.c_size_t),
                ("cells", C.c_uint64), ("bytes", C.c_uint64)]


def _f(name, res, *args):
    fn = getattr(lib, name)
    fn.restype = res
    fn.argtypes = list(args)


vp = C.c_void_p
_f("hfg_build_args_parse", vp, C.c_int, C.POINTER(C.c_char_p))
_f("hfg_build_args_options", vp, vp)
_f("hfg_build_args_ninputs", C.c_size_t, vp)
_f("hfg_build_args_input", C.c_char_p, vp, C.c_size_t)
_f("hfg_build_args_out", C.c_char_p, vp)
_f("hfg_build_args_rejects", C.c_char_p, vp)
_f("hfg_build_args_max_rejects", C.c_uint64, vp)
_f("hfg_build_args_free", None, vp)
_f("hfg_batch_open", C.c_int, vp, C.c_int64, C.POINTER(vp), C.c_char_p, C.c_size_t)
_f("hfg_batch_free", None, vp)
_f("hfg_batch_errmsg", C.c_char_p, vp)
_f("hfg_batch_timestamp", C.c_int64, vp)
_f("hfg_batch_regions", C.c_size_t, vp)
_f("hfg_batch_columns", C.c_size_t, vp, C.POINTER(C.POINTER(C.c_char_p)))
_f("hfg_batch_read_file", C.c_int, vp, C.c_size_t, C.POINTER(C.POINTER(BatchOut)))
_f("hfg_batch_key", C.c_int, vp, C.c_size_t, C.c_size_t, C.POINTER(C.POINTER(C.c_int32)),
   C.POINTER(u8p), u64p, C.c_size_t, C.c_uint64, C.POINTER(C.POINTER(BatchOut)))
_f("hfg_batch_emit", C.c_int, vp, C.c_size_t, C.c_char_p, C.c_size_t, i64p, u8p, u64p, i64p,
   u8p)
_f("hfg_batch_nfiles", C.c_size_t, vp)
_f("hfg_batch_get_file", C.c_int, vp, C.c_size_t, C.POINTER(BatchFile))
_f("hfg_batch_family", C.c_char_p, vp, C.c_size_t)
_f("hfg_batch_region_counts", None, vp, C.c_size_t, u64p)
_f("hfg_batch_begin", C.c_int, vp, C.POINTER(C.c_char_p))
_f("hfg_batch_work_path", None, vp, C.c_char_p, C.c_char_p, C.c_size_t)
_f("hfg_batch_add_file", C.c_int, vp, C.POINTER(BatchFile))
_f("hfg_batch_set_counts", None, vp, C.c_uint64, C.c_uint64, u64p, u64p, u64p, C.c_uint64,
   C.c_uint64, C.c_uint64)
_f("hfg_batch_publish", C.c_int, vp)
_f("hfg_batch_abort", None, vp)
_f("hfg_batch_compare_rows", C.c_int, C.c_char_p, C.c_size_t, C.c_char_p, C.c_size_t)
_f("hfg_strerror", C.c_char_p, C.c_int)
_f("hfg_batch_key_nulls", C.c_int, vp, C.c_size_t, C.c_size_t,
   C.POINTER(C.POINTER(C.c_int32)), C.POINTER(u8p), C.POINTER(u8p), u64p, C.c_size_t,
   C.c_uint64, C.POINTER(C.POINTER(BatchOut)))
_f("hfg_batch_set_nulls", None, vp, C.c_uint64)
_f("hfg_batch_set_blank_lines", None, vp, C.c_uint64)
_f("hfg_build_args_format", C.c_int, vp)
_f("hfg_build_args_null_string", C.c_char_p, vp)
_f("hfg_build_args_ncolumns", C.c_size_t, vp)
_f("hfg_build_args_column", C.c_char_p, vp, C.c_size_t)
_f("hfg_build_args_set_source", C.c_int, vp, C.c_size_t, C.POINTER(C.c_char_p), C.c_size_t,
   C.POINTER(C.c_char_p))
_f("hfg_batch_scan_file", C.c_int, vp, C.c_size_t, C.c_uint64, C.POINTER(C.c_size_t),
   C.POINTER(u64p))
_f("hfg_batch_read_range", C.c_int, vp, C.c_size_t, C.c_uint64, C.c_uint64, C.c_uint64,
   C.c_uint64, C.POINTER(C.POINTER(BatchOut)))
_f("hfg_build_args_check", C.c_int, vp, C.c_char_p, C.c_int)
_f("hfg_parse_size", C.c_int, C.c_char_p, u64p)
