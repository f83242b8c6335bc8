package dev.podium.query.serving;

import java.util.ArrayList;
import java.util.List;

/**
 * The points no other point beats on both axes at once: the operating points worth choosing between, since from any
 * other point one of these gives at least as much of both. Each axis says whether higher is better.
 */
final class ParetoFront {

    private ParetoFront() {}

    /** Indexes of the points on the front, in the order given. */
    static List<Integer> of(List<double[]> points, boolean xHigherIsBetter, boolean yHigherIsBetter) {
        List<Integer> front = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            boolean dominated = false;
            for (int j = 0; j < points.size() && !dominated; j++) {
                dominated = j != i && dominates(points.get(j), points.get(i), xHigherIsBetter, yHigherIsBetter);
            }
            if (!dominated) {
                front.add(i);
            }
        }
        return front;
    }

    private static boolean dominates(double[] a, double[] b, boolean xHigher, boolean yHigher) {
        int x = better(a[0], b[0], xHigher);
        int y = better(a[1], b[1], yHigher);
        return x >= 0 && y >= 0 && (x > 0 || y > 0);
    }

    private static int better(double a, double b, boolean higher) {
        return higher ? Double.compare(a, b) : Double.compare(b, a);
    }
}
