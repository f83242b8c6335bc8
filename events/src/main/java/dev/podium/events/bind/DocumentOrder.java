package dev.podium.events.bind;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.podium.events.validate.Violation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Violations in the order of the document's schema, so that the same document always gets the same answer and its
 * problems read top to bottom: fields in the order of the record's components (unknown fields first, by name), list
 * elements by index, map entries by key; a value before the fields inside it.
 */
final class DocumentOrder implements Comparator<Violation> {

    static final PropertyNamingStrategies.NamingBase SNAKE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;
    private static final Pattern STEP = Pattern.compile("\\[(\\d+)]|\\.?([^.\\[]+)");

    /** One step of a path: its rank among its siblings, then its name for steps of equal rank. */
    private record Step(int rank, String name) {}

    private final Class<?> root;

    DocumentOrder(Class<?> root) {
        this.root = root;
    }

    @Override
    public int compare(Violation a, Violation b) {
        List<Step> x = steps(a.field());
        List<Step> y = steps(b.field());
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = Comparator.comparingInt(Step::rank)
                    .thenComparing(Step::name)
                    .compare(x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return x.size() != y.size()
                ? Integer.compare(x.size(), y.size())
                : a.reason().compareTo(b.reason());
    }

    /** The steps of a path, each ranked within the type it is a step into; a step the types do not know ranks first. */
    private List<Step> steps(String path) {
        List<Step> out = new ArrayList<>();
        if (path.equals(DocumentShape.ROOT)) {
            return out;
        }
        Type type = root;
        Matcher m = STEP.matcher(path);
        while (m.find()) {
            if (m.group(1) != null) {
                out.add(new Step(Integer.parseInt(m.group(1)), ""));
                type = typeArgument(type, 0);
            } else if (type instanceof Class<?> c && c.isRecord()) {
                RecordComponent[] components = c.getRecordComponents();
                int rank = -1;
                type = Object.class;
                for (int i = 0; i < components.length && rank < 0; i++) {
                    if (SNAKE.translate(components[i].getName()).equals(m.group(2))) {
                        rank = i;
                        type = components[i].getGenericType();
                    }
                }
                out.add(new Step(rank, m.group(2)));
            } else {
                out.add(new Step(0, m.group(2)));
                type = isMap(type) ? typeArgument(type, 1) : Object.class;
            }
        }
        return out;
    }

    private static boolean isMap(Type type) {
        return type instanceof ParameterizedType p
                && p.getRawType() instanceof Class<?> c
                && Map.class.isAssignableFrom(c);
    }

    private static Type typeArgument(Type type, int i) {
        if (type instanceof ParameterizedType p
                && p.getRawType() instanceof Class<?> c
                && (Collection.class.isAssignableFrom(c) || Map.class.isAssignableFrom(c))) {
            return p.getActualTypeArguments()[i];
        }
        return Object.class;
    }
}
