package dev.podium.ingest.testing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Every read-model row a run shows up in, as text: its run row, results, series and its key's leaderboard rows. */
public final class RunRows {

    private RunRows() {}

    public static Map<String, List<String>> of(Db db, UUID run) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        out.put("proj_run", text(db, "SELECT t::text FROM proj_run t WHERE run_id = ?", run));
        out.put("proj_result", text(db, "SELECT t::text FROM proj_result t WHERE run_id = ? ORDER BY metric", run));
        out.put(
                "proj_run_series_head",
                text(db, "SELECT t::text FROM proj_run_series_head t WHERE run_id = ? ORDER BY t::text", run));
        out.put(
                "proj_run_series_point",
                text(db, "SELECT t::text FROM proj_run_series_point t WHERE run_id = ? ORDER BY t::text", run));
        out.put("proj_leaderboard_row", text(db, """
                SELECT t::text FROM proj_leaderboard_row t
                WHERE key_id = (SELECT key_id FROM proj_run WHERE run_id = ?) ORDER BY t::text""", run));
        return out;
    }

    private static List<String> text(Db db, String sql, UUID run) {
        return db.rows(sql, run).stream().map(r -> (String) r.get(0)).toList();
    }
}
