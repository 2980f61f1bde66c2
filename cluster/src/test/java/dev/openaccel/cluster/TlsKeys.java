package dev.openaccel.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A self-signed key store and a trust store holding its certificate, made with the JDK's {@code
 * keytool} when a test starts; nothing secret is committed.
 */
final class TlsKeys {
  static final String PASSWORD = "openaccel-test";

  final Path keyStore;
  final Path trustStore;

  private TlsKeys(Path keyStore, Path trustStore) {
    this.keyStore = keyStore;
    this.trustStore = trustStore;
  }

  /** Generates both stores (PKCS12, RSA 2048, valid 2 days, for 127.0.0.1) in {@code dir}. */
  static TlsKeys generate(Path dir) throws IOException, InterruptedException {
    Path keyStore = dir.resolve("node-keystore.p12");
    Path certificate = dir.resolve("node.cer");
    Path trustStore = dir.resolve("node-truststore.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "node",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        "CN=127.0.0.1, O=OpenAccel test",
        "-ext",
        "SAN=IP:127.0.0.1",
        "-storetype",
        "PKCS12",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-alias",
        "node",
        "-keystore",
        keyStore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        certificate.toString());
    keytool(
        "-importcert",
        "-noprompt",
        "-alias",
        "node",
        "-file",
        certificate.toString(),
        "-storetype",
        "PKCS12",
        "-keystore",
        trustStore.toString(),
        "-storepass",
        PASSWORD);
    return new TlsKeys(keyStore, trustStore);
  }

  /** Artery over TLS with these stores, mutual authentication on. */
  String arteryConfig() {
    return """
        pekko.remote.artery.transport = tls-tcp
        pekko.remote.artery.ssl.ssl-engine-provider = "org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider"
        pekko.remote.artery.ssl.config-ssl-engine {
          key-store = "%s"
          key-store-password = "%s"
          key-password = "%s"
          trust-store = "%s"
          trust-store-password = "%s"
          protocol = "TLSv1.3"
          enabled-algorithms = ["TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"]
          require-mutual-authentication = on
        }
        """
        .formatted(keyStore, PASSWORD, PASSWORD, trustStore, PASSWORD);
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
    }
  }
}
