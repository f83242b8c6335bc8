package dev.podium.query.api;

import java.util.List;
import java.util.stream.Collectors;

/** RFC 4180 CSV with formula injection neutralised: a cell that a spreadsheet would run as a formula gets a leading quote. */
public final class Csv {

    private final StringBuilder sb = new StringBuilder();

    public void row(List<?> cells) {
        sb.append(cells.stream().map(Csv::cell).collect(Collectors.joining(",")))
                .append("\r\n");
    }

    static String cell(Object o) {
        if (o == null) {
            return "";
        }
        String s = o.toString();
        if (!(o instanceof Number) && !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0) {
            s = "'" + s;
        }
        if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
            s = "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }

    @Override
    public String toString() {
        return sb.toString();
    }
}
