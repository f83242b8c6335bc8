package dev.podium.ingest.budget;

import dev.podium.ingest.config.IngestConfig;
import dev.podium.ingest.verify.Verdict;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * What one run and one agent may make ingest store (docs/SECURITY.md, "Bounded work"): before a batch is appended, the
 * verified records past an agent's quota of new catalogue entries, those of runs whose start is held, and those past a
 * run's budget are turned into held refusals, kept whole and redrivable once the bound is raised.
 */
@ApplicationScoped
public class Budgets {

    private final CatalogQuota quota;
    private final HeldRuns heldRuns = new HeldRuns();
    private final RunBudget runBudget;

    public Budgets(IngestConfig config) {
        this.quota = new CatalogQuota(config.budget());
        this.runBudget = new RunBudget(config.budget());
    }

    /** Replaces, in {@code verdicts}, each verified record over a bound by its held refusal. */
    public void hold(Connection c, Verdict[] verdicts) throws SQLException {
        heldRuns.hold(c, verdicts, quota.hold(c, verdicts));
        runBudget.hold(c, verdicts);
    }
}
