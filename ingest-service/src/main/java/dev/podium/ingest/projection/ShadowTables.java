package dev.podium.ingest.projection;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;

/**
 * The schema work of a rebuild: empty copies of the read-model tables in {@value #SHADOW} (same columns, defaults,
 * checks, constraint and index names, foreign keys among them, grants and comments), and the swap that moves the live
 * tables to {@value #RETIRED} and the copies into {@code public}, then repoints every view that read the live tables.
 * Views bind to table OIDs, so without the repointing {@code analytics.*} would go on reading the retired tables;
 * {@code CREATE OR REPLACE VIEW} keeps each view's OID, grants and comments. Read-model tables must not be the target
 * of a foreign key from a table outside the list, nor be read by a materialized view (the retired tables are then not
 * dropped, and the log says so).
 */
final class ShadowTables {

    static final String SHADOW = "podium_shadow";
    static final String RETIRED = "podium_retired";
    private static final Logger LOG = Logger.getLogger(ShadowTables.class);

    private ShadowTables() {}

    /** A constraint of a live table, by name and definition; foreign keys are added once every copy exists. */
    private record Constraint(String name, String definition, boolean foreignKey) {}

    /** A privilege on a live table, granted to a role other than its owner ({@code PUBLIC} or a quoted role name). */
    private record Grant(String grantee, String privilege) {}

    /** A view that reads a live table: its qualified, quoted name, its query and its options ({@code ""} for none). */
    private record View(String name, String definition, String options) {}

    /** A fresh, empty copy of every table in {@code tables} under {@value #SHADOW}. */
    static void create(Connection c, List<String> tables) throws SQLException {
        // Left over by a rebuild that failed (shadow) or whose retired tables something still read (retired).
        exec(c, "DROP SCHEMA IF EXISTS " + SHADOW + " CASCADE");
        exec(c, "DROP SCHEMA IF EXISTS " + RETIRED + " CASCADE");
        exec(c, "CREATE SCHEMA " + SHADOW);
        List<String> foreignKeys = new ArrayList<>();
        for (String t : tables) {
            exec(c, "CREATE TABLE " + SHADOW + "." + t + " (LIKE public." + t + " INCLUDING ALL EXCLUDING INDEXES)");
            foreignKeys.addAll(copyConstraints(c, t));
            copyIndexes(c, t);
            copyGrants(c, t);
            copyComment(c, t);
        }
        // Foreign keys name their referenced table as the live schema resolves it; with the shadow schema first on the
        // path, they bind to the copies.
        useShadow(c);
        for (String fk : foreignKeys) {
            exec(c, fk);
        }
        useLive(c);
    }

    /** Adds the table's primary, unique and exclusion constraints to its copy; its foreign keys, to be added later. */
    private static List<String> copyConstraints(Connection c, String t) throws SQLException {
        List<String> foreignKeys = new ArrayList<>();
        for (Constraint con : rows(
                c,
                "SELECT conname, pg_get_constraintdef(oid), contype = 'f' FROM pg_constraint "
                        + "WHERE conrelid = ?::regclass AND contype IN ('p', 'u', 'x', 'f') ORDER BY contype DESC, conname",
                "public." + t,
                rs -> new Constraint(rs.getString(1), rs.getString(2), rs.getBoolean(3)))) {
            String add =
                    "ALTER TABLE " + SHADOW + "." + t + " ADD CONSTRAINT " + quote(con.name()) + " " + con.definition();
            if (con.foreignKey()) {
                foreignKeys.add(add);
            } else {
                exec(c, add);
            }
        }
        return foreignKeys;
    }

    /** The indexes that back no constraint (those came with the constraints). */
    private static void copyIndexes(Connection c, String t) throws SQLException {
        for (String index : rows(
                c,
                "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i WHERE i.indrelid = ?::regclass "
                        + "AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid AND k.conrelid = i.indrelid)",
                "public." + t,
                rs -> rs.getString(1))) {
            exec(c, onShadow(index, t));
        }
    }

    private static void copyGrants(Connection c, String t) throws SQLException {
        for (Grant grant : rows(
                c,
                "SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(r.rolname) END, "
                        + "a.privilege_type FROM pg_class k CROSS JOIN LATERAL aclexplode(k.relacl) a "
                        + "LEFT JOIN pg_roles r ON r.oid = a.grantee WHERE k.oid = ?::regclass AND a.grantee <> k.relowner",
                "public." + t,
                rs -> new Grant(rs.getString(1), rs.getString(2)))) {
            exec(c, "GRANT " + grant.privilege() + " ON " + SHADOW + "." + t + " TO " + grant.grantee());
        }
    }

    private static void copyComment(Connection c, String t) throws SQLException {
        for (String comment :
                rows(c, "SELECT obj_description(?::regclass, 'pg_class')", "public." + t, rs -> rs.getString(1))) {
            if (comment != null) {
                try (PreparedStatement ps =
                        c.prepareStatement("SELECT format('COMMENT ON TABLE %s.%s IS %L', ?, ?, ?)")) {
                    ps.setString(1, SHADOW);
                    ps.setString(2, t);
                    ps.setString(3, comment);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        exec(c, rs.getString(1));
                    }
                }
            }
        }
    }

    private static final Pattern ON_TABLE = Pattern.compile(" ON (ONLY )?(public\\.)?\"?([a-z0-9_]+)\"? USING ");

    /** An index definition of a live table, made to create the same index (same name) on its copy. */
    static String onShadow(String indexDef, String table) {
        Matcher m = ON_TABLE.matcher(indexDef);
        if (!m.find() || !m.group(3).equals(table)) {
            throw new IllegalStateException("unexpected index definition: " + indexDef);
        }
        return indexDef.substring(0, m.start()) + " ON " + SHADOW + "." + table + " USING "
                + indexDef.substring(m.end());
    }

    /** For the rest of the transaction, unqualified names resolve to the copies first (the event store and others to public). */
    static void useShadow(Connection c) throws SQLException {
        exec(c, "SET LOCAL search_path = " + SHADOW + ", public");
    }

    private static void useLive(Connection c) throws SQLException {
        exec(c, "SET LOCAL search_path TO DEFAULT");
    }

    /** Planner statistics for the copies, so the first queries after the swap are planned as well as before it. */
    static void analyze(Connection c, List<String> tables) throws SQLException {
        for (String t : tables) {
            exec(c, "ANALYZE " + SHADOW + "." + t);
        }
    }

    /** Moves the live tables out and the copies in, and repoints the views over them; in the caller's transaction. */
    static void swap(Connection c, List<String> tables) throws SQLException {
        useLive(c);
        exec(c, "SET LOCAL lock_timeout = '10s'");
        List<View> views = new ArrayList<>();
        for (String t : tables) {
            for (View v :
                    rows(c, """
                    SELECT DISTINCT quote_ident(n.nspname) || '.' || quote_ident(v.relname), pg_get_viewdef(v.oid),
                           coalesce(array_to_string(v.reloptions, ', '), '')
                    FROM pg_depend d JOIN pg_rewrite w ON w.oid = d.objid JOIN pg_class v ON v.oid = w.ev_class
                    JOIN pg_namespace n ON n.oid = v.relnamespace
                    WHERE d.classid = 'pg_rewrite'::regclass AND d.refobjid = ?::regclass AND v.oid <> d.refobjid
                      AND v.relkind = 'v'""", "public." + t, rs -> new View(rs.getString(1), rs.getString(2), rs.getString(3)))) {
                if (views.stream().noneMatch(x -> x.name().equals(v.name()))) {
                    views.add(v);
                }
            }
        }
        exec(c, "CREATE SCHEMA " + RETIRED);
        for (String t : tables) {
            exec(c, "ALTER TABLE public." + t + " SET SCHEMA " + RETIRED);
            exec(c, "ALTER TABLE " + SHADOW + "." + t + " SET SCHEMA public");
        }
        for (View v : views) {
            exec(
                    c,
                    "CREATE OR REPLACE VIEW " + v.name() + (v.options().isEmpty() ? "" : " WITH (" + v.options() + ")")
                            + " AS " + v.definition());
        }
    }

    /** Drops the retired tables and the empty shadow schema; what still depends on a retired table keeps it, logged. */
    static void dropRetired(Connection c) throws SQLException {
        exec(c, "DROP SCHEMA IF EXISTS " + SHADOW);
        List<String> retired = rows(
                c,
                "SELECT quote_ident(relname) FROM pg_class WHERE relnamespace = "
                        + "(SELECT oid FROM pg_namespace WHERE nspname = ?) AND relkind IN ('r', 'p')",
                RETIRED,
                rs -> rs.getString(1));
        if (retired.isEmpty()) {
            exec(c, "DROP SCHEMA IF EXISTS " + RETIRED);
            return;
        }
        List<String> names = retired.stream().map(r -> RETIRED + "." + r).toList();
        try (Statement s = c.createStatement()) {
            s.execute("SAVEPOINT retire");
            s.execute("DROP TABLE " + String.join(", ", names));
            s.execute("DROP SCHEMA " + RETIRED);
        } catch (SQLException e) {
            exec(c, "ROLLBACK TO SAVEPOINT retire");
            LOG.warnf("the retired read-model tables stay in schema %s: %s", RETIRED, e.getMessage());
        }
    }

    /** Reads one value of a catalog query's row. */
    @FunctionalInterface
    private interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private static <T> List<T> rows(Connection c, String sql, String param, Reader<T> reader) throws SQLException {
        List<T> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, param);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(reader.read(rs));
                }
            }
        }
        return out;
    }

    private static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
