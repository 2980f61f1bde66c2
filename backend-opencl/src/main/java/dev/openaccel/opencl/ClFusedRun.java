package dev.openaccel.opencl;

import static org.lwjgl.opencl.CL10.clReleaseEvent;
import static org.lwjgl.opencl.KHRCommandBuffer.nclEnqueueCommandBufferKHR;

import dev.openaccel.runtime.spi.DeviceWork;
import java.util.List;
import java.util.stream.Collectors;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;

/**
 * A lane's run of device kernels and device-to-device copies in a graph, fused by {@link
 * ClCommandBuffers}: a template whose {@link #replica} enqueues the run's command buffer ({@link
 * ClRecording}) with one {@code clEnqueueCommandBufferKHR} instead of one enqueue per command. A
 * replica holds what the run's launches and copies would hold, a use of every buffer they name
 * (replicas of the captured steps), from the replay's launch until it is enqueued. Immutable;
 * thread-safe.
 */
final class ClFusedRun implements DeviceWork {
  private final List<ClWork> steps; // templates
  private final ClRecording recording;
  private final String names;

  ClFusedRun(List<ClWork> steps, ClRecording recording) {
    this.steps = List.copyOf(steps);
    this.recording = recording;
    this.names = steps.stream().map(ClWork::name).collect(Collectors.joining(", "));
  }

  /**
   * One replay of the run.
   *
   * @throws IllegalStateException if a buffer's memory went back to the device
   */
  @Override
  public Replay replica() {
    ClWork[] replicas = new ClWork[steps.size()];
    int made = 0;
    try {
      for (; made < replicas.length; made++) {
        replicas[made] = (ClWork) steps.get(made).replica();
      }
    } catch (RuntimeException e) {
      for (int i = 0; i < made; i++) {
        replicas[i].discard();
      }
      throw e;
    }
    return new Replay(this, replicas);
  }

  @Override
  public String toString() {
    return "command buffer of " + names;
  }

  /**
   * The command of one replay: the command buffer enqueued on the stream's queue, with an event of
   * its own when the queue asks for none (PoCL 3.1 dereferences the event pointer of every command
   * buffer enqueue), released once the command has ended.
   *
   * <p>Owns: that event, written by the enqueuing actor and released by the thread that ends the
   * command (after it, through the queue's pending state).
   */
  static final class Replay implements ClWork {
    private final ClFusedRun run; // keeps the run reachable, and so its recording unreleased
    private final ClWork[] steps; // replicas: they hold the buffers' uses
    private long event;

    private Replay(ClFusedRun run, ClWork[] steps) {
      this.run = run;
      this.steps = steps;
    }

    @Override
    public int enqueue(long queue, long eventAddress) {
      long buffer = run.recording.buffer(queue);
      try (MemoryStack stack = MemoryStack.stackPush()) {
        long slot = eventAddress != 0 ? eventAddress : stack.nmalloc(8, 8);
        int rc =
            nclEnqueueCommandBufferKHR(
                1, MemoryUtil.memAddress(stack.pointers(queue)), buffer, 0, 0L, slot);
        if (rc == 0 && eventAddress == 0) {
          event = MemoryUtil.memGetAddress(slot);
          run.recording.counted(1);
        }
        return rc;
      }
    }

    @Override
    public String name() {
      return run.toString();
    }

    @Override
    public void enqueued() {
      for (ClWork step : steps) {
        step.enqueued();
      }
    }

    @Override
    public void ended(boolean completed) {
      for (ClWork step : steps) {
        step.ended(completed);
      }
      if (event != 0) {
        clReleaseEvent(event);
        run.recording.counted(-1);
        event = 0;
      }
    }

    @Override
    public String toString() {
      return "clEnqueueCommandBufferKHR(" + run.names + ")";
    }
  }
}
