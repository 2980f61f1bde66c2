package dev.openaccel.cluster;

/**
 * Marks messages that cross nodes. {@code reference.conf} binds it to Pekko's {@code jackson-cbor}
 * serializer; Java serialization stays off. User messages that carry {@link RemoteBuffer}s, {@link
 * RemoteDevice}s or {@link dev.openaccel.runtime.EventHandle}s between nodes can implement it too.
 */
public interface ClusterMessage {}
