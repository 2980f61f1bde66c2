/**
 * OpenAccel on Pekko Cluster: the devices of all nodes as one pool.
 *
 * <pre>
 *  node A                                        node B
 *  ClusterAccelerator                            ClusterAccelerator
 *   |-- Directory  (Receptionist listing) ---.    |-- NodeGateway  (ServiceKey "openaccel-gateway")
 *   |-- NodeLink(B) ==== Jackson CBOR ====>  |    |      |  calls LocalNode: streams, buffers,
 *   |     one ordering point per node pair   |    |      |  events, KernelRegistry
 *   |     watches B's gateway: node gone ->  |    |      '- relay (one-shot EventSignal subscriber)
 *   |     pending waits fail, naming B       |    |            answers Latest when the record completes
 *   '-- RemoteEvent (openEvent of B's handle) -- Latest(handle) --> B
 * </pre>
 *
 * <p>Public: {@link dev.openaccel.cluster.ClusterAccelerator}, {@link
 * dev.openaccel.cluster.RemoteDevice}, {@link dev.openaccel.cluster.RemoteStream}, {@link
 * dev.openaccel.cluster.RemoteBuffer}, {@link dev.openaccel.cluster.KernelRegistry}, {@link
 * dev.openaccel.cluster.RemoteKernel}, {@link dev.openaccel.cluster.ClusterMessage}, and the
 * collectives: {@link dev.openaccel.cluster.Collectives}, {@link
 * dev.openaccel.cluster.ProcessGroup}, {@link dev.openaccel.cluster.Work}, {@link
 * dev.openaccel.cluster.ElementType}, {@link dev.openaccel.cluster.ReduceOp}. Everything else is
 * internal (package-private).
 */
package dev.openaccel.cluster;
