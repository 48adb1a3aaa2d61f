package hfilegen.interop;

import java.io.PrintStream;

/** A check program's PASS/FAIL lines and their count, for its "N passed, M failed". */
final class Tally {
  private final PrintStream out;
  int passed;
  int failed;

  Tally(PrintStream out) {
    this.out = out;
  }

  void check(String what, boolean ok, String detail) {
    if (ok) {
      passed++;
      out.println("PASS " + what);
    } else {
      failed++;
      out.println("FAIL " + what + (detail == null || detail.isEmpty() ? "" : ": " + detail));
    }
    out.flush();
  }
}
