package dev.podium.query.stats;

/**
 * A device under a comparison key, as a map key: a comparison looks up two per cell, and a record of the frame's strings
 * (whose hashes are kept) costs no string joined and hashed per lookup.
 */
public record DeviceKey(String deviceId, String keyId) {
}
