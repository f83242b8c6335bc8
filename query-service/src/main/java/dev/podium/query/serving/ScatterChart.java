package dev.podium.query.serving;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A scatter chart laid out for server-side SVG: every coordinate is computed here and the template writes only numbers
 * and escaped labels, as {@code chart.Chart} does for line charts.
 */
public record ScatterChart(
        int width,
        int height,
        int left,
        int top,
        int plotWidth,
        int plotHeight,
        List<Series> series,
        String frontPoints,
        List<Tick> xTicks,
        List<Tick> yTicks) {

    static final int WIDTH = 760;
    static final int HEIGHT = 320;
    static final int LEFT = 70;
    static final int TOP = 16;
    static final int PLOT_WIDTH = 500;
    static final int PLOT_HEIGHT = 250;

    /** A device's curve: its polyline and its markers. */
    public record Series(String label, String cssClass, String points, List<Marker> markers, int legendY) {}

    /** A point's marker, its interval as a vertical bar (bar0 == bar1 when there is none) and its tooltip. */
    public record Marker(double cx, double cy, double bar0, double bar1, boolean front, String title) {}

    public record Tick(double at, String label) {}

    public int bottom() {
        return top + plotHeight;
    }

    public int right() {
        return left + plotWidth;
    }

    public boolean empty() {
        return series.isEmpty();
    }

    static ScatterChart of(List<ServingView.Curve> curves) {
        double xMax = 0;
        double yMax = 0;
        for (ServingView.Curve c : curves) {
            for (ServingView.Point p : c.points()) {
                xMax = Math.max(xMax, p.x());
                yMax = Math.max(yMax, p.yHigh() != null ? p.yHigh() : p.y());
            }
        }
        double xTop = niceCeil(xMax);
        double yTop = niceCeil(yMax);
        List<Series> series = new ArrayList<>();
        List<double[]> front = new ArrayList<>();
        int i = 0;
        for (ServingView.Curve c : curves) {
            List<Marker> markers = new ArrayList<>();
            StringBuilder line = new StringBuilder();
            for (ServingView.Point p : c.points()) {
                double cx = x(p.x(), xTop);
                double cy = y(p.y(), yTop);
                markers.add(new Marker(
                        cx,
                        cy,
                        p.yLow() == null ? cy : y(p.yLow(), yTop),
                        p.yHigh() == null ? cy : y(p.yHigh(), yTop),
                        p.onFront(),
                        c.deviceLabel() + " at " + p.paramValue()));
                line.append(line.length() == 0 ? "" : " ").append(coordinate(cx, cy));
                if (p.onFront()) {
                    front.add(new double[] {cx, cy});
                }
            }
            series.add(new Series(c.deviceLabel(), "series-" + (i % 6), line.toString(), markers, TOP + 12 + 16 * i));
            i++;
        }
        front.sort((a, b) -> Double.compare(a[0], b[0]));
        StringBuilder frontLine = new StringBuilder();
        front.forEach(p -> frontLine.append(frontLine.length() == 0 ? "" : " ").append(coordinate(p[0], p[1])));
        List<Tick> xTicks = new ArrayList<>();
        List<Tick> yTicks = new ArrayList<>();
        for (int k = 0; k <= 4; k++) {
            xTicks.add(new Tick(LEFT + k * PLOT_WIDTH / 4.0, number(xTop * k / 4)));
            yTicks.add(new Tick(TOP + PLOT_HEIGHT - k * PLOT_HEIGHT / 4.0, number(yTop * k / 4)));
        }
        return new ScatterChart(
                WIDTH, HEIGHT, LEFT, TOP, PLOT_WIDTH, PLOT_HEIGHT, series, frontLine.toString(), xTicks, yTicks);
    }

    private static double x(double v, double top) {
        return round(LEFT + Math.max(0, v) / top * PLOT_WIDTH);
    }

    private static double y(double v, double top) {
        return round(TOP + PLOT_HEIGHT - Math.min(Math.max(0, v), top) / top * PLOT_HEIGHT);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static String coordinate(double x, double y) {
        return String.format(Locale.ROOT, "%.1f,%.1f", x, y);
    }

    static double niceCeil(double v) {
        if (!(v > 0) || !Double.isFinite(v)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
