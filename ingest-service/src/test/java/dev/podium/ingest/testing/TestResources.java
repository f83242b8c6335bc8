package dev.podium.ingest.testing;

import io.quarkus.test.common.QuarkusTestResource;

/**
 * The test resources every @QuarkusTest of this module shares (global, so all test classes run against one application,
 * one database and one broker).
 */
@QuarkusTestResource(PostgresResource.class)
@QuarkusTestResource(KafkaResource.class)
@QuarkusTestResource(WebhookReceiver.class)
public final class TestResources {

    private TestResources() {}
}
