package dev.podium.agent.job;

/** A job spec that cannot run; the message names the field and what is wrong with it. */
public class JobSpecException extends RuntimeException {
    public JobSpecException(String field, String problem) {
        super(field + ": " + problem);
    }
}
