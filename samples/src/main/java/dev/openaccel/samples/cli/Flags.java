package dev.openaccel.samples.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The flags a sample accepts, its usage text, and their parser. Flags are {@code --name value} or
 * {@code --name=value}; {@code --help} (or {@code -h}) asks for the usage. Immutable: each {@code
 * integer}/{@code text} call returns a new instance.
 */
public final class Flags {

  /** One flag: its name ({@code --size}), its value's placeholder ({@code N}), default and help. */
  public record Option(
      String name, String metavar, String defaultValue, String help, boolean number) {
    public Option {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(metavar, "metavar");
      Objects.requireNonNull(defaultValue, "defaultValue");
      Objects.requireNonNull(help, "help");
      if (!name.startsWith("--")) {
        throw new IllegalArgumentException("a flag name starts with --, got " + name);
      }
    }
  }

  private final String command;
  private final String summary;
  private final Map<String, Option> options;

  private Flags(String command, String summary, Map<String, Option> options) {
    this.command = command;
    this.summary = summary;
    this.options = options;
  }

  /** No flags yet, for the sample {@code command}, described by the one-line {@code summary}. */
  public static Flags of(String command, String summary) {
    return new Flags(command, summary, Map.of());
  }

  /** Adds a flag whose value is a positive integer. */
  public Flags integer(String name, String metavar, int defaultValue, String help) {
    return with(new Option(name, metavar, Integer.toString(defaultValue), help, true));
  }

  /** Adds a flag whose value is any text. */
  public Flags text(String name, String metavar, String defaultValue, String help) {
    return with(new Option(name, metavar, defaultValue, help, false));
  }

  private Flags with(Option option) {
    Map<String, Option> next = new LinkedHashMap<>(options);
    next.put(option.name(), option);
    return new Flags(command, summary, next);
  }

  /** The sample's name, as given to the launcher. */
  public String command() {
    return command;
  }

  /** The one-line description. */
  public String summary() {
    return summary;
  }

  /** The flags, in declaration order. */
  public List<Option> options() {
    return List.copyOf(options.values());
  }

  /**
   * Parses {@code args}.
   *
   * @throws UsageException naming the first unknown flag, missing value, non-numeric or
   *     non-positive number, or stray argument
   */
  public Values parse(String[] args) {
    Map<String, String> values = new HashMap<>();
    options.values().forEach(o -> values.put(o.name(), o.defaultValue()));
    boolean help = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--help") || arg.equals("-h")) {
        help = true;
        continue;
      }
      if (!arg.startsWith("-")) {
        throw new UsageException("unexpected argument '" + arg + "'");
      }
      int eq = arg.indexOf('=');
      String name = eq < 0 ? arg : arg.substring(0, eq);
      Option option = options.get(name);
      if (option == null) {
        throw new UsageException("unknown flag '" + name + "'");
      }
      String value;
      if (eq >= 0) {
        value = arg.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        throw new UsageException(name + " needs a value (" + option.metavar() + ")");
      }
      if (option.number()) {
        positive(name, value);
      }
      values.put(name, value);
    }
    return new Values(help, values);
  }

  private static int positive(String name, String value) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below, with the flag's name
    }
    throw new UsageException(name + " expects a positive integer, got '" + value + "'");
  }

  /** The usage text: a synopsis line, the summary, then one line per flag. */
  public String usage() {
    StringBuilder synopsis = new StringBuilder("usage: " + command);
    List<String[]> rows = new ArrayList<>();
    for (Option o : options.values()) {
      synopsis.append(" [").append(o.name()).append(' ').append(o.metavar()).append(']');
      rows.add(
          new String[] {
            o.name() + " " + o.metavar(), o.help() + " (default " + o.defaultValue() + ")"
          });
    }
    rows.add(new String[] {"--help", "show this help"});
    int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
    StringBuilder text = new StringBuilder(synopsis).append("\n  ").append(summary);
    for (String[] row : rows) {
      text.append(String.format("\n  %-" + width + "s  %s", row[0], row[1]));
    }
    return text.toString();
  }

  /** Parsed flag values; every declared flag has one (its default unless given). */
  public static final class Values {
    private final boolean help;
    private final Map<String, String> values;

    private Values(boolean help, Map<String, String> values) {
      this.help = help;
      this.values = Map.copyOf(values);
    }

    /** Whether {@code --help} was given. */
    public boolean help() {
      return help;
    }

    /** The value of an integer flag. */
    public int integer(String name) {
      return positive(name, text(name));
    }

    /**
     * The value of a flag, as given.
     *
     * @throws IllegalArgumentException if the sample did not declare {@code name}
     */
    public String text(String name) {
      String value = values.get(name);
      if (value == null) {
        throw new IllegalArgumentException("no flag " + name + " was declared");
      }
      return value;
    }
  }
}
