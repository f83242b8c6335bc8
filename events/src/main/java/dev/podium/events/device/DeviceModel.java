package dev.podium.events.device;

/**
 * A canonical accelerator model. {@code variantSpecified} is false for entries such as {@code nvidia-h100} that stand
 * for sources which do not say whether they mean the SXM or the PCIe card.
 */
public record DeviceModel(String id, String vendor, String label, boolean variantSpecified) {}
