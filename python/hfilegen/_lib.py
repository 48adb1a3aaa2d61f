"""ctypes declarations of libhfilegen (include/hfilegen/batch.h and build_args.h).

The library is, in this order: HFILEGEN_LIB (a path, or a soname for the loader); a copy
bundled in this package (hfilegen/libhfilegen.so*); in a source checkout, its build/
directory; the libdir of hfilegen.pc (pkg-config, e.g. a `cmake --install --prefix`
staging tree on PKG_CONFIG_PATH); the dynamic loader (libhfilegen.so.0 installed by the
Debian package or `cmake --install` into a system prefix, or on LD_LIBRARY_PATH).
"""
import ctypes as C
import glob
import os
import shutil
import subprocess

SONAME = "libhfilegen.so.0"  # the library's ABI this package is written against
_here = os.path.dirname(os.path.abspath(__file__))


def _pkg_config_libdir():
    exe = shutil.which("pkg-config")
    if not exe:
        return None
    try:
        r = subprocess.run([exe, "--variable=libdir", "hfilegen"], capture_output=True,
                           text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else None


def _candidates():
    env = os.environ.get("HFILEGEN_LIB")
    if env:
        yield env
        return  # asked for this one: no other is a silent substitute
    yield from sorted(glob.glob(os.path.join(_here, "libhfilegen.so*")))
    repo = os.path.dirname(os.path.dirname(_here))
    if os.path.exists(os.path.join(repo, "CMakeLists.txt")):
        yield os.path.join(repo, "build", "libhfilegen.so")
    libdir = _pkg_config_libdir()
    if libdir:
        yield os.path.join(libdir, SONAME)
    yield SONAME  # the loader: ld.so.cache, LD_LIBRARY_PATH


def _load():
    tried = []
    for c in _candidates():
        bare = os.sep not in c
        if not bare and not os.path.exists(c):
            tried.append(c + " (no such file)")
            continue
        try:
            return (c if bare else os.path.abspath(c)), C.CDLL(c)
        except OSError as e:
            tried.append("%s (%s)" % (c, e))
    raise OSError("libhfilegen not found: install it (the hfilegen .deb, or cmake --install), "
                  "build it (cmake ... && ninja -C build), or set HFILEGEN_LIB; tried "
                  + "; ".join(tried))


path, lib = _load()

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


# ---- rekey in pieces (include/hfilegen/rekey.h: hfg_rekey_batch) ----
class RekeyHead(C.Structure):
    """The leading fields of hfg_rekey_options (the rest is hfg_build_options, copied by
    hfg_rekey_options_new)."""
    _fields_ = [("version", C.c_uint), ("from_dir", C.c_char_p), ("snapshot", C.c_char_p),
                ("old_key", C.c_char_p), ("raw", C.c_int), ("as_of", C.c_int64),
                ("hfile_given", C.c_uint)]


REKEY_COUNTS = ["rows_read", "rows_rejected", "rows_without_cells", "long_keys",
                "store_files", "cells_read", "markers_read", "dropped_markers",
                "dropped_deleted", "dropped_expired", "dropped_versions", "dropped_duplicate",
                "dropped_outside"]


class RekeyCounts(C.Structure):
    _fields_ = [(n, C.c_uint64) for n in REKEY_COUNTS]


_f("hfg_rekey_options_new", vp, vp)
_f("hfg_rekey_options_free", None, vp)
_f("hfg_rekey_batch_open", C.c_int, vp, C.c_int64, C.POINTER(vp), C.c_char_p, C.c_size_t)
_f("hfg_rekey_batch_free", None, vp)
_f("hfg_rekey_batch_batch", vp, vp)
_f("hfg_rekey_batch_as_of", C.c_int64, vp)
_f("hfg_rekey_batch_warning", C.c_char_p, vp)
_f("hfg_rekey_batch_nregions", C.c_size_t, vp)
_f("hfg_rekey_batch_region_name", C.c_char_p, vp, C.c_size_t)
_f("hfg_rekey_batch_read_region", C.c_int, vp, C.c_size_t, C.POINTER(C.POINTER(BatchOut)),
   C.POINTER(RekeyCounts))
_f("hfg_rekey_batch_set_counts", None, vp, C.POINTER(RekeyCounts))
