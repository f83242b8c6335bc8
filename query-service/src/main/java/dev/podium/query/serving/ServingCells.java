package dev.podium.query.serving;

import dev.podium.query.page.Formats;
import io.quarkus.qute.TemplateExtension;

/** Display values of the serving view's points, as properties ({@code {p.xText}}). */
@TemplateExtension
public final class ServingCells {

    private ServingCells() {}

    public static String xText(ServingView.Point p) {
        return Formats.num(p.x());
    }

    public static String yText(ServingView.Point p) {
        return Formats.num(p.y());
    }

    /** The 95% interval of y per accelerator, or a dash where a single run gives none. */
    public static String intervalText(ServingView.Point p) {
        return p.yLow() == null ? "—" : Formats.num(p.yLow()) + " – " + Formats.num(p.yHigh());
    }
}
