// Guava's own BloomFilter, as the guava kind's tests ask it: one JVM a test
// run, driven by a job file (java's source launcher compiles this file
// against Debian's /usr/share/java/guava.jar as it starts).
//
//   java -cp /usr/share/java/guava.jar GuavaOracle.java JOBS
//
// Each line of JOBS is one job, fields separated by tabs:
//   write NAME FUNNEL N P MEMBERS PROBES OUT
//       BloomFilter.create(funnel, N, P), every line of MEMBERS put, written
//       with writeTo to OUT; mightContain of each line of PROBES into
//       OUT.answers ('1' or '0' a probe, in order).
//   read NAME FUNNEL FILE PROBES
//       BloomFilter.readFrom(FILE, funnel); mightContain of each probe into
//       FILE.answers.
// FUNNEL is string (Funnels.stringFunnel(UTF_8)) or long (Funnels.longFunnel(),
// each line a decimal long). For each job one line goes to standard output:
// NAME, expectedFpp() and approximateElementCount(), tab-separated.
import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnel;
import com.google.common.hash.Funnels;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

public class GuavaOracle {
  interface Job<T> {
    BloomFilter<T> filter() throws Exception;
  }

  static List<String> lines(String path) throws Exception {
    return Files.readAllLines(Path.of(path), StandardCharsets.UTF_8);
  }

  static <T> void answer(BloomFilter<T> f, List<T> probes, String out) throws Exception {
    byte[] a = new byte[probes.size()];
    for (int i = 0; i < a.length; i++) a[i] = (byte) (f.mightContain(probes.get(i)) ? '1' : '0');
    Files.write(Path.of(out), a);
  }

  static <T> void run(String[] job, Funnel<? super T> funnel, java.util.function.Function<String, T> parse)
      throws Exception {
    final String name = job[1];
    BloomFilter<T> f;
    List<T> probes;
    String answers;
    if (job[0].equals("write")) {
      f = BloomFilter.create(funnel, Long.parseLong(job[3]), Double.parseDouble(job[4]));
      for (String s : lines(job[5])) f.put(parse.apply(s));
      try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(Path.of(job[7])))) {
        f.writeTo(out);
      }
      probes = lines(job[6]).stream().map(parse).toList();
      answers = job[7] + ".answers";
    } else {
      try (InputStream in = new BufferedInputStream(Files.newInputStream(Path.of(job[3])))) {
        f = BloomFilter.readFrom(in, funnel);
      }
      probes = lines(job[4]).stream().map(parse).toList();
      answers = job[3] + ".answers";
    }
    answer(f, probes, answers);
    System.out.println(name + "\t" + f.expectedFpp() + "\t" + f.approximateElementCount());
  }

  public static void main(String[] args) throws Exception {
    for (String line : lines(args[0])) {
      if (line.isEmpty()) continue;
      String[] job = line.split("\t");
      if (job[2].equals("long")) run(job, Funnels.longFunnel(), Long::parseLong);
      else run(job, Funnels.stringFunnel(StandardCharsets.UTF_8), (String s) -> (CharSequence) s);
    }
  }
}
