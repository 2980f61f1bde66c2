package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.CL_DEVICE_TYPE_ALL;
import static org.lwjgl.opencl.CL10.CL_PLATFORM_NAME;
import static org.lwjgl.opencl.CL10.clGetDeviceIDs;
import static org.lwjgl.opencl.CL10.clGetPlatformIDs;
import static org.lwjgl.system.MemoryStack.stackPush;

import java.util.ArrayList;
import java.util.List;
import org.lwjgl.PointerBuffer;
import org.lwjgl.opencl.CL;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryStack;

/**
 * Loads the OpenCL library and selects a platform and its devices from {@link OpenClSettings}. No
 * OpenCL at all (no library, no platform, no matching device) is an {@link Unavailable} with the
 * reason, never an exception: the backend then reports 0 devices.
 *
 * <p>The native library is loaded once per JVM (LWJGL keeps it in static state): the first {@code
 * library} setting wins. This class is thread-safe.
 */
final class ClPlatforms {
  private ClPlatforms() {}

  /** The outcome of {@link #probe}. */
  sealed interface Probe {}

  /** The selected platform and devices, in backend index order. */
  record Found(long platform, String platformName, List<ClDevice> devices) implements Probe {
    Found {
      devices = List.copyOf(devices);
    }
  }

  /** Why there is no OpenCL device to use. */
  record Unavailable(String reason) implements Probe {}

  private static final class Library {
    static final String FAILURE = load();

    private static String load() {
      try {
        CL.getFunctionProvider();
        return null;
      } catch (Throwable e) {
        return "the OpenCL library "
            + Configuration.OPENCL_LIBRARY_NAME.get()
            + " could not be loaded ("
            + e
            + "); install an OpenCL ICD loader and platform, e.g. `apt-get install"
            + " ocl-icd-libopencl1 pocl-opencl-icd`";
      }
    }
  }

  /** Loads {@code settings.library()} (the first time) and selects the platform and devices. */
  static synchronized Probe probe(OpenClSettings settings) {
    if (Configuration.OPENCL_LIBRARY_NAME.get() == null) {
      Configuration.OPENCL_LIBRARY_NAME.set(settings.library());
    }
    if (Library.FAILURE != null) {
      return new Unavailable(Library.FAILURE);
    }
    List<Long> platforms = platforms();
    if (platforms.isEmpty()) {
      return new Unavailable(
          "no OpenCL platform is installed (clGetPlatformIDs found none); install one, e.g."
              + " `apt-get install ocl-icd-libopencl1 pocl-opencl-icd`");
    }
    List<String> names =
        platforms.stream().map(p -> ClInfo.platformString(p, CL_PLATFORM_NAME)).toList();
    for (int i = 0; i < platforms.size(); i++) {
      if (!matches(settings.platform(), i, names.get(i))) {
        continue;
      }
      List<ClDevice> all = devices(platforms.get(i)).stream().map(ClDevice::query).toList();
      List<ClDevice> chosen = select(all, settings.devices());
      if (!chosen.isEmpty() || !settings.platform().isEmpty()) {
        return chosen.isEmpty()
            ? new Unavailable(
                "OpenCL platform '"
                    + names.get(i)
                    + "' has no device matching openaccel.opencl.devices = "
                    + settings.devices()
                    + " among "
                    + all.stream().map(ClDevice::name).toList())
            : new Found(platforms.get(i), names.get(i), chosen);
      }
    }
    return new Unavailable(
        "no OpenCL platform matches openaccel.opencl.platform = '"
            + settings.platform()
            + "' with a device among "
            + names);
  }

  /** An empty selector matches all; a number matches that index; other text a part of the name. */
  static boolean matches(String selector, int index, String name) {
    if (selector.isEmpty()) {
      return true;
    }
    if (selector.chars().allMatch(Character::isDigit)) {
      return Integer.parseInt(selector) == index;
    }
    return name.toLowerCase(java.util.Locale.ROOT)
        .contains(selector.toLowerCase(java.util.Locale.ROOT));
  }

  private static List<ClDevice> select(List<ClDevice> all, List<String> selectors) {
    if (selectors.isEmpty()) {
      return all;
    }
    List<ClDevice> chosen = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      for (String selector : selectors) {
        if (matches(selector, i, all.get(i).name())) {
          chosen.add(all.get(i));
          break;
        }
      }
    }
    return chosen;
  }

  private static List<Long> platforms() {
    try (MemoryStack stack = stackPush()) {
      var count = stack.mallocInt(1);
      int rc = clGetPlatformIDs(null, count);
      if (rc == ClErrors.PLATFORM_NOT_FOUND || count.get(0) == 0) {
        return List.of();
      }
      ClErrors.check(rc, "clGetPlatformIDs");
      PointerBuffer ids = stack.mallocPointer(count.get(0));
      ClErrors.check(clGetPlatformIDs(ids, (java.nio.IntBuffer) null), "clGetPlatformIDs");
      List<Long> result = new ArrayList<>();
      for (int i = 0; i < ids.capacity(); i++) {
        result.add(ids.get(i));
      }
      return result;
    }
  }

  private static List<Long> devices(long platform) {
    try (MemoryStack stack = stackPush()) {
      var count = stack.mallocInt(1);
      int rc = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, null, count);
      if (rc == -1 /* CL_DEVICE_NOT_FOUND */) {
        return List.of();
      }
      ClErrors.check(rc, "clGetDeviceIDs");
      PointerBuffer ids = stack.mallocPointer(count.get(0));
      ClErrors.check(
          clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, ids, (java.nio.IntBuffer) null),
          "clGetDeviceIDs");
      List<Long> result = new ArrayList<>();
      for (int i = 0; i < ids.capacity(); i++) {
        result.add(ids.get(i));
      }
      return result;
    }
  }
}
