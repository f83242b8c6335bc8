package dev.podium.query.data;

/** A device from proj_device, labelled from the alias table when it knows the id. */
public record DeviceRow(String deviceId, String vendor, String label) {}
