package hfilegen.interop;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.hbase.KeyValue.Type;
import org.apache.hadoop.hbase.util.Bytes;

/** Deterministic cell generators for the reference files. */
final class Cells {
  static final long TS = 1_700_000_000_000L;

  private Cells() {
  }

  static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  static byte[] row(int i) {
    return b(String.format("row-%08d", i));
  }

  /** Values of mixed printable and binary bytes, somewhat compressible. */
  static byte[] value(Random rnd, int len) {
    byte[] v = new byte[len];
    for (int i = 0; i < len; i++) {
      int k = rnd.nextInt(10);
      v[i] = k < 6 ? (byte) ('a' + rnd.nextInt(6)) : k < 9 ? (byte) (i & 0x3f) : (byte) rnd.nextInt();
    }
    return v;
  }

  /** rows x quals Put cells, one version each, values of minLen..maxLen bytes. */
  static List<TsvCell> grid(String family, int firstRow, int rows, int quals, int minLen,
    int maxLen, long seed) {
    Random rnd = new Random(seed);
    List<TsvCell> out = new ArrayList<>();
    for (int r = firstRow; r < firstRow + rows; r++) {
      for (int q = 0; q < quals; q++) {
        int len = minLen + rnd.nextInt(maxLen - minLen + 1);
        out.add(new TsvCell(row(r), b(family), b(String.format("q%03d", q)), TS + rnd.nextInt(1000),
          Type.Put, value(rnd, len), null));
      }
    }
    return RefWriter.sorted(out);
  }

  /** Serialized tags: per tag a 2-byte length (type + value), a 1-byte type, the value. */
  static byte[] tags(Object... typeAndValue) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < typeAndValue.length; i += 2) {
      int type = (Integer) typeAndValue[i];
      byte[] val = (byte[]) typeAndValue[i + 1];
      int len = 1 + val.length;
      out.write(len >> 8);
      out.write(len);
      out.write(type);
      out.write(val, 0, val.length);
    }
    return out.toByteArray();
  }

  /**
   * Tags on some cells, every delete type, several versions, empty values, and rows/qualifiers
   * with bytes that must be escaped (tab, newline, backslash, 0x00, 0xff).
   */
  static List<TsvCell> tagsAndDeletes(String family) {
    Random rnd = new Random(7);
    byte[] f = b(family);
    List<TsvCell> out = new ArrayList<>();
    for (int r = 0; r < 400; r++) {
      byte[] row = r % 50 == 7 ? Bytes.add(row(r), new byte[] { '\t', '\n', '\\', 0, (byte) 0xff })
        : row(r);
      for (int q = 0; q < 4; q++) {
        byte[] qual = q == 3 ? new byte[] { 'q', (byte) 0x80, '\\', 'x' } : b("c" + q);
        for (int v = 0; v < 1 + (r % 3); v++) {
          long ts = TS + 100 * (3 - v);
          byte[] tags = (r + q + v) % 4 == 0 ? tags(65, b("vis-" + r), 66, new byte[] { 0, 1, 2 })
            : (r + q) % 9 == 0 ? tags(200, new byte[0]) : null;
          byte[] val = (r + q) % 5 == 0 ? new byte[0] : Cells.value(rnd, 1 + rnd.nextInt(40));
          out.add(new TsvCell(row, f, qual, ts, Type.Put, val, tags));
        }
        if (r % 6 == 1) {
          out.add(new TsvCell(row, f, qual, TS + 150, Type.Delete, new byte[0], null));
        }
        if (r % 10 == 2) {
          out.add(new TsvCell(row, f, qual, TS + 250, Type.DeleteColumn, new byte[0],
            r % 20 == 2 ? tags(8, b("ttl")) : null));
        }
      }
      if (r % 15 == 3) {
        out.add(new TsvCell(row, f, new byte[0], TS + 50, Type.DeleteFamily, new byte[0], null));
      }
      if (r % 25 == 4) {
        out.add(new TsvCell(row, f, new byte[0], TS + 200, Type.DeleteFamilyVersion, new byte[0],
          null));
      }
    }
    return RefWriter.sorted(out);
  }

  /** A few small cells around one cell with a 2 MB value. */
  static List<TsvCell> bigValue(String family) {
    Random rnd = new Random(11);
    List<TsvCell> out = grid(family, 0, 20, 2, 5, 30, 12);
    out.add(new TsvCell(row(10), b(family), b("big"), TS, Type.Put, value(rnd, 2 * 1024 * 1024),
      null));
    return RefWriter.sorted(out);
  }

  /** Rows of 1000 bytes. */
  static List<TsvCell> longRows(String family, int rows) {
    Random rnd = new Random(13);
    List<TsvCell> out = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      byte[] row = new byte[1000];
      byte[] prefix = row(r);
      for (int i = 0; i < row.length; i++) {
        row[i] = i < prefix.length ? prefix[i] : (byte) ('A' + (i * 7 + r) % 26);
      }
      for (int q = 0; q < 2; q++) {
        out.add(new TsvCell(row, b(family), b("q" + q), TS + q, Type.Put,
          value(rnd, 10 + rnd.nextInt(30)), null));
      }
    }
    return RefWriter.sorted(out);
  }
}
