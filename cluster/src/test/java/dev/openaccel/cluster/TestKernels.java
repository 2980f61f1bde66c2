package dev.openaccel.cluster;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

/**
 * Kernels the tests register by name on every node, as a deployment would register the same code on
 * each node at start-up.
 */
final class TestKernels {
  private TestKernels() {}

  /** Latches the "gate" kernel waits for, by the name passed as its argument. */
  static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();

  /** A new closed gate named {@code name}, for the "gate" kernel. */
  static CountDownLatch gate(String name) {
    CountDownLatch latch = new CountDownLatch(1);
    GATES.put(name, latch);
    return latch;
  }

  /** Registers the test kernels on {@code node}. */
  static void registerOn(ClusterAccelerator node, int nodeIndex) {
    KernelRegistry kernels = node.kernels();
    // Writes the index of the node it runs on: shows where a launch by name ran.
    kernels.register("node-index", (context, args) -> context.buffer(0).putInt(0, nodeIndex));
    // args: one int; buffer 0 is filled with it, as ints.
    kernels.register(
        "fill",
        (context, args) -> {
          int value = ByteBuffer.wrap(args).getInt();
          ByteBuffer out = context.buffer(0);
          for (int i = 0; i + 4 <= out.limit(); i += 4) {
            out.putInt(i, value);
          }
        });
    // buffer 0 ints += the int in args.
    kernels.register(
        "add",
        (context, args) -> {
          int delta = ByteBuffer.wrap(args).getInt();
          ByteBuffer data = context.buffer(0);
          for (int i = 0; i + 4 <= data.limit(); i += 4) {
            data.putInt(i, data.getInt(i) + delta);
          }
        });
    // buffer 0 ints *= the int in args.
    kernels.register(
        "scale",
        (context, args) -> {
          int factor = ByteBuffer.wrap(args).getInt();
          ByteBuffer data = context.buffer(0);
          for (int i = 0; i + 4 <= data.limit(); i += 4) {
            data.putInt(i, data.getInt(i) * factor);
          }
        });
    // buffer 0 = [count, v1, v2, ...]: appends the int in args, recording the execution order.
    kernels.register(
        "append",
        (context, args) -> {
          ByteBuffer log = context.buffer(0);
          int count = log.getInt(0);
          log.putInt(4 + 4 * count, ByteBuffer.wrap(args).getInt());
          log.putInt(0, count + 1);
        });
    // args: int slot; buffer 1 (longs) [slot] = CRC32 of buffer 0.
    kernels.register(
        "crc",
        (context, args) -> {
          CRC32 crc = new CRC32();
          crc.update(context.buffer(0).duplicate());
          context.buffer(1).putLong(8 * ByteBuffer.wrap(args).getInt(), crc.getValue());
        });
    // args: one int; fails unless every int of buffer 0 equals it.
    kernels.register(
        "expect",
        (context, args) -> {
          int expected = ByteBuffer.wrap(args).getInt();
          ByteBuffer data = context.buffer(0);
          for (int i = 0; i + 4 <= data.limit(); i += 4) {
            if (data.getInt(i) != expected) {
              throw new IllegalStateException(
                  "expected " + expected + " at byte " + i + ", found " + data.getInt(i));
            }
          }
        });
    kernels.register(
        "fail",
        (context, args) -> {
          throw new IllegalStateException("kernel failed on purpose: " + new String(args));
        });
    // Holds its stream until the test opens the gate named by args (bounded).
    kernels.register(
        "gate",
        (context, args) -> {
          CountDownLatch gate = GATES.get(new String(args, StandardCharsets.UTF_8));
          if (gate == null || !gate.await(20, TimeUnit.SECONDS)) {
            throw new IllegalStateException("gate " + new String(args) + " was never opened");
          }
        });
  }

  static byte[] text(String value) {
    return value.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] intArg(int value) {
    return ByteBuffer.allocate(4).putInt(value).array();
  }

  static int intAt(byte[] bytes, int index) {
    return ByteBuffer.wrap(bytes).getInt(4 * index);
  }
}
