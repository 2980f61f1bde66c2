package dev.openaccel.cluster;

/**
 * Marks the bulk-data messages, bound to {@link BulkSerializer} (raw bytes, no Jackson). Internal.
 */
interface BulkMessage {}
