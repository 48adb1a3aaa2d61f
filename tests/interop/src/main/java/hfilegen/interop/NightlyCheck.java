package hfilegen.interop;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code NightlyCheck CASES_DIR}: nightly loads (issue #27, format-specs/nightly-loads.md)
 * judged by HBase. CASES_DIR is what {@code tests/db/nightly.sh} keeps: for each source
 * {@code KIND} (pg, mariadb) the output of each night {@code KIND/nN/} (hfilegen build
 * --incremental lastmodified with --delete-if and --deletes), the source table mapped as it was
 * right after that night ({@code KIND/nN.expected}: row TAB qualifier TAB timestamp TAB value,
 * one line per non-NULL cell) and hfilegen's own model of the table with VERSIONS 3
 * ({@code KIND/nN.v3}: the store scan over nights 1..N). A table {@code KIND} with family
 * {@code cf} (VERSIONS 3, ROW bloom) is created in a mini cluster; night by night the output is
 * bulk-loaded (BulkLoadHFiles), and then a full scan (latest versions) must equal the source
 * cell for cell, and a scan of 3 versions must equal the model. Compaction is off, as a
 * nightly table's stores between compactions. Prints PASS/FAIL lines and "N passed, M failed".
 */
public final class NightlyCheck {
  private static final PrintStream OUT = System.out;
  private static final Tally TALLY = new Tally(OUT);

  private NightlyCheck() {
  }

  private static void check(String what, boolean ok, String detail) {
    TALLY.check(what, ok, detail);
  }

  /** Bytes as tests/db/nightly_scan.c prints them: printable ASCII but '\', else \xNN. */
  private static String esc(byte[] a, int off, int len) {
    StringBuilder s = new StringBuilder();
    for (int i = off; i < off + len; i++) {
      int c = a[i] & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '\\') {
        s.append((char) c);
      } else {
        s.append(String.format("\\x%02x", c));
      }
    }
    return s.toString();
  }

  private static List<String> scan(HBaseTestingUtility util, TableName t, int versions)
      throws Exception {
    List<String> out = new ArrayList<>();
    try (Table table = util.getConnection().getTable(t);
        ResultScanner rs = table.getScanner(new Scan().readVersions(versions))) {
      for (Result r : rs) {
        for (Cell c : r.rawCells()) {
          out.add(esc(c.getRowArray(), c.getRowOffset(), c.getRowLength()) + "\t"
            + esc(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength()) + "\t"
            + c.getTimestamp() + "\t"
            + esc(c.getValueArray(), c.getValueOffset(), c.getValueLength()));
        }
      }
    }
    return out;
  }

  private static String line(Cell c) {
    return esc(c.getRowArray(), c.getRowOffset(), c.getRowLength()) + "\t"
      + esc(c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength()) + "\t"
      + c.getTimestamp() + "\t" + esc(c.getValueArray(), c.getValueOffset(), c.getValueLength());
  }

  /**
   * Point reads, which consult the blooms (a ROWCOL bloom holds a DeleteFamily's row with an
   * empty qualifier only; the delete-family bloom must bring the marker in): a Get of every
   * row id 1..ROWS, then a Get of each column of each row.
   */
  private static List<String> gets(HBaseTestingUtility util, TableName t, boolean byColumn)
      throws Exception {
    List<String> out = new ArrayList<>();
    byte[] cf = Bytes.toBytes("cf");
    try (Table table = util.getConnection().getTable(t)) {
      for (int id = 1; id <= 12; id++) {
        byte[] row = Bytes.toBytes(Integer.toString(id));
        List<Get> gs = new ArrayList<>();
        if (byColumn) {
          for (String q : new String[] {"name", "qty", "note", "updated_ms"}) {
            gs.add(new Get(row).addColumn(cf, Bytes.toBytes(q)));
          }
        } else {
          gs.add(new Get(row));
        }
        for (Get g : gs) {
          for (Cell c : table.get(g).rawCells()) {
            out.add(line(c));
          }
        }
      }
    }
    Collections.sort(out);
    return out;
  }

  private static List<String> lines(Path p) throws Exception {
    return Files.readAllLines(p, StandardCharsets.UTF_8).stream().filter(l -> !l.isEmpty())
      .collect(Collectors.toList());
  }

  private static String firstDiff(List<String> got, List<String> want) {
    for (int i = 0; i < Math.max(got.size(), want.size()); i++) {
      String g = i < got.size() ? got.get(i) : "(end)";
      String w = i < want.size() ? want.get(i) : "(end)";
      if (!g.equals(w)) {
        return "line " + (i + 1) + ": HBase [" + g + "], expected [" + w + "] (" + got.size()
          + " vs " + want.size() + " cells)";
      }
    }
    return "";
  }

  private static boolean hasHFiles(Path out) throws Exception {
    Path fam = out.resolve("cf");
    if (!Files.isDirectory(fam)) {
      return false;
    }
    try (Stream<Path> s = Files.list(fam)) {
      return s.anyMatch(p -> !p.getFileName().toString().startsWith("_"));
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: NightlyCheck CASES_DIR");
      System.exit(2);
    }
    System.setOut(System.err);
    Path cases = Paths.get(args[0]).toAbsolutePath();
    String given = System.getProperty("bulkcheck.dir");
    Path base = given != null ? Paths.get(given + "-nightly") : cases.resolve("minicluster");
    Files.createDirectories(base);
    Configuration conf = MiniConf.create(base);
    conf.setBoolean("hbase.regionserver.compaction.enabled", false);
    conf.setInt("hbase.hstore.compactionThreshold", 1000);
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    try {
      util.startMiniZKCluster();
      util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1)
        .numRegionServers(1).build());
    } catch (Throwable t) {
      OUT.println("FAIL mini cluster: could not start: " + Fail.describe(t));
      OUT.println(TALLY.passed + " passed, " + (TALLY.failed + 1) + " failed");
      OUT.flush();
      Runtime.getRuntime().halt(1);
      return;
    }
    List<String> kinds = new ArrayList<>();
    try (Stream<Path> s = Files.list(cases)) {
      s.filter(p -> Files.isDirectory(p.resolve("n1"))).forEach(p -> kinds.add(
        p.getFileName().toString()));
    }
    Collections.sort(kinds);
    check("cases to check in " + cases, !kinds.isEmpty(), "no KIND/n1 directory");
    for (String kind : kinds) {
      TableName t = TableName.valueOf(kind);
      util.getAdmin().createTable(TableDescriptorBuilder.newBuilder(t)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("cf"))
          .setMaxVersions(3).setBloomFilterType(BloomType.ROW).build()).build());
      util.waitTableAvailable(t);
      for (int n = 1; Files.isDirectory(cases.resolve(kind).resolve("n" + n)); n++) {
        Path out = cases.resolve(kind).resolve("n" + n);
        String what = kind + " night " + n;
        String lerr = null;
        if (hasHFiles(out)) {
          try {
            Configuration lc = new Configuration(util.getConfiguration());
            lc.setBoolean("hbase.loadincremental.fail.if.need.split.hfile", true);
            if (BulkLoadHFiles.create(lc).bulkLoad(t, new org.apache.hadoop.fs.Path(out.toUri()))
              .isEmpty()) {
              lerr = "nothing loaded";
            }
          } catch (Throwable e) {
            lerr = Fail.describe(e);
          }
        }
        check(what + ": bulk load", lerr == null, lerr);
        List<String> got = scan(util, t, 1);
        Collections.sort(got);
        List<String> want = lines(cases.resolve(kind).resolve("n" + n + ".expected"));
        Collections.sort(want);
        check(what + ": full scan (latest versions) = the source table (" + want.size()
          + " cells)", got.equals(want), firstDiff(got, want));
        List<String> got3 = scan(util, t, 3);
        Collections.sort(got3);
        List<String> want3 = lines(cases.resolve(kind).resolve("n" + n + ".v3"));
        Collections.sort(want3);
        check(what + ": scan of 3 versions = hfilegen's store scan (" + want3.size() + " cells)",
          got3.equals(want3), firstDiff(got3, want3));
        List<String> rowGets = gets(util, t, false);
        check(what + ": a Get of every row = the source table", rowGets.equals(want),
          firstDiff(rowGets, want));
        List<String> colGets = gets(util, t, true);
        check(what + ": a Get of every column = the source table", colGets.equals(want),
          firstDiff(colGets, want));
      }
    }
    OUT.println(TALLY.passed + " passed, " + TALLY.failed + " failed");
    OUT.flush();
    Runtime.getRuntime().halt(TALLY.failed == 0 ? 0 : 1);
  }
}
