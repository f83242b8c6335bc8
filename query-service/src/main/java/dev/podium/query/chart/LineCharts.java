package dev.podium.query.chart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Lays out line charts from (t, value) points. */
public final class LineCharts {

    /** A named series of points, t in seconds. */
    public record Series(String label, List<double[]> points) {}

    private static final int WIDTH = 720;
    private static final int HEIGHT = 260;
    private static final int LEFT = 60;
    private static final int TOP = 16;
    private static final int PLOT_WIDTH = 520;
    private static final int PLOT_HEIGHT = 200;
    /** Points a line draws at most. */
    public static final int MAX_POINTS = 1000;

    private LineCharts() {}

    /** A chart of the series; {@code yMax} fixes the y axis (100 for utilisation) or, when null, fits the data. */
    public static Chart of(String title, String unit, List<Series> series, Double yMax) {
        List<Series> nonEmpty =
                series.stream().filter(s -> !s.points().isEmpty()).toList();
        double tMax = 0;
        double vMax = 0;
        for (Series s : nonEmpty) {
            for (double[] p : s.points()) {
                tMax = Math.max(tMax, p[0]);
                vMax = Math.max(vMax, p[1]);
            }
        }
        double top = yMax != null ? yMax : niceCeil(vMax);
        double right = tMax <= 0 ? 1 : tMax;
        List<Chart.Line> lines = new ArrayList<>();
        int i = 0;
        for (Series s : nonEmpty) {
            List<double[]> pts = downsample(s.points());
            StringBuilder sb = new StringBuilder();
            for (double[] p : pts) {
                double x = LEFT + p[0] / right * PLOT_WIDTH;
                double y = TOP + PLOT_HEIGHT - Math.min(p[1], top) / top * PLOT_HEIGHT;
                point(sb, x, y);
            }
            lines.add(new Chart.Line(s.label(), sb.toString(), "series-" + (i % 6), TOP + 12 + 16 * i));
            i++;
        }
        List<Chart.Tick> xTicks = new ArrayList<>();
        List<Chart.Tick> yTicks = new ArrayList<>();
        for (int k = 0; k <= 4; k++) {
            xTicks.add(new Chart.Tick(LEFT + k * PLOT_WIDTH / 4.0, number(right * k / 4) + " s"));
            yTicks.add(new Chart.Tick(TOP + PLOT_HEIGHT - k * PLOT_HEIGHT / 4.0, number(top * k / 4)));
        }
        return new Chart(title, unit, WIDTH, HEIGHT, LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT, lines, xTicks, yTicks);
    }

    /**
     * A chart over the values of a parameter, evenly spaced and labelled by value: a point's t is the index of its value
     * in {@code xValues}. The y axis starts at 0 and fits the data.
     */
    public static Chart categorical(String title, String unit, List<String> xValues, List<Series> series) {
        List<Series> nonEmpty =
                series.stream().filter(s -> !s.points().isEmpty()).toList();
        double vMax = 0;
        for (Series s : nonEmpty) {
            for (double[] p : s.points()) {
                vMax = Math.max(vMax, p[1]);
            }
        }
        double top = niceCeil(vMax);
        int slots = Math.max(1, xValues.size() - 1);
        List<Chart.Line> lines = new ArrayList<>();
        int i = 0;
        for (Series s : nonEmpty) {
            StringBuilder sb = new StringBuilder();
            for (double[] p : s.points()) {
                double x = LEFT + (xValues.size() == 1 ? PLOT_WIDTH / 2.0 : p[0] / slots * PLOT_WIDTH);
                double y = TOP + PLOT_HEIGHT - Math.min(p[1], top) / top * PLOT_HEIGHT;
                point(sb, x, y);
            }
            lines.add(new Chart.Line(s.label(), sb.toString(), "series-" + (i % 6), TOP + 12 + 16 * i));
            i++;
        }
        List<Chart.Tick> xTicks = new ArrayList<>();
        for (int k = 0; k < xValues.size(); k++) {
            xTicks.add(new Chart.Tick(
                    LEFT + (xValues.size() == 1 ? PLOT_WIDTH / 2.0 : k * (double) PLOT_WIDTH / slots), xValues.get(k)));
        }
        List<Chart.Tick> yTicks = new ArrayList<>();
        for (int k = 0; k <= 4; k++) {
            yTicks.add(new Chart.Tick(TOP + PLOT_HEIGHT - k * PLOT_HEIGHT / 4.0, number2(top * k / 4)));
        }
        int height = Math.max(HEIGHT, TOP + 24 + 16 * nonEmpty.size());
        return new Chart(title, unit, WIDTH + 460, height, LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT, lines, xTicks, yTicks);
    }

    /**
     * Appends "x,y" to a polyline's points, each to one decimal. A page draws up to thousands of points, and
     * {@code String.format} parses its pattern for every one: it was most of a planted run page's time.
     */
    static void point(StringBuilder points, double x, double y) {
        if (points.length() > 0) {
            points.append(' ');
        }
        tenths(points, x);
        points.append(',');
        tenths(points, y);
    }

    /** {@code v} to one decimal, as {@code %.1f} writes a finite coordinate. */
    private static void tenths(StringBuilder out, double v) {
        if (!Double.isFinite(v) || Math.abs(v) >= 1e15) {
            out.append(String.format(Locale.ROOT, "%.1f", v));
            return;
        }
        long t = Math.round(Math.abs(v) * 10);
        if (v < 0 && t != 0) {
            out.append('-');
        }
        out.append(t / 10).append('.').append(t % 10);
    }

    private static String number2(double v) {
        return outsideFixed(v) ? scientific(v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static List<double[]> downsample(List<double[]> points) {
        if (points.size() <= MAX_POINTS) {
            return points;
        }
        List<double[]> out = new ArrayList<>(MAX_POINTS);
        double step = points.size() / (double) MAX_POINTS;
        for (int k = 0; k < MAX_POINTS; k++) {
            out.add(points.get((int) (k * step)));
        }
        return out;
    }

    static double niceCeil(double v) {
        if (v <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * mag >= v) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    private static String number(double v) {
        return outsideFixed(v)
                ? scientific(v)
                : v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** A tick that fixed decimals would write as zero, or in more digits than fit beside the axis (a value of 1e150). */
    private static boolean outsideFixed(double v) {
        double a = Math.abs(v);
        return a != 0 && (a < 0.01 || a >= 1e12);
    }

    private static String scientific(double v) {
        return String.format(Locale.ROOT, "%.2e", v);
    }
}
