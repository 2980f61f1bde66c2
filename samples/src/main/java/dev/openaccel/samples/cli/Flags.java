package dev.openaccel.samples.cli;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Column;
import picocli.CommandLine.Help.Column.Overflow;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The flags a sample accepts, its usage text, and their parser, on picocli: flags are {@code --name
 * value} or {@code --name=value}; {@code --help} (or {@code -h}) asks for the usage. Picocli
 * parses, converts and renders the help; this class declares the flags, states each mistake in one
 * line that names the flag and the value, and lays the help out as the samples print it. Immutable:
 * each {@code integer}/{@code text} call returns a new instance.
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
    CommandSpec spec = spec();
    ParseResult result;
    try {
      result = new CommandLine(spec).parseArgs(args);
    } catch (ParameterException e) {
      throw new UsageException(oneLine(e));
    }
    Map<String, String> values = new HashMap<>();
    for (Option option : options.values()) {
      values.put(option.name(), String.valueOf(spec.findOption(option.name()).<Object>getValue()));
    }
    return new Values(result.isUsageHelpRequested(), values);
  }

  /** The model picocli parses with and renders help from. */
  private CommandSpec spec() {
    CommandSpec spec = CommandSpec.create().name(command);
    spec.usageMessage().description(summary).sortOptions(false);
    for (Option o : options.values()) {
      OptionSpec.Builder flag =
          OptionSpec.builder(o.name())
              .paramLabel(o.metavar())
              .defaultValue(o.defaultValue())
              .description(o.help() + " (default ${DEFAULT-VALUE})");
      if (o.number()) {
        flag.type(Integer.class).converters(value -> positive(o.name(), value));
      } else {
        flag.type(String.class);
      }
      spec.addOption(flag.build());
    }
    spec.addOption(
        OptionSpec.builder("--help", "-h").usageHelp(true).description("show this help").build());
    return spec;
  }

  /** Picocli's verdict as the samples state it: the flag, and the value it got. */
  private static String oneLine(ParameterException e) {
    if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
      String arg = unmatched.getUnmatched().get(0);
      return arg.startsWith("-")
          ? "unknown flag '" + arg.split("=", 2)[0] + "'"
          : "unexpected argument '" + arg + "'";
    }
    if (e instanceof CommandLine.MissingParameterException missing
        && missing.getMissing().get(0) instanceof OptionSpec option) {
      return option.longestName() + " needs a value (" + option.paramLabel() + ")";
    }
    if (e.getCause() instanceof UsageException conversion) {
      return conversion.getMessage();
    }
    return e.getMessage();
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

  /**
   * The usage text picocli renders from the flags: a synopsis line, the summary, then one line per
   * flag with its default.
   */
  public String usage() {
    CommandLine line = new CommandLine(spec());
    Help help = line.getHelp();
    StringBuilder synopsis = new StringBuilder("usage: " + command);
    for (Option o : options.values()) {
      synopsis.append(" [").append(o.name()).append(' ').append(o.metavar()).append(']');
    }
    List<OptionSpec> flags = line.getCommandSpec().options();
    int width = flags.stream().mapToInt(o -> label(o).length()).max().orElse(0);
    Help.TextTable table =
        Help.TextTable.forColumns(
            help.colorScheme(),
            new Column(2 + width + 2, 2, Overflow.SPAN),
            new Column(line.getUsageHelpWidth() - width - 4, 0, Overflow.WRAP));
    for (OptionSpec flag : flags) {
      table.addRowValues(label(flag), String.join(" ", flag.description()));
    }
    String rows = table.toString().stripTrailing().replaceAll(" +\n", "\n");
    return synopsis + "\n  " + summary + "\n" + rows;
  }

  /** A flag as the help lists it: {@code --size N}, or {@code --help}. */
  private static String label(OptionSpec flag) {
    return flag.longestName() + (flag.arity().max() > 0 ? " " + flag.paramLabel() : "");
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
