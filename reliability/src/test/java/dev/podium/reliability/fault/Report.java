package dev.podium.reliability.fault;

import dev.podium.reliability.hostile.HostileCase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The suite's tables in Markdown, as docs/RELIABILITY.md quotes them. */
public final class Report {

    private Report() {}

    public static String render(
            String tier,
            int eventsPerCase,
            List<CaseResult> cases,
            Collection<HostileCase.KindResult> kinds,
            Map<String, String> volumeFigures,
            double totalSeconds) {
        StringBuilder sb = new StringBuilder();
        sb.append("Tier `")
                .append(tier)
                .append("`: ")
                .append(eventsPerCase)
                .append(" events per case, run ")
                .append(Instant.now().truncatedTo(ChronoUnit.SECONDS))
                .append(", ")
                .append(String.format("%.0f", totalSeconds))
                .append(" s in all.\n\n");
        sb.append(
                "| case | fault injected | records on Kafka | expected accepted | accepted | expected rejected | rejected"
                        + " | lost | duplicated | on DLQ | seconds | exact |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (CaseResult c : cases) {
            sb.append(String.format(
                    "| %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %.1f | %s |%n",
                    c.name(),
                    c.fault(),
                    c.records(),
                    c.expectedAccepted(),
                    c.accepted(),
                    c.expectedRejected(),
                    c.rejected(),
                    c.lost(),
                    c.duplicated(),
                    c.dlq(),
                    c.seconds(),
                    c.exact() ? "yes" : "**NO**"));
        }
        for (CaseResult c : cases) {
            c.problems()
                    .forEach(
                            p -> sb.append("\n- ").append(c.name()).append(": ").append(p));
        }
        if (!volumeFigures.isEmpty()) {
            sb.append("\n\n| hostile-volume case | figures |\n|---|---|\n");
            volumeFigures.forEach((name, figures) -> sb.append(String.format("| %s | %s |%n", name, figures)));
        }
        if (!kinds.isEmpty()) {
            sb.append("\n\n| group | kind of bad record | records | stored | rejected | lost | wrong reason | on DLQ |"
                    + " reason ingest gave (first) |\n");
            sb.append("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
            for (HostileCase.KindResult k : kinds) {
                sb.append(String.format(
                        "| %s | %s | %d | %d | %d | %d | %d | %d | %s |%n",
                        cell(k.group()),
                        cell(k.kind()),
                        k.records(),
                        k.stored(),
                        k.rejected(),
                        k.lost(),
                        k.wrongReason(),
                        k.dlq(),
                        cell(k.reason().length() > 110 ? k.reason().substring(0, 110) + "…" : k.reason())));
            }
        }
        return sb.toString();
    }

    /** Escapes what would break a table cell or render as markup. */
    static String cell(String s) {
        return "`" + s.replace("|", "\\|").replace("`", "'").replace("\n", " ") + "`";
    }

    public static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
