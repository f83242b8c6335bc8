package dev.podium.ingest.store;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A row record read as the columns of a multi-row statement: one {@code ?::type[]} parameter per record component, in
 * declaration order, named after the component in snake_case ({@code runId} is {@code run_id}) and typed after its Java
 * type. Statements read rows of the record from {@link #unnest}, name the columns they use, and bind a list of rows
 * with {@link #bind}, which sends each column as one {@link ArrayLiteral}: the server plans and executes once per batch,
 * not once per row, and no code outside this class counts parameters.
 */
public final class Columns<R extends Record> {

    private static final Map<Class<?>, String> TYPES = Map.ofEntries(
            Map.entry(UUID.class, "uuid"),
            Map.entry(String.class, "text"),
            Map.entry(Integer.class, "int"),
            Map.entry(int.class, "int"),
            Map.entry(Long.class, "bigint"),
            Map.entry(long.class, "bigint"),
            Map.entry(Double.class, "float8"),
            Map.entry(double.class, "float8"),
            Map.entry(Boolean.class, "bool"),
            Map.entry(boolean.class, "bool"),
            Map.entry(Instant.class, "timestamptz"),
            Map.entry(BigDecimal.class, "numeric"));

    /** A component's column: its name, array type, and its accessor, typed {@code (Object)Object} for invokeExact. */
    private record Column(String name, String type, MethodHandle accessor) {}

    private final List<Column> columns;

    private Columns(List<Column> columns) {
        this.columns = columns;
    }

    /** The columns of {@code type}; a component of a type with no column type here is refused at once. */
    public static <R extends Record> Columns<R> of(Class<R> type) {
        return new Columns<>(
                Stream.of(type.getRecordComponents()).map(Columns::column).toList());
    }

    private static Column column(RecordComponent component) {
        String sqlType = TYPES.get(component.getType());
        if (sqlType == null) {
            throw new IllegalArgumentException(component + " has no column type");
        }
        try {
            Method accessor = component.getAccessor();
            // Row records are often private to the class that writes them; their accessors are public.
            accessor.setAccessible(true);
            MethodHandle handle = MethodHandles.lookup()
                    .unreflect(accessor)
                    .asType(MethodType.methodType(Object.class, Object.class));
            return new Column(snakeCase(component.getName()), sqlType, handle);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + component, e);
        }
    }

    static String snakeCase(String name) {
        return name.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
    }

    /** The parameters, {@code ?::uuid[], ?::text[], ...}: the arguments of an {@code unnest} or of a function. */
    public String parameters() {
        return columns.stream().map(c -> "?::" + c.type() + "[]").collect(Collectors.joining(", "));
    }

    /** The column names, {@code run_id, stream_id, ...}. */
    public String names() {
        return columns.stream().map(Column::name).collect(Collectors.joining(", "));
    }

    /** {@code unnest(?::uuid[], ...) AS alias(run_id, ...)}: the rows, as a FROM item. */
    public String unnest(String alias) {
        return "unnest(" + parameters() + ") AS " + alias + "(" + names() + ")";
    }

    /** The same with {@code ord}, each row's place in the list, for statements that must write rows in order. */
    public String unnestWithOrdinality(String alias) {
        return "unnest(" + parameters() + ") WITH ORDINALITY AS " + alias + "(" + names() + ", ord)";
    }

    /** Calls a function that takes the rows as its arguments, one array per column, and returns nothing kept. */
    public void call(Connection c, String function, List<R> rows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + function + "(" + parameters() + ")")) {
            bind(ps, 1, rows);
            ps.execute();
        }
    }

    /** Binds the rows as column arrays from parameter {@code first} on; the next parameter. */
    public int bind(PreparedStatement ps, int first, List<R> rows) throws SQLException {
        for (int i = 0; i < columns.size(); i++) {
            ArrayLiteral column = new ArrayLiteral(rows.size());
            MethodHandle accessor = columns.get(i).accessor();
            for (R row : rows) {
                column.add(value(accessor, row));
            }
            column.bind(ps, first + i);
        }
        return first + columns.size();
    }

    private static Object value(MethodHandle accessor, Object row) {
        try {
            return (Object) accessor.invokeExact(row);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(
                    "cannot read a component of " + row.getClass().getSimpleName(), e);
        }
    }
}
