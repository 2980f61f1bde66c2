package dev.openaccel.cluster.sample;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * What one member holds once the training ended: the settings it trained with, every member's final
 * weights (gathered from all of them after the last step, in rank order), the mean loss of each
 * step, and how long the steps took on this member.
 *
 * @param settings what the driver broadcast
 * @param members the member count
 * @param rank this member's rank
 * @param gathered every member's weights, float32, rank after rank
 * @param losses each step's loss averaged over the members, float32
 * @param nanos from the first step enqueued to the last update done, on this member
 */
public record TrainingResult(
    TrainingSettings settings, int members, int rank, byte[] gathered, byte[] losses, long nanos) {

  /** Copies the arrays. */
  public TrainingResult {
    gathered = gathered.clone();
    losses = losses.clone();
  }

  /** This member's final weights, as bytes (float32 in {@link ByteBuffer}'s order). */
  public byte[] weights() {
    return weightsOf(rank);
  }

  /** Member {@code member}'s final weights, as bytes. */
  public byte[] weightsOf(int member) {
    int size = gathered.length / members;
    return Arrays.copyOfRange(gathered, member * size, (member + 1) * size);
  }

  /** The first rank whose weights differ in any bit from this member's, or -1 if none does. */
  public int firstDisagreeing() {
    for (int member = 0; member < members; member++) {
      if (!Arrays.equals(weightsOf(member), weights())) {
        return member;
      }
    }
    return -1;
  }

  /** The loss of step {@code step}. */
  public float loss(int step) {
    return ByteBuffer.wrap(losses).getFloat(4 * step);
  }

  /** Every member's weights, as bytes, rank after rank. */
  @Override
  public byte[] gathered() {
    return gathered.clone();
  }

  /** The losses, as bytes. */
  @Override
  public byte[] losses() {
    return losses.clone();
  }

  /** The CRC32 of this member's final weights' bytes, as 8 hex digits. */
  public String checksum() {
    return checksum(weights());
  }

  /** The CRC32 of {@code bytes}, as 8 hex digits. */
  static String checksum(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return String.format("%08x", crc.getValue());
  }
}
