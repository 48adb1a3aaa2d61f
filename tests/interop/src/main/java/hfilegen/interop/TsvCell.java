package hfilegen.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.PrivateCellUtil;

/**
 * One line of a {@code *.cells.tsv} file:
 * {@code row family qualifier timestamp type value tags}, tab separated, escaped with {@link Esc}.
 */
public final class TsvCell {
  public final byte[] row;
  public final byte[] family;
  public final byte[] qualifier;
  public final long ts;
  public final KeyValue.Type type;
  public final byte[] value;
  public final byte[] tags;

  public TsvCell(byte[] row, byte[] family, byte[] qualifier, long ts, KeyValue.Type type,
    byte[] value, byte[] tags) {
    this.row = row;
    this.family = family;
    this.qualifier = qualifier;
    this.ts = ts;
    this.type = type;
    this.value = value;
    this.tags = tags == null ? new byte[0] : tags;
  }

  public static TsvCell of(Cell c) {
    return new TsvCell(CellUtil.cloneRow(c), CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
      c.getTimestamp(), KeyValue.Type.codeToType(c.getTypeByte()), CellUtil.cloneValue(c),
      PrivateCellUtil.cloneTags(c));
  }

  /** The cell as an HBase KeyValue, carrying the raw serialized tags bytes unchanged. */
  public KeyValue toKeyValue() {
    return new KeyValue(row, 0, row.length, family, 0, family.length, qualifier, 0,
      qualifier.length, ts, type, value, 0, value.length, tags, 0, tags.length);
  }

  public String toLine() {
    return Esc.encode(row) + '\t' + Esc.encode(family) + '\t' + Esc.encode(qualifier) + '\t' + ts
      + '\t' + type.name() + '\t' + Esc.encode(value) + '\t' + Esc.encode(tags);
  }

  public static TsvCell parse(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 7) {
      throw new IllegalArgumentException("expected 7 tab-separated fields, got " + f.length);
    }
    KeyValue.Type t;
    try {
      t = KeyValue.Type.valueOf(f[4]);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown cell type '" + f[4] + "'");
    }
    return new TsvCell(Esc.decode(f[0]), Esc.decode(f[1]), Esc.decode(f[2]), Long.parseLong(f[3]),
      t, Esc.decode(f[5]), Esc.decode(f[6]));
  }

  public static List<TsvCell> readAll(Path p) throws IOException {
    List<TsvCell> out = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(p, StandardCharsets.US_ASCII)) {
      String line;
      int n = 0;
      while ((line = r.readLine()) != null) {
        n++;
        try {
          out.add(parse(line));
        } catch (RuntimeException e) {
          throw new IOException(p + " line " + n + ": " + e.getMessage(), e);
        }
      }
    }
    return out;
  }

  public static void writeAll(Path p, List<TsvCell> cells) throws IOException {
    try (Writer w = Files.newBufferedWriter(p, StandardCharsets.US_ASCII)) {
      for (TsvCell c : cells) {
        w.write(c.toLine());
        w.write('\n');
      }
    }
  }

  /** Field-by-field comparison; returns null when equal, else a short description. */
  public String diff(TsvCell o) {
    if (!Arrays.equals(row, o.row)) return "row";
    if (!Arrays.equals(family, o.family)) return "family";
    if (!Arrays.equals(qualifier, o.qualifier)) return "qualifier";
    if (ts != o.ts) return "timestamp";
    if (type != o.type) return "type";
    if (!Arrays.equals(value, o.value)) return "value";
    if (!Arrays.equals(tags, o.tags)) return "tags";
    return null;
  }

  @Override
  public String toString() {
    String v = value.length > 64 ? Esc.encode(value, 0, 64) + "...(" + value.length + " bytes)"
      : Esc.encode(value);
    return Esc.encode(row.length > 80 ? Arrays.copyOf(row, 80) : row)
      + (row.length > 80 ? "...(" + row.length + " bytes)" : "") + "/" + Esc.encode(family) + ":"
      + Esc.encode(qualifier) + "/" + ts + "/" + type.name() + " value=" + v + " tags="
      + Esc.encode(tags);
  }
}
