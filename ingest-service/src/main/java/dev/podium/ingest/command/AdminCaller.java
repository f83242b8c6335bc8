package dev.podium.ingest.command;

import jakarta.enterprise.context.RequestScoped;

/** The name of the admin token that authenticated the current request; the actor of what it does. */
@RequestScoped
public class AdminCaller {

    private String tokenName;

    public String tokenName() {
        if (tokenName == null) {
            throw new IllegalStateException("no admin token on this request");
        }
        return tokenName;
    }

    /** The writer recorded on command-side events. */
    public String writer() {
        return "command:" + tokenName();
    }

    void authenticated(String name) {
        this.tokenName = name;
    }
}
