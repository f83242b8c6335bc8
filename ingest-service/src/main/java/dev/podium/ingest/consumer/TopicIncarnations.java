package dev.podium.ingest.consumer;

import dev.podium.ingest.config.KafkaAdmin;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Kafka's id of each topic ingest reads. Offsets start again at 0 in a recreated topic or on a new broker, so a
 * refusal is identified by the topic's id with its partition and offset. Asked of the broker for every batch that
 * refuses a record, not cached: a consumer is not told when a topic it reads is recreated under the same name, and
 * refusals are rare enough for one round trip each time.
 */
@ApplicationScoped
public class TopicIncarnations {

    private final KafkaAdmin admin;

    public TopicIncarnations(KafkaAdmin admin) {
        this.admin = admin;
    }

    /** The id of {@code topic} as the broker knows it now. */
    public String of(String topic) throws InterruptedException, ExecutionException, TimeoutException {
        return admin.get()
                .describeTopics(List.of(topic))
                .allTopicNames()
                .get(30, TimeUnit.SECONDS)
                .get(topic)
                .topicId()
                .toString();
    }
}
