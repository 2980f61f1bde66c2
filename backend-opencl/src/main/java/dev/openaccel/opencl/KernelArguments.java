package dev.openaccel.opencl;

import dev.openaccel.runtime.DeviceBuffer;
import java.util.List;
import java.util.Map;

/**
 * Checks a launch's arguments against a kernel's parameters at the call and encodes them for {@code
 * clSetKernelArg}: a buffer (resolved to its {@code cl_mem} when enqueued), a {@link LocalMemory}
 * as a size, a scalar as its bits. Immutable once built; thread-safe. Each instance gives back the
 * uses it took once ({@link #enqueued}); {@link #retaken} makes another over the same regions.
 */
final class KernelArguments {
  /** The Java type each OpenCL C scalar type takes, and its size in bytes. */
  private record Scalar(Class<?> javaType, int size) {}

  private static final Map<String, Scalar> SCALARS =
      Map.ofEntries(
          Map.entry("char", new Scalar(Byte.class, 1)),
          Map.entry("uchar", new Scalar(Byte.class, 1)),
          Map.entry("short", new Scalar(Short.class, 2)),
          Map.entry("ushort", new Scalar(Short.class, 2)),
          Map.entry("int", new Scalar(Integer.class, 4)),
          Map.entry("uint", new Scalar(Integer.class, 4)),
          Map.entry("long", new Scalar(Long.class, 8)),
          Map.entry("ulong", new Scalar(Long.class, 8)),
          Map.entry("float", new Scalar(Float.class, 4)),
          Map.entry("double", new Scalar(Double.class, 8)));

  /** How argument {@code i} is passed: {@code size} bytes of {@code bits}, or a null pointer. */
  private final long[] bits;

  private final int[] sizes;
  private ClRegion[] regions; // null until a buffer is put: a launch of values makes none
  private DeviceBuffer[] buffers; // each buffer argument, with regions
  private boolean[] local; // null until a local-memory argument is put

  private KernelArguments(int count) {
    bits = new long[count];
    sizes = new int[count];
  }

  /** The same arguments as {@code other}, sharing its arrays (never written once encoded). */
  private KernelArguments(KernelArguments other) {
    bits = other.bits;
    sizes = other.sizes;
    regions = other.regions;
    buffers = other.buffers;
    local = other.local;
  }

  /**
   * The same arguments with a use of each buffer's region taken anew, as {@link #encode} takes
   * them: for a replay of a captured launch, whose template gave its uses back.
   *
   * @throws IllegalStateException if a buffer's memory went back to the device (it was closed)
   */
  KernelArguments retaken() {
    KernelArguments copy = new KernelArguments(this);
    int taken = 0;
    try {
      for (; regions != null && taken < regions.length; taken++) {
        if (regions[taken] != null) {
          regions[taken].acquire("launch a kernel on");
        }
      }
    } catch (RuntimeException e) {
      for (int i = 0; i < taken; i++) {
        if (regions[i] != null) {
          regions[i].enqueued();
        }
      }
      throw e;
    }
    return copy;
  }

  /**
   * Checks {@code args} against {@code parameters} and encodes them.
   *
   * @param target the backend, which resolves buffer arguments
   * @throws IllegalArgumentException naming the kernel, the parameter and the value on a wrong
   *     count or type, or for a buffer of another accelerator
   * @throws IllegalStateException if a buffer is closed
   */
  static KernelArguments encode(
      String kernel, List<KernelParameter> parameters, Object[] args, LaunchTarget target) {
    if (args.length != parameters.size()) {
      throw new IllegalArgumentException(
          "kernel "
              + kernel
              + " takes "
              + parameters.size()
              + " arguments "
              + parameters
              + ", got "
              + args.length);
    }
    KernelArguments encoded = new KernelArguments(args.length);
    try {
      for (int i = 0; i < args.length; i++) {
        encoded.put(kernel, parameters.get(i), args[i], target);
      }
    } catch (RuntimeException e) {
      encoded.enqueued();
      throw e;
    }
    return encoded;
  }

  private void put(String kernel, KernelParameter p, Object arg, LaunchTarget target) {
    int i = p.index();
    switch (p.space()) {
      case GLOBAL, CONSTANT -> {
        String use = "launch a kernel on";
        DeviceBuffer buffer = require(kernel, p, arg, DeviceBuffer.class);
        ClRegion region = target.region(buffer, use);
        bits[i] = region.acquire(use);
        if (regions == null) {
          regions = new ClRegion[bits.length];
          buffers = new DeviceBuffer[bits.length];
        }
        regions[i] = region;
        buffers[i] = buffer;
        sizes[i] = Long.BYTES;
      }
      case LOCAL -> {
        sizes[i] = localSize(kernel, p, require(kernel, p, arg, LocalMemory.class));
        if (local == null) {
          local = new boolean[bits.length];
        }
        local[i] = true;
      }
      case PRIVATE -> {
        Scalar scalar = SCALARS.get(p.typeName().replace("unsigned ", "u"));
        if (scalar == null) {
          throw new IllegalArgumentException(
              "kernel "
                  + kernel
                  + " parameter "
                  + p.index()
                  + " ("
                  + p
                  + ") has a type the"
                  + " launch API does not pass (scalars only: "
                  + SCALARS.keySet()
                  + ")");
        }
        Object value = require(kernel, p, arg, scalar.javaType());
        bits[i] = bitsOf(value);
        sizes[i] = scalar.size();
      }
    }
  }

  /** The bytes of a local-memory argument; no device has 2 GiB of it, nor can one argument. */
  private static int localSize(String kernel, KernelParameter p, LocalMemory local) {
    if (local.bytes() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          argument(kernel, p)
              + " asks for "
              + local.bytes()
              + " bytes of local memory, more than any device has (at most "
              + Integer.MAX_VALUE
              + " per argument)");
    }
    return (int) local.bytes();
  }

  private static <T> T require(String kernel, KernelParameter p, Object arg, Class<T> type) {
    if (!type.isInstance(arg)) {
      throw new IllegalArgumentException(
          argument(kernel, p)
              + " needs a "
              + type.getSimpleName()
              + ", got "
              + (arg == null ? "null" : arg.getClass().getSimpleName() + " " + arg));
    }
    return type.cast(arg);
  }

  /** "kernel k argument i (parameter)": how a message names an argument. */
  private static String argument(String kernel, KernelParameter p) {
    return "kernel " + kernel + " argument " + p.index() + " (" + p + ")";
  }

  private static long bitsOf(Object value) {
    if (value instanceof Float f) {
      return Float.floatToRawIntBits(f) & 0xFFFF_FFFFL;
    }
    if (value instanceof Double d) {
      return Double.doubleToRawLongBits(d);
    }
    return ((Number) value).longValue();
  }

  int count() {
    return bits.length;
  }

  /** The region argument {@code i} names, or null for a value or local memory. */
  ClRegion region(int i) {
    return regions == null ? null : regions[i];
  }

  /**
   * The bytes of the buffer argument {@code i} (its size, which the region it lies in may exceed):
   * what a checked kernel may access.
   */
  long bufferSize(int i) {
    return buffers[i].size();
  }

  /** The buffer argument {@code i}, or null for a value or local memory. */
  DeviceBuffer buffer(int i) {
    return buffers == null ? null : buffers[i];
  }

  /** The bits of argument {@code i}: a value, or a buffer's {@code cl_mem}. */
  long bits(int i) {
    return bits[i];
  }

  /** Gives back the regions' uses; called once, after the launch was enqueued or abandoned. */
  void enqueued() {
    if (regions == null) {
      return;
    }
    for (ClRegion region : regions) {
      if (region != null) {
        region.enqueued();
      }
    }
  }

  int size(int i) {
    return sizes[i];
  }

  /** True for a {@code __local} argument: {@link #size} bytes, no value. */
  boolean isLocal(int i) {
    return local != null && local[i];
  }

  /** The bytes of local memory the arguments ask for, summed. */
  long localBytes() {
    long bytes = 0;
    for (int i = 0; local != null && i < local.length; i++) {
      bytes += local[i] ? sizes[i] : 0;
    }
    return bytes;
  }
}
