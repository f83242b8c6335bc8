package dev.podium.query.data;

/**
 * A device from proj_device, labelled from the alias table when it knows the id; {@code knownDevice} is false for an id
 * the alias table does not know (text an agent chose), which pages mark "unknown device".
 */
public record DeviceRow(String deviceId, String vendor, String label, boolean knownDevice) {}
