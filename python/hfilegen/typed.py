"""Typed inputs (Parquet, ORC) as the text hfilegen's rowkey templates and value encodings
take: one rule per type, the same on every executor (no time zone, no locale).

    integers (tinyint..bigint)   decimal digits, '-' for negatives          42, -7
    float, double                Java's Float/Double.toString, as Spark,   1.5, 1.0E20, NaN,
                                 Hive and the HBase shell print them        -0.0, Infinity
                                 (done by Spark: CAST(c AS STRING))
    decimal(p, s)                plain digits with exactly s decimals,      12.50, 0.00000001
                                 never an exponent (BigDecimal.toPlainString)
    boolean                      true / false
    date                         yyyy-MM-dd (ISO 8601, proleptic Gregorian) 2024-01-31
    timestamp, timestamp_ntz     epoch milliseconds (HBase's time unit),    1706702400123
                                 sub-millisecond digits dropped toward the
                                 past (floor), as `column:NAME:us` does
    string                       its UTF-8 bytes
    binary                       its bytes, as they are
    NULL (any type)              no value: no cell, counted in null_values; in a rowkey
                                 column the record is rejected

Anything else (arrays, maps, structs, intervals) is refused when the job starts, naming the
column: select the atomic columns with --columns.
"""
import pyarrow as pa
import pyarrow.compute as pc

from hfilegen.core import HfilegenError

#: Spark SQL type names (DataType.typeName()) of columns a job can read, and those Spark
#: converts itself (floats: Java's text form lives in the JVM).
SPARK_TYPES = {"byte", "short", "integer", "long", "float", "double", "boolean", "date",
               "timestamp", "timestamp_ntz", "string", "binary"}
SPARK_CASTS = {"float", "double"}


def spark_select(schema, columns):
    """The select expressions (SQL) that read `columns` of a Spark schema for keying:
    floats cast to text by Spark, everything else as it is (converted in the task)."""
    fields = {f.name: f for f in schema.fields}
    exprs = []
    for c in columns:
        if c not in fields:
            raise HfilegenError("no column '%s' in the input (its columns: %s)"
                                % (c, ", ".join(fields)))
        t = fields[c].dataType.typeName()
        q = "`%s`" % c.replace("`", "``")
        if t.startswith("decimal"):
            exprs.append(q)
        elif t not in SPARK_TYPES:
            raise HfilegenError("column '%s' is %s: hfilegen reads columns of atomic types "
                                "only (integers, floats, decimals, booleans, dates, "
                                "timestamps, strings, binary); choose columns with --columns"
                                % (c, fields[c].dataType.simpleString()))
        elif t in SPARK_CASTS:
            exprs.append("CAST(%s AS STRING) AS %s" % (q, q))
        else:
            exprs.append(q)
    return exprs


def _plain_decimals(a):
    s = a.cast(pa.string())
    sci = pc.fill_null(pc.match_substring(s, "E"), False)
    if not pc.any(sci).as_py():
        return s
    vals = s.to_pylist()
    for i, d in enumerate(a.to_pylist()):
        if d is not None and "E" in vals[i]:
            vals[i] = format(d, "f")  # keeps the exponent -scale: the type's decimals
    return pa.array(vals, pa.string())


_UNIT = {"s": None, "ms": 1, "us": 1000, "ns": 1000000}


def _epoch_ms(a):
    v = a.cast(pa.int64())
    unit = a.type.unit
    if unit == "s":
        ms = pc.multiply_checked(v, 1000)
    elif unit == "ms":
        ms = v
    else:
        k = _UNIT[unit]
        # floor division: pc.divide truncates toward zero on integers
        q = pc.divide(v, k)
        neg = pc.and_(pc.less(v, 0), pc.not_equal(pc.multiply(q, k), v))
        ms = pc.if_else(neg, pc.subtract(q, 1), q)
    return ms.cast(pa.string())


def text_column(a, name="?"):
    """One Arrow column of a typed input as text (pa.string or pa.binary), NULLs kept."""
    t = a.type
    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks()
    if pa.types.is_string(t) or pa.types.is_binary(t):
        return a
    if pa.types.is_large_string(t):
        return a.cast(pa.string())
    if pa.types.is_large_binary(t):
        return a.cast(pa.binary())
    if pa.types.is_integer(t) or pa.types.is_boolean(t) or pa.types.is_date32(t):
        return a.cast(pa.string())
    if pa.types.is_decimal(t):
        return _plain_decimals(a)
    if pa.types.is_timestamp(t):
        return _epoch_ms(a)
    raise HfilegenError("column '%s' is %s: not a type hfilegen reads (see hfilegen.typed)"
                        % (name, t))


def text_batch(batch, columns):
    """The job's columns of an Arrow batch as text arrays, in the job's order."""
    names = batch.schema.names
    out = []
    for c in columns:
        if c not in names:
            raise HfilegenError("batch has no column '%s'" % c)
        out.append(text_column(batch.column(names.index(c)), c))
    return out


__all__ = ["spark_select", "text_column", "text_batch"]
