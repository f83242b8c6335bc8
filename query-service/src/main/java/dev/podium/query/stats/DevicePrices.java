package dev.podium.query.stats;

import dev.podium.query.config.QueryConfig;
import dev.podium.query.data.EnergyRow;
import java.util.List;

/** A device's configured prices: per device-hour on demand and owned (each null where not set), and per kWh. */
public record DevicePrices(Double onDemand, Double owned, double perKwh) {

    public static DevicePrices of(QueryConfig config, String deviceId) {
        return new DevicePrices(
                config.prices().get(deviceId), config.ownedPrices().get(deviceId), config.electricityPerKwh());
    }

    /** Cost per million units under each basis priced here, from an energy cell's runs. */
    public List<UnitCosts.Cost> perMillion(EnergyRow row, boolean including) {
        return UnitCosts.perMillion(row, including, onDemand, owned, perKwh);
    }
}
