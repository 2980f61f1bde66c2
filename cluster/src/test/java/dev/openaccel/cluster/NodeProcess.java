package dev.openaccel.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started by a test: the {@code java} of this JVM's {@code java.home}, with this JVM's class
 * path, running {@code mainClass}. A daemon thread reads its output (stdout and stderr merged) line
 * by line as it comes; every wait on it is bounded. {@link #close} kills it if it still runs.
 *
 * <p>Owns: the output read so far (written by the reader thread only, read under its lock).
 */
final class NodeProcess implements AutoCloseable {
  private final String name;
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final StringBuilder output = new StringBuilder();
  private final Thread reader;

  private NodeProcess(String name, Process process) {
    this.name = name;
    this.process = process;
    this.reader = new Thread(this::read, "output of " + name);
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code mainClass} with {@code args} in a JVM of its own, with a small heap and the
   * client compiler only (they start faster; Java's float arithmetic gives the same bits either
   * way).
   */
  static NodeProcess start(String name, Class<?> mainClass, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(
        List.of(
            "-Xmx512m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            mainClass.getName()));
    command.addAll(List.of(args));
    try {
      return new NodeProcess(name, new ProcessBuilder(command).redirectErrorStream(true).start());
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name + ": " + command, e);
    }
  }

  /**
   * The first line not read yet that starts with {@code prefix}, waiting at most {@code timeout}.
   */
  String awaitLine(String prefix, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (long left = timeout.toNanos(); left > 0; left = deadline - System.nanoTime()) {
      String line = lines.poll(left, TimeUnit.NANOSECONDS);
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
    }
    throw new AssertionError(
        name
            + " printed no line starting with '"
            + prefix
            + "' within "
            + timeout
            + "; its output:\n"
            + output());
  }

  /** Waits at most {@code timeout} for the process to end, then for its last output. */
  int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(
          name + " still runs after " + timeout + "; its output:\n" + output());
    }
    reader.join(TimeUnit.SECONDS.toMillis(10)); // the pipe ends with the process
    return process.exitValue();
  }

  /** What the process printed so far. */
  String output() {
    synchronized (output) {
      return output.toString();
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Override
  public String toString() {
    return name;
  }

  private void read() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        synchronized (output) {
          output.append(line).append('\n');
        }
        lines.add(line);
      }
    } catch (IOException e) {
      synchronized (output) {
        output.append("(output unreadable: ").append(e).append(")\n");
      }
    }
  }
}
