package dev.podium.query.chart;

import java.util.List;

/**
 * A line chart laid out for server-side SVG: coordinates are computed here, the template only writes numbers and escaped
 * labels into SVG attributes and text nodes, so no string from an agent can become markup.
 */
public record Chart(
        String title,
        String unit,
        int width,
        int height,
        int left,
        int top,
        int plotWidth,
        int plotHeight,
        List<Line> lines,
        List<Tick> xTicks,
        List<Tick> yTicks) {

    /** One polyline: its label, its SVG points ("x,y x,y ...") and a CSS class choosing its colour. */
    public record Line(String label, String points, String cssClass, int legendY) {}

    /** An axis tick at {@code at} pixels, with its label. */
    public record Tick(double at, String label) {}

    public boolean empty() {
        return lines.isEmpty();
    }

    public int bottom() {
        return top + plotHeight;
    }

    public int right() {
        return left + plotWidth;
    }
}
