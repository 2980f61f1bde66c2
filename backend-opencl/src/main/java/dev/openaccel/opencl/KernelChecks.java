package dev.openaccel.opencl;

import java.util.List;

/**
 * What checked mode added to one kernel ({@link CheckedSource}): behind the user's parameters, a
 * hidden {@code ulong} per {@code __global} pointer parameter (the byte size of the buffer passed
 * for it) and, if there is one, a hidden {@code __global} error buffer ({@link ClBoundsCheck}).
 * Launches set the hidden arguments themselves; {@link DeviceKernel#parameters()} and the argument
 * checks count only the user's. Immutable.
 *
 * @param kernel the kernel's name
 * @param checked the indices of its {@code __global} pointer parameters, in order
 */
record KernelChecks(String kernel, List<Integer> checked) {
  /** The name of the hidden error-buffer parameter. */
  static final String ERRORS = "__oa_err";

  KernelChecks {
    checked = List.copyOf(checked);
  }

  /** The name of the hidden byte-size parameter of parameter {@code index}. */
  static String bytesName(int index) {
    return "__oa_bytes" + index;
  }

  /** How many parameters checked mode added: none for a kernel without {@code __global} ones. */
  int hidden() {
    return checked.isEmpty() ? 0 : checked.size() + 1;
  }

  /**
   * The user's parameters among {@code all} that the compiler reports, after checking that the
   * hidden ones follow them and that every {@code __global} one is checked.
   *
   * @throws IllegalArgumentException if they do not match what the rewriting found (a parameter
   *     list or qualifier written through a macro or typedef)
   */
  List<KernelParameter> userParameters(List<KernelParameter> all) {
    int users = all.size() - hidden();
    boolean matches = users >= 0;
    for (int j = 0; matches && j < checked.size(); j++) {
      matches = all.get(users + j).name().equals(bytesName(checked.get(j)));
    }
    matches = matches && (hidden() == 0 || all.get(all.size() - 1).name().equals(ERRORS));
    if (!matches) {
      throw new IllegalArgumentException(
          "checked mode cannot check kernel "
              + kernel
              + ": the compiler reports parameters "
              + all
              + ", not those its source was seen to declare (a parameter list written by a"
              + " macro?)");
    }
    List<KernelParameter> user = all.subList(0, users);
    for (KernelParameter p : user) {
      if ((p.space() == KernelParameter.Space.GLOBAL) != checked.contains(p.index())) {
        throw new IllegalArgumentException(
            "checked mode cannot check kernel "
                + kernel
                + " argument "
                + p.index()
                + " ("
                + p
                + "): its __global qualifier is not written in the kernel's parameter list (a"
                + " typedef or macro?)");
      }
    }
    return List.copyOf(user);
  }
}
