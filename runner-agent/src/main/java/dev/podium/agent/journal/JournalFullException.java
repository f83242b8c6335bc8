package dev.podium.agent.journal;

/** The journal reached its bound with entries Kafka has not acknowledged; nothing more is accepted until some are. */
public class JournalFullException extends RuntimeException {
    public JournalFullException(String message) {
        super(message);
    }
}
