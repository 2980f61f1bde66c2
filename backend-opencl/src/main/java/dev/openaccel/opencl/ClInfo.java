package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clGetDeviceInfo;
import static org.lwjgl.opencl.CL10.clGetPlatformInfo;
import static org.lwjgl.system.MemoryStack.stackPush;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/** Reads platform and device info values; every failure names the query. */
final class ClInfo {
  private ClInfo() {}

  static String platformString(long platform, int param) {
    try (MemoryStack stack = stackPush()) {
      PointerBuffer size = stack.mallocPointer(1);
      ClErrors.check(
          clGetPlatformInfo(platform, param, (ByteBuffer) null, size), "clGetPlatformInfo");
      ByteBuffer value = MemoryUtil.memAlloc((int) size.get(0));
      try {
        ClErrors.check(clGetPlatformInfo(platform, param, value, null), "clGetPlatformInfo");
        return decode(value);
      } finally {
        MemoryUtil.memFree(value);
      }
    }
  }

  static String deviceString(long device, int param) {
    try (MemoryStack stack = stackPush()) {
      PointerBuffer size = stack.mallocPointer(1);
      ClErrors.check(clGetDeviceInfo(device, param, (ByteBuffer) null, size), "clGetDeviceInfo");
      ByteBuffer value = MemoryUtil.memAlloc((int) size.get(0));
      try {
        ClErrors.check(clGetDeviceInfo(device, param, value, null), "clGetDeviceInfo");
        return decode(value);
      } finally {
        MemoryUtil.memFree(value);
      }
    }
  }

  static long deviceLong(long device, int param) {
    try (MemoryStack stack = stackPush()) {
      var value = stack.mallocLong(1);
      ClErrors.check(clGetDeviceInfo(device, param, value, null), "clGetDeviceInfo");
      return value.get(0);
    }
  }

  static int deviceInt(long device, int param) {
    try (MemoryStack stack = stackPush()) {
      var value = stack.mallocInt(1);
      ClErrors.check(clGetDeviceInfo(device, param, value, null), "clGetDeviceInfo");
      return value.get(0);
    }
  }

  /** A NUL-terminated string of {@code bytes}. */
  static String decode(ByteBuffer bytes) {
    return decodeExactly(bytes).trim();
  }

  /** The NUL-terminated UTF-8 string at the start of {@code bytes}, whitespace kept. */
  static String decodeExactly(ByteBuffer bytes) {
    int end = 0;
    while (end < bytes.limit() && bytes.get(end) != 0) {
      end++;
    }
    byte[] text = new byte[end];
    bytes.get(0, text);
    return new String(text, StandardCharsets.UTF_8);
  }
}
