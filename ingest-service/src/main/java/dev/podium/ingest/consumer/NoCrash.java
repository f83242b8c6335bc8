package dev.podium.ingest.consumer;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;

/** Production: no crash is ever simulated. */
@DefaultBean
@ApplicationScoped
public class NoCrash implements CrashPoint {

    @Override
    public void reached(Stage stage) {
        // nothing to simulate outside tests
    }
}
