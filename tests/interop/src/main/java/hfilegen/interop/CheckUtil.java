package hfilegen.interop;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.io.hfile.HFileInfo;
import org.apache.hadoop.hbase.util.Bytes;

/** ReadCheck's small pieces: equality checks that throw {@link Fail}, and keys made from cells. */
final class CheckUtil {
  private CheckUtil() {}

  static byte[] fileInfo(HFileInfo info, String key) throws Fail {
    byte[] v = info.get(Bytes.toBytes(key));
    if (v == null) {
      throw new Fail("file info " + key, null, "missing");
    }
    return v;
  }

  static void eq(String what, Object got, Object want) throws Fail {
    if (!got.equals(want)) {
      throw new Fail(what, null, "file has " + got + ", expected " + want);
    }
  }

  static void eq(String what, long got, long want) throws Fail {
    if (got != want) {
      throw new Fail(what, null, "file has " + got + ", expected " + want);
    }
  }

  static void keyEq(String what, byte[] got, byte[] want) throws Fail {
    if (!Arrays.equals(got, want)) {
      throw new Fail(what, null, "file has " + Esc.encode(got) + ", expected " + Esc.encode(want));
    }
  }

  /** A key strictly between a and b (a < b), or null when no simple one exists. */
  static KeyValue keyBetween(CellComparator cmp, KeyValue a, KeyValue b) {
    byte[] r = rowOf(a);
    byte[] f = Arrays.copyOfRange(a.getFamilyArray(), a.getFamilyOffset(),
      a.getFamilyOffset() + a.getFamilyLength());
    byte[] q = Arrays.copyOfRange(a.getQualifierArray(), a.getQualifierOffset(),
      a.getQualifierOffset() + a.getQualifierLength());
    List<KeyValue> candidates = new ArrayList<>();
    candidates.add(new KeyValue(r, f, q, a.getTimestamp(), KeyValue.Type.Minimum));
    if (a.getTimestamp() > Long.MIN_VALUE) {
      candidates.add(new KeyValue(r, f, q, a.getTimestamp() - 1, KeyValue.Type.Maximum));
    }
    candidates.add(new KeyValue(r, f, Arrays.copyOf(q, q.length + 1), Long.MAX_VALUE,
      KeyValue.Type.Maximum));
    for (KeyValue c : candidates) {
      if (cmp.compare(a, c) < 0 && cmp.compare(c, b) < 0) {
        return c;
      }
    }
    return null;
  }

  /** The smallest key of a row: empty family/qualifier, latest timestamp, type Maximum. */
  static KeyValue firstOnRow(byte[] row) {
    return new KeyValue(row, new byte[0], new byte[0], Long.MAX_VALUE, KeyValue.Type.Maximum);
  }

  static byte[] rowOf(Cell c) {
    return Arrays.copyOfRange(c.getRowArray(), c.getRowOffset(),
      c.getRowOffset() + c.getRowLength());
  }

  static byte[] rowColKey(Cell c) {
    byte[] r = rowOf(c);
    byte[] q = Arrays.copyOfRange(c.getQualifierArray(), c.getQualifierOffset(),
      c.getQualifierOffset() + c.getQualifierLength());
    return Bytes.add(Bytes.toBytes(r.length), r, q);
  }
}
