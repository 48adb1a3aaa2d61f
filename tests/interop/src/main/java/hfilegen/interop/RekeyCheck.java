package hfilegen.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.PrivateCellUtil;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableSnapshotScanner;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code RekeyCheck HFILEGEN WORK_DIR}: {@code hfilegen rekey} judged by HBase. A mini cluster on
 * the local file system (no DFS: the root directory is a plain directory hfilegen reads) holds
 * an old table {@code mig:old} keyed by the decimal id, with four families: {@code v} (VERSIONS
 * 3, SNAPPY, FAST_DIFF, ROW bloom; four versions flushed one by one, every delete type, cells with
 * tags), {@code g} (GZ, ROWCOL), {@code n} (no compression, no bloom) and {@code t} (TTL 30 s,
 * half its cells expired by the time it is read). Compaction is off, so each case stays in its
 * own store file: identical keys in two files, markers in other files than the puts they mask, a
 * put older than a DeleteColumn written after it. The region is then split at a row inside every
 * file (the daughters hold references, and a link for a file below the split row) and snapshot
 * {@code s1} taken.
 *
 * <p>The oracle is HBase's own {@code TableSnapshotScanner} over {@code s1}: all versions
 * (visible) and raw. {@code hfilegen rekey} re-keys the snapshot to {@code {id % 10}|{id}} for a
 * 10-region table with the same families; the output is bulk-loaded with fail-if-need-split and
 * the new table's scan must equal the oracle with keys mapped, cell for cell (row, family,
 * qualifier, timestamp, type, value, tags). The same for {@code --raw} against a raw scan. Then
 * the old table is dropped (its files move to archive/) and the re-key of {@code s1} must still
 * load and equal the oracle. Before that, ExportSnapshot copies s1 to a local directory (its
 * MapReduce job in LocalJobRunner) and the re-key of that export target must equal the root
 * directory's, cell for cell. Hostile inputs (a missing snapshot, a store file removed) must fail with a
 * message naming the file and publish nothing. Prints PASS/FAIL lines and "N passed, M failed".
 */
public final class RekeyCheck {
  private static final PrintStream OUT = System.out;
  private static final TableName OLD = TableName.valueOf("mig:old");
  private static final int ROWS = 1200;
  private static final long T0 = 1700000000000L;
  private static final int TTL_S = 30;
  private static final long TIMEOUT_S = 300;
  private static final String SPLIT_ROW = "5";

  private static final Tally TALLY = new Tally(OUT);

  private RekeyCheck() {
  }

  private static void check(String what, boolean ok, String detail) {
    TALLY.check(what, ok, detail);
  }

  private static byte[] b(String s) {
    return Bytes.toBytes(s);
  }

  private static ColumnFamilyDescriptor[] families() {
    return new ColumnFamilyDescriptor[] {
      ColumnFamilyDescriptorBuilder.newBuilder(b("v")).setMaxVersions(3)
        .setCompressionType(Compression.Algorithm.SNAPPY)
        .setDataBlockEncoding(DataBlockEncoding.FAST_DIFF).setBloomFilterType(BloomType.ROW).build(),
      ColumnFamilyDescriptorBuilder.newBuilder(b("g"))
        .setCompressionType(Compression.Algorithm.GZ).setBloomFilterType(BloomType.ROWCOL).build(),
      ColumnFamilyDescriptorBuilder.newBuilder(b("n"))
        .setCompressionType(Compression.Algorithm.NONE).setBloomFilterType(BloomType.NONE).build(),
      ColumnFamilyDescriptorBuilder.newBuilder(b("t")).setMaxVersions(2).setTimeToLive(TTL_S)
        .build()};
  }

  private static TableDescriptor table(TableName name) {
    // no automatic split (the test splits the old table itself: DisabledRegionSplitPolicy
    // would refuse that too)
    TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(name)
      .setMaxFileSize(100L << 30);
    for (ColumnFamilyDescriptor f : families()) {
      tb.setColumnFamily(f);
    }
    return tb.build();
  }

  private static String id(int i) {
    return Integer.toString(i);
  }

  /** The old table: each case flushed on its own, then split and snapshot s1. */
  private static void makeOldTable(HBaseTestingUtility util) throws Exception {
    Admin admin = util.getAdmin();
    admin.createNamespace(NamespaceDescriptor.create("mig").build());
    admin.createTable(table(OLD));
    util.waitTableAvailable(OLD);
    try (Table t = util.getConnection().getTable(OLD)) {
      // four versions of v:a, one flush each (VERSIONS 3: the oldest is on disk, not visible)
      for (int ver = 1; ver <= 4; ver++) {
        List<Put> puts = new ArrayList<>();
        for (int i = 1; i <= ROWS; i++) {
          Put p = new Put(b(id(i)));
          p.addColumn(b("v"), b("a"), T0 + ver, b("a" + i + "v" + ver));
          if (ver == 1) {
            Put tagged = new Put(b(id(i)));
            tagged.addColumn(b("v"), b("b"), T0, b("tagged" + i));
            tagged.setTTL(TimeUnit.DAYS.toMillis(3650)); // a TTL tag (type 8) on the cell
            puts.add(tagged);
            p.addColumn(b("g"), b("x"), T0, b("gx" + i));
            p.addColumn(b("g"), b("y"), T0, b("gy" + i));
            p.addColumn(b("n"), b("z"), T0, b("nz" + i));
          }
          puts.add(p);
        }
        t.put(puts);
        admin.flush(OLD);
      }
      // the TTL family: live when flushed; the odd rows expire before the snapshot is read
      long now = System.currentTimeMillis();
      List<Put> ttl = new ArrayList<>();
      for (int i = 1; i <= ROWS; i++) {
        long ts = i % 2 == 1 ? now - (TTL_S - 8) * 1000L : now + TimeUnit.HOURS.toMillis(6);
        ttl.add(new Put(b(id(i))).addColumn(b("t"), b("e"), ts, b("t" + i)));
      }
      t.put(ttl);
      admin.flush(OLD);
      // identical keys in two files: the later flush wins
      List<Put> again = new ArrayList<>();
      for (int i = 7; i <= ROWS; i += 7) {
        again.add(new Put(b(id(i))).addColumn(b("v"), b("a"), T0 + 4, b("rewritten" + i)));
      }
      t.put(again);
      admin.flush(OLD);
      // every delete type, in a file of its own
      List<Delete> dels = new ArrayList<>();
      for (int i = 1; i <= ROWS; i++) {
        Delete d = new Delete(b(id(i)));
        switch (i % 5) {
          case 0: d.addColumn(b("v"), b("a"), T0 + 4); break;          // Delete
          case 1: d.addColumns(b("v"), b("a"), T0 + 3); break;         // DeleteColumn
          case 2: d.addFamily(b("g"), T0); break;                      // DeleteFamily
          case 3: d.addFamilyVersion(b("v"), T0 + 2); break;           // DeleteFamilyVersion
          default: continue;
        }
        dels.add(d);
      }
      t.delete(dels);
      admin.flush(OLD);
      // a put older than the DeleteColumn above, written after it: stays masked
      List<Put> late = new ArrayList<>();
      for (int i = 1; i <= ROWS; i += 5) {
        late.add(new Put(b(id(i))).addColumn(b("v"), b("a"), T0 + 1, b("late" + i)));
      }
      t.put(late);
      admin.flush(OLD);
      // a file wholly below the split row: the bottom daughter links it (HBASE-26421)
      List<Put> low = new ArrayList<>();
      for (int i = 1; i <= ROWS; i++) {
        if (id(i).compareTo(SPLIT_ROW) < 0) {
          low.add(new Put(b(id(i))).addColumn(b("n"), b("low"), T0, b("low" + i)));
        }
      }
      t.put(low);
      admin.flush(OLD);
    }
    admin.split(OLD, b(SPLIT_ROW));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (admin.getRegions(OLD).size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    check("the old table split in two", admin.getRegions(OLD).size() == 2,
      admin.getRegions(OLD).size() + " regions");
    admin.snapshot("s1", OLD);
  }

  /** Store-file names under the old table's daughter regions: [references, links]. */
  private static int[] daughterFiles(Path root) throws IOException {
    int[] n = new int[2];
    Path t = root.resolve("data").resolve("mig").resolve("old");
    try (java.util.stream.Stream<Path> w = Files.walk(t)) {
      for (Path p : w.filter(Files::isRegularFile).collect(Collectors.toList())) {
        String f = p.getFileName().toString();
        if (f.startsWith(".") || p.toString().contains("/.")) {
          continue;
        }
        if (f.contains("=")) {
          n[1]++;
        } else if (f.matches(".*\\.[0-9a-f]{32}")) {
          n[0]++;
        }
      }
    }
    return n;
  }

  /** row \t family \t qualifier \t ts \t type \t value \t tags, keys mapped as the rekey maps them. */
  private static String line(Cell c) {
    String oldRow = Bytes.toString(CellUtil.cloneRow(c));
    long idv = Long.parseLong(oldRow);
    String row = (idv % 10) + "|" + oldRow;
    return row + "\t" + Esc.encode(CellUtil.cloneFamily(c)) + "\t"
      + Esc.encode(CellUtil.cloneQualifier(c)) + "\t" + c.getTimestamp() + "\t"
      + c.getType() + "\t" + Esc.encode(CellUtil.cloneValue(c)) + "\t"
      + Esc.encode(PrivateCellUtil.cloneTags(c));
  }

  private static String lineNew(Cell c) {
    return Bytes.toString(CellUtil.cloneRow(c)) + "\t" + Esc.encode(CellUtil.cloneFamily(c)) + "\t"
      + Esc.encode(CellUtil.cloneQualifier(c)) + "\t" + c.getTimestamp() + "\t"
      + c.getType() + "\t" + Esc.encode(CellUtil.cloneValue(c)) + "\t"
      + Esc.encode(PrivateCellUtil.cloneTags(c));
  }

  private static List<String> oracle(Configuration conf, Path root, Path restore, boolean raw)
    throws IOException {
    Scan scan = new Scan().readAllVersions();
    if (raw) {
      scan.setRaw(true);
    }
    List<String> out = new ArrayList<>();
    org.apache.hadoop.fs.Path r = new org.apache.hadoop.fs.Path(root.toUri());
    org.apache.hadoop.fs.Path rd = new org.apache.hadoop.fs.Path(restore.toUri());
    try (TableSnapshotScanner s = new TableSnapshotScanner(conf, r, rd, "s1", scan)) {
      for (Result res; (res = s.next()) != null;) {
        for (Cell c : res.rawCells()) {
          out.add(line(c));
        }
      }
    }
    out.sort(null);
    return out;
  }

  private static List<String> scanNew(HBaseTestingUtility util, TableName name, boolean raw)
    throws IOException {
    Scan scan = new Scan().readAllVersions();
    if (raw) {
      scan.setRaw(true);
    }
    List<String> out = new ArrayList<>();
    try (Table t = util.getConnection().getTable(name); ResultScanner rs = t.getScanner(scan)) {
      for (Result res; (res = rs.next()) != null;) {
        for (Cell c : res.rawCells()) {
          out.add(lineNew(c));
        }
      }
    }
    out.sort(null);
    return out;
  }

  /** Every cell of hfilegen's output as HBase's own HFile reader reads it (tags included). */
  private static List<String> readOutput(Configuration conf, Path out) throws IOException {
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(conf)
      .getRawFileSystem();
    List<String> lines = new ArrayList<>();
    List<Path> files;
    try (java.util.stream.Stream<Path> w = Files.walk(out)) {
      files = w.filter(Files::isRegularFile)
        .filter(f -> !f.getFileName().toString().startsWith("_")
          && !f.getFileName().toString().startsWith(".") && !f.getParent().equals(out))
        .sorted().collect(Collectors.toList());
    }
    for (Path f : files) {
      HFile.Reader r = HFile.createReader(fs,
        new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri()), CacheConfig.DISABLED, true,
        conf);
      try {
        HFileScanner sc = r.getScanner(conf, false, false);
        if (sc.seekTo()) {
          do {
            lines.add(lineNew(sc.getCell()));
          } while (sc.next());
        }
      } finally {
        r.close();
      }
    }
    lines.sort(null);
    return lines;
  }

  /** A cell line without its tags: a client scan over RPC does not carry them. */
  private static List<String> untagged(List<String> lines) {
    return lines.stream().map(l -> l.substring(0, l.lastIndexOf('\t') + 1)).sorted()
      .collect(Collectors.toList());
  }

  private static String firstDiff(List<String> got, List<String> want) {
    TreeMap<String, Integer> d = new TreeMap<>();
    for (String s : got) {
      d.merge(s, 1, Integer::sum);
    }
    for (String s : want) {
      d.merge(s, -1, Integer::sum);
    }
    List<String> diffs = d.entrySet().stream().filter(e -> e.getValue() != 0).limit(6)
      .map(e -> (e.getValue() > 0 ? "extra " : "missing ") + e.getKey()).collect(Collectors.toList());
    return got.size() + " cells against " + want.size() + (diffs.isEmpty() ? "" : "; " + diffs);
  }

  /** Compression of family g's and bloom type of family v's HFiles under out (HBase's reader). */
  private static String[] liveSettings(Configuration conf, Path out) throws IOException {
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(conf)
      .getRawFileSystem();
    String[] r = {"", ""};
    for (String fam : new String[] {"g", "v"}) {
      java.util.Set<String> seen = new java.util.TreeSet<>();
      try (java.util.stream.Stream<Path> w = Files.list(out.resolve(fam))) {
        for (Path f : w.filter(p -> !p.getFileName().toString().startsWith("."))
          .collect(Collectors.toList())) {
          HFile.Reader h = HFile.createReader(fs,
            new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri()), CacheConfig.DISABLED, true,
            conf);
          try {
            if (fam.equals("g")) {
              seen.add(h.getFileContext().getCompression().name());
            } else {
              byte[] bt = h.getHFileInfo().get(Bytes.toBytes("BLOOM_FILTER_TYPE"));
              seen.add(bt == null ? "NONE" : Bytes.toString(bt));
            }
          } finally {
            h.close();
          }
        }
      }
      r[fam.equals("g") ? 0 : 1] = String.join(",", seen);
    }
    return r;
  }

  /** Runs hfilegen (its --out removed first: a rerun of the check); returns its exit code. */
  private static int run(List<String> cmd, Path log) throws Exception {
    int o = cmd.indexOf("--out");
    if (o >= 0) {
      Path out = Paths.get(cmd.get(o + 1));
      if (Files.exists(out)) {
        try (java.util.stream.Stream<Path> w = Files.walk(out)) {
          for (Path p : w.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
            Files.delete(p);
          }
        }
      }
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    Process p = pb.start();
    if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return -1;
    }
    return p.exitValue();
  }

  private static String slurp(Path p) {
    try {
      return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  private static List<String> rekeyCmd(String hfilegen, Path root, Path splits, Path out,
    long asOf, String... extra) {
    List<String> c = new ArrayList<>(Arrays.asList(hfilegen, "rekey", "--from", root.toString(),
      "--snapshot", "s1", "--old-key", "{id}", "--rowkey", "{id % 10}|{id}", "--splits",
      splits.toString(), "--out", out.toString(), "--as-of", Long.toString(asOf),
      "--job-timestamp", Long.toString(T0)));
    c.addAll(Arrays.asList(extra));
    return c;
  }

  private static String load(HBaseTestingUtility util, TableName name, Path dir) {
    try {
      Configuration lc = new Configuration(util.getConfiguration());
      lc.setBoolean("hbase.loadincremental.fail.if.need.split.hfile", true);
      if (BulkLoadHFiles.create(lc).bulkLoad(name, new org.apache.hadoop.fs.Path(dir.toUri()))
        .isEmpty()) {
        return "nothing loaded";
      }
      return null;
    } catch (Throwable t) {
      return Fail.describe(t);
    }
  }

  private static byte[][] newSplits() {
    byte[][] s = new byte[9][];
    for (int k = 1; k <= 9; k++) {
      s[k - 1] = b(k + "|");
    }
    return s;
  }

  /**
   * ExportSnapshot -copy-to a local directory (a MapReduce job, in LocalJobRunner here), then
   * {@code hfilegen rekey --from EXPORT --snapshot s1} at the visible run's --as-of must give
   * that run's cells, read by HBase's HFile reader, tags included. The export holds the
   * snapshot's manifest under .hbase-snapshot/ and every store file under archive/, no data/.
   */
  private static void exportCase(HBaseTestingUtility util, String hfilegen, Path root, Path work,
    Path splits, long asOf, List<String> rootRun) throws Exception {
    Class<?> tool;
    try {
      tool = Class.forName("org.apache.hadoop.hbase.snapshot.ExportSnapshot");
    } catch (ClassNotFoundException e) {
      OUT.println("SKIP ExportSnapshot case: no hbase-mapreduce on this profile's classpath "
        + "(see tests/interop/pom.xml)");
      return;
    }
    Path export = work.resolve("export");
    deleteTree(export);
    String err;
    try {
      Configuration ec = new Configuration(util.getConfiguration());
      ec.set("mapreduce.framework.name", "local");
      // -no-checksum-verify: on this local file system the mapper's FileSystem.getFileChecksum
      // of a source store file and of its copy differ ("Checksum mismatch"), so the copies are
      // checked by name and length only; the check below compares their bytes itself.
      int rc = org.apache.hadoop.util.ToolRunner.run(ec,
        (org.apache.hadoop.util.Tool) tool.getDeclaredConstructor().newInstance(),
        new String[] {"-snapshot", "s1", "-copy-to", export.toUri().toString(), "-mappers", "2",
          "-no-checksum-verify"});
      err = rc == 0 ? null : "exit " + rc;
    } catch (Throwable t) {
      err = Fail.describe(t);
    }
    check("ExportSnapshot -snapshot s1 -copy-to " + export.toUri() + " (LocalJobRunner)",
      err == null, err);
    if (err != null) {
      return;
    }
    // every exported store file: under archive/, byte for byte the file it copies (found in
    // the root directory's data/ or archive/)
    List<Path> archived;
    try (java.util.stream.Stream<Path> w = Files.walk(export.resolve("archive"))) {
      archived = w.filter(Files::isRegularFile)
        .filter(p -> !p.getFileName().toString().startsWith(".")).collect(Collectors.toList());
    } catch (IOException e) {
      archived = new ArrayList<>();
    }
    List<String> differ = new ArrayList<>();
    for (Path f : archived) {
      Path rel = export.resolve("archive").relativize(f);
      Path src = Files.exists(root.resolve(rel)) ? root.resolve(rel)
        : root.resolve("archive").resolve(rel);
      if (!Files.exists(src) || Files.mismatch(src, f) != -1) {
        differ.add(rel.toString());
      }
    }
    check("... the export holds .hbase-snapshot/s1 and the store files under archive/ only, "
      + "each the same bytes as its source",
      Files.isRegularFile(export.resolve(".hbase-snapshot").resolve("s1")
        .resolve(".snapshotinfo")) && !archived.isEmpty() && differ.isEmpty()
        && !Files.exists(export.resolve("data")),
      archived.size() + " files under archive/, data/ " + (Files.exists(export.resolve("data"))
        ? "present" : "absent") + (differ.isEmpty() ? "" : ", not as their source: " + differ));
    Path out = work.resolve("out-export");
    Path log = work.resolve("rekey-export.log");
    int rc = run(rekeyCmd(hfilegen, export, splits, out, asOf), log);
    check("rekey --from the ExportSnapshot target succeeds", rc == 0, "exit " + rc + ": " + slurp(log));
    if (rc != 0) {
      return;
    }
    List<String> got = readOutput(util.getConfiguration(), out);
    check("... its output equals the root-directory run's, cell for cell with tags",
      rootRun != null && !got.isEmpty() && got.equals(rootRun),
      rootRun == null ? "no root-directory run to compare with" : firstDiff(got, rootRun));
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (java.util.stream.Stream<Path> w = Files.walk(dir)) {
      for (Path p : w.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(p);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: RekeyCheck HFILEGEN WORK_DIR");
      System.exit(2);
    }
    System.setOut(System.err);
    String hfilegen = args[0];
    Path work = Paths.get(args[1]).toAbsolutePath();
    Files.createDirectories(work);
    String given = System.getProperty("bulkcheck.dir");
    Path base = given != null ? Paths.get(given + "-rekey") : work.resolve("minicluster");
    Files.createDirectories(base);
    Configuration conf = MiniConf.create(base);
    conf.setInt("hbase.catalogjanitor.interval", 3600000);
    conf.setBoolean("hbase.regionserver.compaction.enabled", false);
    conf.setInt("hbase.hstore.compactionThreshold", 1000);
    conf.setInt("hbase.hstore.blockingStoreFiles", 1000);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    Path root;
    try {
      // the local file system (no DFS): the root directory is a directory hfilegen can read
      util.startMiniZKCluster();
      util.startMiniHBaseCluster(StartMiniClusterOption.builder().numMasters(1)
        .numRegionServers(1).build());
      util.getAdmin().balancerSwitch(false, true);
      util.getAdmin().catalogJanitorSwitch(false);
      makeOldTable(util);
      root = Paths.get(util.getDefaultRootDirPath().toUri().getPath());
    } catch (Throwable t) {
      OUT.println("FAIL mini cluster: could not start or fill the old table: " + Fail.describe(t));
      OUT.println(TALLY.passed + " passed, " + (TALLY.failed + 1) + " failed");
      OUT.flush();
      Runtime.getRuntime().halt(1);
      return;
    }
    Admin admin = util.getAdmin();
    int[] refs = daughterFiles(root);
    check("the daughters hold reference files and a link", refs[0] > 0 && refs[1] > 0,
      refs[0] + " references, " + refs[1] + " links");
    // the odd rows' TTL cells expire (they were written TTL_S - 8 s before the flush)
    Thread.sleep(10000);
    Path splits = work.resolve("splits.txt");
    Files.write(splits, Arrays.stream(newSplits()).map(Bytes::toString)
      .collect(Collectors.joining("\n", "", "\n")).getBytes(StandardCharsets.UTF_8));
    long visibleAsOf = -1;
    List<String> visibleFiles = null;
    for (boolean raw : new boolean[] {false, true}) {
      String mode = raw ? "raw" : "visible";
      long asOf = System.currentTimeMillis();
      if (!raw) {
        visibleAsOf = asOf;
      }
      List<String> want = oracle(conf, root, work.resolve("restore-" + mode), raw);
      Path out = work.resolve("out-" + mode);
      Path log = work.resolve("rekey-" + mode + ".log");
      int rc = raw ? run(rekeyCmd(hfilegen, root, splits, out, asOf, "--raw"), log)
        : run(rekeyCmd(hfilegen, root, splits, out, asOf), log);
      check("rekey (" + mode + ") of snapshot s1 succeeds", rc == 0, "exit " + rc + ": " + slurp(log));
      if (rc != 0) {
        continue;
      }
      TableName nt = TableName.valueOf("mig:new_" + mode);
      admin.createTable(table(nt), newSplits());
      util.waitTableAvailable(nt);
      String lerr = load(util, nt, out);
      check("the " + mode + " output bulk-loads with fail.if.need.split.hfile", lerr == null, lerr);
      List<String> files = readOutput(conf, out);
      if (!raw) {
        visibleFiles = files;
      }
      check("the " + mode + " output, read by HBase's HFile reader, equals TableSnapshotScanner "
        + "over s1 with keys mapped, cell for cell with tags", files.equals(want),
        firstDiff(files, want));
      boolean tagged = want.stream().anyMatch(l -> !l.endsWith("\t"));
      check("... the oracle holds tagged cells (the case is not empty)", tagged, "");
      // a client scan over RPC does not return tags: compared without them
      List<String> got = scanNew(util, nt, raw);
      check("new table's " + mode + " scan equals TableSnapshotScanner over s1, keys mapped",
        got.equals(untagged(want)), firstDiff(got, untagged(want)));
      boolean hasMarkers = want.stream().anyMatch(s -> !s.split("\t")[4].equals("Put"));
      if (raw) {
        check("the raw oracle holds delete markers (the case is not empty)", hasMarkers, "");
      }
    }
    // --table (issue #26): the new table's region boundaries and family settings from the
    // live cluster instead of --splits: 5 regions, family g without compression and v with a
    // ROWCOL bloom (the old table's are GZ and ROW); loads with fail-if-need-split only if the
    // files follow the live boundaries
    {
      String zk = "127.0.0.1:" + util.getZkCluster().getClientPort();
      TableName nt = TableName.valueOf("mig:new_live");
      TableDescriptorBuilder tb = TableDescriptorBuilder.newBuilder(nt).setMaxFileSize(100L << 30);
      for (ColumnFamilyDescriptor f : families()) {
        ColumnFamilyDescriptorBuilder fb = ColumnFamilyDescriptorBuilder.newBuilder(f);
        if (f.getNameAsString().equals("g")) {
          fb.setCompressionType(Compression.Algorithm.NONE);
        } else if (f.getNameAsString().equals("v")) {
          fb.setBloomFilterType(BloomType.ROWCOL);
        }
        tb.setColumnFamily(fb.build());
      }
      byte[][] liveSplits = {b("2|"), b("4|"), b("6|"), b("8|")};
      admin.createTable(tb.build(), liveSplits);
      util.waitTableAvailable(nt);
      long asOf = System.currentTimeMillis();
      List<String> want = oracle(conf, root, work.resolve("restore-live"), false);
      Path out = work.resolve("out-live");
      Path log = work.resolve("rekey-live.log");
      int rc = run(Arrays.asList(hfilegen, "rekey", "--from", root.toString(), "--snapshot", "s1",
        "--old-key", "{id}", "--rowkey", "{id % 10}|{id}", "--table", "mig:new_live",
        "--zookeeper", zk, "--out", out.toString(), "--as-of", Long.toString(asOf),
        "--job-timestamp", Long.toString(T0)), log);
      String msg = slurp(log);
      check("rekey --table mig:new_live (regions and families from the cluster) succeeds",
        rc == 0 && msg.contains("regions from"), "exit " + rc + ": " + msg);
      String lerr = rc == 0 ? load(util, nt, out) : "not built";
      check("... loads into the 5-region table with fail.if.need.split.hfile", lerr == null, lerr);
      List<String> got = scanNew(util, nt, false);
      check("... and its scan equals TableSnapshotScanner over s1, keys mapped",
        got.equals(untagged(want)), firstDiff(got, untagged(want)));
      String[] settings = rc == 0 ? liveSettings(conf, out) : new String[] {"", ""};
      check("... family g is written uncompressed and v with a ROWCOL bloom, as the live table "
        + "says (the snapshot's schema says GZ and ROW)",
        settings[0].equals("NONE") && settings[1].equals("ROWCOL"),
        "g " + settings[0] + ", v " + settings[1]);
      TableName lacking = TableName.valueOf("mig:new_lacking");
      TableDescriptorBuilder lb = TableDescriptorBuilder.newBuilder(lacking);
      for (ColumnFamilyDescriptor f : families()) {
        if (!f.getNameAsString().equals("t")) {
          lb.setColumnFamily(f);
        }
      }
      admin.createTable(lb.build(), liveSplits);
      util.waitTableAvailable(lacking);
      Path outL = work.resolve("out-lacking");
      rc = run(Arrays.asList(hfilegen, "rekey", "--from", root.toString(), "--snapshot", "s1",
        "--old-key", "{id}", "--rowkey", "{id % 10}|{id}", "--table", "mig:new_lacking",
        "--zookeeper", zk, "--out", outL.toString()), log);
      msg = slurp(log);
      check("rekey --table of a new table without the old family t fails naming it, publishing "
        + "nothing", rc != 0 && msg.contains("family 't' of the old table is not a family of the "
        + "new table") && !Files.exists(outL), "exit " + rc + ": " + msg);
    }
    exportCase(util, hfilegen, root, work, splits, visibleAsOf, visibleFiles);
    // hostile inputs: a missing snapshot; nothing published
    {
      Path out = work.resolve("out-missing");
      Path log = work.resolve("rekey-missing.log");
      List<String> cmd = rekeyCmd(hfilegen, root, splits, out, System.currentTimeMillis());
      cmd.set(cmd.indexOf("s1"), "nosuch");
      int rc = run(cmd, log);
      String msg = slurp(log);
      check("a missing snapshot fails naming it", rc != 0 && msg.contains("nosuch"),
        "exit " + rc + ": " + msg);
      check("... and publishes nothing", !Files.exists(out.resolve("_SUCCESS")), "");
    }
    // the old table dropped: its files move to archive/, the snapshot still reads the same
    admin.disableTable(OLD);
    admin.deleteTable(OLD);
    {
      long asOf = System.currentTimeMillis();
      Path out = work.resolve("out-archived");
      Path log = work.resolve("rekey-archived.log");
      int rc = run(rekeyCmd(hfilegen, root, splits, out, asOf), log);
      check("rekey of s1 after the old table was dropped (files only in archive/)", rc == 0,
        "exit " + rc + ": " + slurp(log));
      List<String> want = oracle(conf, root, work.resolve("restore-archived"), false);
      TableName nt = TableName.valueOf("mig:new_archived");
      admin.createTable(table(nt), newSplits());
      util.waitTableAvailable(nt);
      String lerr = rc == 0 ? load(util, nt, out) : "not built";
      List<String> got = scanNew(util, nt, false);
      check("... loads and equals TableSnapshotScanner", lerr == null
        && got.equals(untagged(want)), lerr != null ? lerr : firstDiff(got, untagged(want)));
    }
    OUT.println(TALLY.passed + " passed, " + TALLY.failed + " failed");
    OUT.flush();
    Runtime.getRuntime().halt(TALLY.failed == 0 ? 0 : 1);
  }
}
